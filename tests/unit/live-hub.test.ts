import { LiveHub, type SessionKey } from '../../server/live/live.hub';
import type { LiveEvent } from '../../src/contract/live';
import type { EventRow, LiveRepository } from '../../server/live/live.repository';

/** A fake events table: rows become visible when a test "commits" them, in any id order. */
function table() {
  const visible: EventRow[] = [];
  const repo = {
    lastEventId: async () => 0,
    eventsAfter: async (after: number) => visible.filter((r) => r.id > after).sort((a, b) => a.id - b.id),
    pruneEvents: async () => undefined,
  } as unknown as LiveRepository;
  const commit = (id: number) =>
    visible.push({ id, userId: 1, kind: 'request', payload: JSON.stringify({ id }) } as EventRow);
  return { repo, commit };
}

/** Every session is live, its user a plain user. */
const sessions = async (keys: SessionKey[]) => keys.map((k) => ({ ...k, role: 'user' as const }));
const client = (got: number[]) => ({
  userId: 1,
  sid: 's',
  admin: false,
  send: (e: LiveEvent) => got.push(e.id),
  end: () => undefined,
});

describe('LiveHub tail', () => {
  it('waits for an id committed late and delivers every event in id order', async () => {
    const { repo, commit } = table();
    const hub = new LiveHub({ repo, pollMs: 60_000, sessions });
    const got: number[] = [];
    await hub.join(client(got), null);
    commit(1);
    commit(3); // 2 is still in flight in another transaction
    hub.wake();
    await vi.waitFor(() => expect(got).toEqual([1]));
    commit(2);
    hub.wake();
    await vi.waitFor(() => expect(got).toEqual([1, 2, 3]));
    await hub.close();
  });

  it('moves past an id that never comes (a rolled-back insert) after a short wait', async () => {
    const { repo, commit } = table();
    const hub = new LiveHub({ repo, pollMs: 60_000, sessions });
    const got: number[] = [];
    await hub.join(client(got), null);
    commit(1);
    commit(3);
    hub.wake();
    await vi.waitFor(() => expect(got).toEqual([1]));
    await vi.waitFor(() => expect(got).toEqual([1, 3]), { timeout: 3000 });
    await hub.close();
  });
});
