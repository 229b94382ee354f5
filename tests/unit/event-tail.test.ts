import { EventTail } from '../../server/events/event-tail';
import type { StoredEvent } from '../../server/events/events';
import type { EventsRepository } from '../../server/events/events.repository';

/** A fake events table: rows become visible when a test "commits" them, in any id order. */
function table() {
  const visible: StoredEvent[] = [];
  const repo = {
    lastId: async () => 0,
    after: async (after: number) => visible.filter((r) => r.id > after).sort((a, b) => a.id - b.id),
  } satisfies Pick<EventsRepository, 'after' | 'lastId'>;
  const commit = (id: number) =>
    visible.push({ id, userId: 1, name: 'render.changed', payload: { id } } as unknown as StoredEvent);
  return { repo, commit };
}

/** A tail whose reads the test runs (a wake reads again, as the bus does). */
function tailOf(repo: ReturnType<typeof table>['repo']) {
  const got: number[] = [];
  const tail: EventTail = new EventTail({ repo, wake: () => void tail.read() });
  return { tail, got, follower: { deliver: async (rows: StoredEvent[]) => void got.push(...rows.map((r) => r.id)) } };
}

describe('the event tail', () => {
  it('waits for an id committed late and delivers every event in id order', async () => {
    const { repo, commit } = table();
    const { tail, got, follower } = tailOf(repo);
    await tail.follow(follower);
    commit(1);
    commit(3); // 2 is still in flight in another transaction
    await tail.read();
    expect(got).toEqual([1]);
    commit(2);
    await tail.read();
    expect(got).toEqual([1, 2, 3]);
    tail.close();
  });

  it('moves past an id that never comes (a rolled-back insert) after a short wait', async () => {
    const { repo, commit } = table();
    const { tail, got, follower } = tailOf(repo);
    await tail.follow(follower);
    commit(1);
    commit(3);
    await tail.read();
    expect(got).toEqual([1]);
    await vi.waitFor(() => expect(got).toEqual([1, 3]), { timeout: 3000 });
    tail.close();
  });

  it('starts a follower after the newest event, and forgets its place when nobody follows', async () => {
    const { repo, commit } = table();
    repo.lastId = async () => 5;
    const { tail, got, follower } = tailOf(repo);
    expect(await tail.follow(follower)).toBe(5);
    commit(6);
    await tail.read();
    expect(got).toEqual([6]);
    tail.unfollow(follower);
    commit(7);
    await tail.read();
    expect(got).toEqual([6]);
    tail.close();
  });
});
