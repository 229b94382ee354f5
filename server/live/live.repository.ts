import type { Db } from '../db/index';
import { paginate } from '../http/paginate';
import type { Page } from '../../src/contract/pagination';

export type NotificationRow = {
  id: number;
  userId: number;
  kind: string;
  params: string;
  link: string | null;
  readAt: string | null;
  createdAt: string;
};

/** The live streams' redeemed tickets and the bell's notifications: Kysely only. */
export class LiveRepository {
  constructor(private db: Db) {}

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

  /**
   * Puts a notification in the user's bell, in `exec` (the delivery's transaction); undefined when the user is
   * gone (deleted while the work that tells them of it ran).
   */
  async insertNotification(
    exec: Db,
    v: { userId: number; kind: string; params: unknown; link: string | null },
  ): Promise<NotificationRow | undefined> {
    const user = await exec.selectFrom('users').select('id').where('id', '=', v.userId).executeTakeFirst();
    if (!user) return undefined;
    return exec
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

  async adminIds(exec: Db): Promise<number[]> {
    const rows = await exec.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    return rows.map((r) => r.id);
  }

  /** The idUpload of the request a publish row's publication came from (its link), if any. */
  async publishUpload(exec: Db, publishId: number): Promise<string | null> {
    const r = await exec
      .selectFrom('videoPublishes')
      .innerJoin('videos', 'videos.id', 'videoPublishes.videoId')
      .innerJoin('publications', 'publications.id', 'videos.publicationId')
      .innerJoin('createVideoRequests', 'createVideoRequests.id', 'publications.requestId')
      .select('createVideoRequests.idUpload')
      .where('videoPublishes.id', '=', publishId)
      .executeTakeFirst();
    return r?.idUpload ?? null;
  }
}
