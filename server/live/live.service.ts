import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DbKind } from '../db/index';
import type { AuthUser } from '../../src/contract/auth';
import type { LiveKind, Notification, NotificationPage, NoticeKind } from '../../src/contract/live';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import { LIVE_CHANNEL, type LiveHub } from './live.hub';
import type { LiveRepository, NotificationRow } from './live.repository';

/** How long a stream ticket opens a stream (the panel asks for a new one on every reconnect). */
export const TICKET_TTL_SEC = 60;

export type TicketClaims = { userId: number; sid: string };

const toNotification = (r: NotificationRow): Notification => ({
  id: r.id,
  kind: r.kind as NoticeKind,
  params: JSON.parse(r.params),
  link: r.link,
  readAt: r.readAt,
  createdAt: r.createdAt,
});

/**
 * Live updates and the bell. `emit` appends an event for a user (their streams, and admins', receive it
 * from any API process); `notify` stores a notification and emits it. Writers never fail for it: a lost
 * event costs a moment's freshness (the panel's refresh is the fallback), never the work that reported it.
 */
export class LiveService {
  constructor(
    private repo: LiveRepository,
    private hub: LiveHub,
    private deps: { dbKind: DbKind; ticketKey: string; log?: FastifyBaseLogger },
  ) {}

  async emit(userId: number, kind: LiveKind, payload: Record<string, unknown>): Promise<void> {
    try {
      const id = await this.repo.appendEvent(userId, kind, payload);
      if (this.deps.dbKind === 'postgres') await this.repo.notify(LIVE_CHANNEL, String(id));
      this.hub.wake();
    } catch (err) {
      this.deps.log?.warn({ err, kind }, 'live event not recorded');
    }
  }

  async notify(userId: number, kind: NoticeKind, params: Notification['params'], link: string | null) {
    try {
      const row = await this.repo.insertNotification({ userId, kind, params, link });
      await this.emit(userId, 'notification', toNotification(row));
    } catch (err) {
      this.deps.log?.warn({ err, kind }, 'notification not recorded');
    }
  }

  async notifyAdmins(kind: NoticeKind, params: Notification['params'], link: string | null) {
    for (const id of await this.repo.adminIds().catch(() => [])) await this.notify(id, kind, params, link);
  }

  // The bell: every user's own notifications, admins' too (a personal inbox, not a shared list).

  async list(user: AuthUser, page: number): Promise<NotificationPage> {
    const [p, unread] = await Promise.all([this.repo.listNotifications(user.id, page), this.repo.unreadCount(user.id)]);
    return { ...p, data: p.data.map(toNotification), unread };
  }

  async read(user: AuthUser, id: number): Promise<Notification> {
    const row = await this.repo.markRead(user.id, id);
    if (!row) throw new AppError(404, M.notFound);
    return toNotification(row);
  }

  async readAll(user: AuthUser): Promise<{ updated: number }> {
    return { updated: await this.repo.markAllRead(user.id) };
  }

  async remove(user: AuthUser, id: number): Promise<undefined> {
    if (!(await this.repo.deleteNotification(user.id, id))) throw new AppError(404, M.notFound);
    return undefined;
  }

  // Stream tickets: `<userId>.<sid>.<exp>.<hmac>`, signed with a key of their own (never a bearer token).

  ticket(userId: number, sid: string, now = Date.now()): { ticket: string; expiresInSec: number } {
    const body = `${userId}.${Buffer.from(sid).toString('base64url')}.${Math.floor(now / 1000) + TICKET_TTL_SEC}`;
    return { ticket: `${body}.${this.sign(body)}`, expiresInSec: TICKET_TTL_SEC };
  }

  /** The ticket's user and session, or a 401 when it is damaged or expired. */
  verifyTicket(ticket: string | undefined, now = Date.now()): TicketClaims {
    const parts = (ticket ?? '').split('.');
    if (parts.length !== 4) throw new AppError(401, M.unauthorized);
    const [uid, sid, exp, mac] = parts as [string, string, string, string];
    const want = Buffer.from(this.sign(`${uid}.${sid}.${exp}`));
    const got = Buffer.from(mac);
    const valid = got.length === want.length && timingSafeEqual(got, want);
    if (!valid || !/^\d+$/.test(uid) || Number(exp) * 1000 < now) throw new AppError(401, M.unauthorized);
    return { userId: Number(uid), sid: Buffer.from(sid, 'base64url').toString() };
  }

  private sign(body: string) {
    return createHmac('sha256', this.deps.ticketKey).update(body).digest('base64url');
  }
}
