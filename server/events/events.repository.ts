import { sql } from 'kysely';
import type { Db, DbKind } from '../db/index';
import type { DomainEvent, StoredEvent } from './events';

type EventRow = { id: number; userId: number; kind: string; payload: string };

/** The column is NOT NULL (010): 0 stands for "no one user". */
const NO_USER = 0;

const toStored = (r: EventRow): StoredEvent =>
  ({
    id: r.id,
    name: r.kind,
    userId: r.userId === NO_USER ? null : r.userId,
    payload: JSON.parse(r.payload),
  }) as StoredEvent;

/** A stored event that is due to its subscribers, with its failed deliveries so far. */
export type DueEvent = { event: StoredEvent; attempts: number };

/** The events table (the outbox): Kysely only. */
export class EventsRepository {
  constructor(
    private db: Db,
    private kind: DbKind,
  ) {}

  /** Appends `events` in `exec` (the caller's transaction); `dispatchAt` is when each is due to subscribers. */
  async append(exec: Db, events: { event: DomainEvent; dispatchAt: number | null }[], now: number): Promise<void> {
    await exec
      .insertInto('events')
      .values(
        events.map(({ event, dispatchAt }) => ({
          userId: event.userId ?? NO_USER,
          kind: event.name,
          payload: JSON.stringify(event.payload),
          createdAt: now,
          dispatchAt,
        })),
      )
      .execute();
  }

  /** PostgreSQL: wakes every process LISTENing on `channel`, when (and only if) `exec`'s transaction commits. */
  async notify(exec: Db, channel: string): Promise<void> {
    await sql`select pg_notify(${channel}, '')`.execute(exec);
  }

  /** Events after `afterId` in id order; `userId` narrows to one user's (null: everybody's). */
  async after(afterId: number, limit: number, userId: number | null = null): Promise<StoredEvent[]> {
    let q = this.db
      .selectFrom('events')
      .select(['id', 'userId', 'kind', 'payload'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    if (userId !== null) q = q.where('userId', '=', userId);
    return (await q.execute()).map(toStored);
  }

  /** The events named `kind` about `userId` recorded since `sinceMs` (kept a day after delivery: see prune). */
  async since(kind: string, userId: number | null, sinceMs: number): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'userId', 'kind', 'payload'])
      .where('kind', '=', kind)
      .where('userId', '=', userId ?? NO_USER)
      .where('createdAt', '>=', sinceMs)
      .orderBy('id')
      .execute();
    return rows.map(toStored);
  }

  async lastId(): Promise<number> {
    const r = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(r?.max ?? 0);
  }

  /** Whether some event is due to subscribers at `now` (a read: no lock is taken when none is). */
  async anyDue(now: number): Promise<boolean> {
    const r = await this.db
      .selectFrom('events')
      .select('id')
      .where('dispatchAt', '<=', now)
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Takes the next due event in `trx` and marks it delivered there: a rollback gives it back. On PostgreSQL a
   * row another process is delivering is skipped (locked until its transaction ends); on SQLite the UPDATE takes
   * the one write lock first.
   */
  async claim(trx: Db, now: number): Promise<DueEvent | undefined> {
    const r = await trx
      .updateTable('events')
      .set({ dispatchAt: null })
      .where('id', '=', (eb) => {
        const due = eb
          .selectFrom('events')
          .select('id')
          .where('dispatchAt', '<=', now)
          .orderBy('dispatchAt')
          .orderBy('id')
          .limit(1);
        return this.kind === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .returning(['id', 'userId', 'kind', 'payload', 'dispatchAttempts'])
      .executeTakeFirst();
    return r ? { event: toStored(r), attempts: r.dispatchAttempts } : undefined;
  }

  /** A delivery failed: counted, and due again at `at` (null: given up). */
  async postpone(id: number, attempts: number, at: number | null): Promise<void> {
    await this.db
      .updateTable('events')
      .set({ dispatchAttempts: attempts, dispatchAt: at })
      .where('id', '=', id)
      .where('dispatchAt', 'is not', null) // not delivered by another process meanwhile
      .execute();
  }

  /** Removes delivered events older than `beforeMs`. */
  async prune(beforeMs: number): Promise<number> {
    const r = await this.db
      .deleteFrom('events')
      .where('createdAt', '<', beforeMs)
      .where('dispatchAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
