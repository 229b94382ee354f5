import { QueryClient } from '@tanstack/react-query';
import { applyLive } from '../../src/live/LiveUpdates';
import { liveBackoff, startLive, type LiveMessage } from '../../src/providers/liveStream';
import { mayReceive } from '../../server/live/live.hub';

/** A stand-in EventSource: tests open, message and fail it by hand. */
class FakeSource {
  static all: FakeSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string; lastEventId: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeSource.all.push(this);
  }
  close() {
    this.closed = true;
  }
}

describe('live client', () => {
  let tickets = 0;
  beforeEach(() => {
    FakeSource.all = [];
    tickets = 0;
    (globalThis as unknown as { EventSource: unknown }).EventSource = FakeSource;
    liveBackoff.firstMs = 1;
    liveBackoff.maxMs = 4;
  });

  it('opens one stream with a ticket, reconnects with a fresh one after the last id, and stops', async () => {
    const got: LiveMessage[] = [];
    const opens: boolean[] = [];
    const stop = startLive({
      ticket: async () => `t${++tickets}`,
      onMessage: (m) => got.push(m),
      onOpen: (r) => opens.push(r),
    });
    await vi.waitFor(() => expect(FakeSource.all).toHaveLength(1));
    const first = FakeSource.all[0]!;
    expect(first.url).toBe('/api/live/events?ticket=t1');
    first.onopen!();
    first.onmessage!({ data: JSON.stringify({ kind: 'request', payload: { id: 4 } }), lastEventId: '17' });
    expect(got).toEqual([{ id: 17, kind: 'request', payload: { id: 4 } }]);
    first.onerror!();
    expect(first.closed).toBe(true);
    await vi.waitFor(() => expect(FakeSource.all).toHaveLength(2));
    expect(FakeSource.all[1]!.url).toBe('/api/live/events?ticket=t2&lastEventId=17');
    FakeSource.all[1]!.onopen!();
    expect(opens).toEqual([false, true]);
    stop();
    expect(FakeSource.all[1]!.closed).toBe(true);
    FakeSource.all[1]!.onerror!();
    await new Promise((r) => setTimeout(r, 20));
    expect(FakeSource.all).toHaveLength(2);
  });
});

describe('applyLive', () => {
  it('patches the request in every cached page of the request list, without a refetch', () => {
    const qc = new QueryClient();
    const key = ['create-video', 'getList', { pagination: { page: 1, perPage: 10 } }];
    const row = { id: 5, idUpload: 'u5', status: 'pending', progress: 0, done: 0, count: 3, error: null };
    qc.setQueryData(key, { data: [row, { ...row, id: 6 }], total: 2 });
    applyLive(qc, {
      id: 1,
      kind: 'request',
      payload: { id: 5, idUpload: 'u5', status: 'loading', progress: 40, done: 1, count: 3, error: null },
    });
    const data = qc.getQueryData<{ data: (typeof row)[] }>(key)!.data;
    expect(data[0]).toMatchObject({ id: 5, status: 'loading', progress: 40, done: 1 });
    expect(data[1]).toMatchObject({ id: 6, status: 'pending' });
    expect(qc.getQueryState(key)!.isInvalidated).toBe(false);
  });

  it('refreshes the list for a request it has not loaded, and publications and the bell on theirs', () => {
    const qc = new QueryClient();
    const list = ['create-video', 'getList', {}];
    const detail = ['upload-video', 'detail', 'u5'];
    const bell = ['notifications', 'page', 1];
    for (const k of [list, detail, bell]) qc.setQueryData(k, { data: [] });
    applyLive(qc, { id: 1, kind: 'request', payload: { id: 99, status: 'loading' } });
    applyLive(qc, { id: 2, kind: 'publish', payload: { publishId: 1, state: 'uploading' } });
    applyLive(qc, { id: 3, kind: 'notification', payload: { id: 1 } });
    for (const k of [list, detail, bell]) expect(qc.getQueryState(k)!.isInvalidated).toBe(true);
  });
});

describe('who receives an event', () => {
  it('a user their own; an admin everybody’s except others’ notifications', () => {
    const user = { userId: 2, admin: false };
    const admin = { userId: 1, admin: true };
    expect(mayReceive(user, { userId: 2, kind: 'request' })).toBe(true);
    expect(mayReceive(user, { userId: 3, kind: 'request' })).toBe(false);
    expect(mayReceive(admin, { userId: 3, kind: 'publish' })).toBe(true);
    expect(mayReceive(admin, { userId: 3, kind: 'notification' })).toBe(false);
    expect(mayReceive(admin, { userId: 1, kind: 'notification' })).toBe(true);
  });
});
