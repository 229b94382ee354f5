import { sql } from 'kysely';
import type { Db } from '../db/index';
import { paginate } from '../http/paginate';
import type { Page } from '../../src/contract/pagination';

export type EventRow = { id: number; userId: number; kind: string; payload: string };
export type NotificationRow = {
  id: number;
  userId: number;
  kind: string;
  params: string;
  link: string | null;
  readAt: string | null;
  createdAt: string;
};

/** Where a publish row belongs: its owner and the publication's request (for links). */
export type PublishOwner = { userId: number; videoId: number; publicationId: number | null; idUpload: string | null };

/** The live stream's events and the bell's notifications: Kysely only. */
export class LiveRepository {
  constructor(private db: Db) {}

  async appendEvent(userId: number, kind: string, payload: unknown): Promise<number> {
    const r = await this.db
      .insertInto('events')
      .values({ userId, kind, payload: JSON.stringify(payload), createdAt: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Records that the ticket `ticketId` opened a stream; false when it already had (here or in another process
   * on the same database). Expired redemptions are pruned on the way.
   */
  async redeemTicket(ticketId: string, expiresMs: number, now: number): Promise<boolean> {
    await this.db.deleteFrom('liveTicketRedemptions').where('expiresMs', '<=', now).execute();
    const r = await this.db
      .insertInto('liveTicketRedemptions')
      .values({ ticketId, expiresMs })
      .onConflict((oc) => oc.column('ticketId').doNothing())
      .returning('ticketId')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Events after `afterId` in id order; `userId` narrows to one user's (null: everybody's). */
  eventsAfter(afterId: number, limit: number, userId: number | null = null): Promise<EventRow[]> {
    let q = this.db
      .selectFrom('events')
      .select(['id', 'userId', 'kind', 'payload'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    if (userId !== null) q = q.where('userId', '=', userId);
    return q.execute();
  }

  async lastEventId(): Promise<number> {
    const r = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(r?.max ?? 0);
  }

  async pruneEvents(before: string): Promise<number> {
    const r = await this.db.deleteFrom('events').where('createdAt', '<', Date.parse(before)).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async insertNotification(v: { userId: number; kind: string; params: unknown; link: string | null }) {
    return this.db
      .insertInto('notifications')
      .values({ ...v, params: JSON.stringify(v.params), createdAt: new Date().toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<NotificationRow>;
  }

  listNotifications(userId: number, page: number): Promise<Page<NotificationRow>> {
    return paginate(
      this.db.selectFrom('notifications').where('userId', '=', userId),
      page,
      (q) => q.selectAll().orderBy('id', 'desc'),
      (r) => r as NotificationRow,
    );
  }

  async unreadCount(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('readAt', 'is', null)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Marks one of the user's notifications read (kept as it was when already read); undefined: not theirs. */
  async markRead(userId: number, id: number): Promise<NotificationRow | undefined> {
    await this.db
      .updateTable('notifications')
      .set({ readAt: new Date().toISOString() })
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('readAt', 'is', null)
      .execute();
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst() as Promise<NotificationRow | undefined>;
  }

  async markAllRead(userId: number): Promise<number> {
    const r = await this.db
      .updateTable('notifications')
      .set({ readAt: new Date().toISOString() })
      .where('userId', '=', userId)
      .where('readAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async deleteNotification(userId: number, id: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('notifications')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async adminIds(): Promise<number[]> {
    const rows = await this.db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    return rows.map((r) => r.id);
  }

  async requestOwner(requestId: number): Promise<{ userId: number; idUpload: string } | undefined> {
    return this.db
      .selectFrom('createVideoRequests')
      .select(['userId', 'idUpload'])
      .where('id', '=', requestId)
      .executeTakeFirst();
  }

  async publishOwner(publishId: number): Promise<PublishOwner | undefined> {
    const r = await this.db
      .selectFrom('videoPublishes')
      .innerJoin('videos', 'videos.id', 'videoPublishes.videoId')
      .leftJoin('publications', 'publications.id', 'videos.publicationId')
      .leftJoin('createVideoRequests', 'createVideoRequests.id', 'publications.requestId')
      .select(['videos.userId', 'videos.id as videoId', 'videos.publicationId', 'createVideoRequests.idUpload'])
      .where('videoPublishes.id', '=', publishId)
      .executeTakeFirst();
    return r ? { ...r, idUpload: r.idUpload ?? null } : undefined;
  }

  /** PostgreSQL only: wakes every process LISTENing on `channel` (the payload is the new event's id). */
  async notify(channel: string, payload: string): Promise<void> {
    await sql`select pg_notify(${channel}, ${payload})`.execute(this.db);
  }
}
