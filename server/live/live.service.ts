import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DbKind } from '../db/index';
import type { AuthUser } from '../../src/contract/auth';
import type { LiveKind, Notification, NotificationPage, NoticeKind } from '../../src/contract/live';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import { LIVE_CHANNEL, SESSION_CHANGED, type LiveHub } from './live.hub';
import type { LiveRepository, NotificationRow } from './live.repository';

/** How long a stream ticket may open its one stream (the panel asks for a new one on every reconnect). */
export const TICKET_TTL_SEC = 60;

/** The ticket's user and session; `id` names it among the redeemed ones until `expiresMs`. */
export type TicketClaims = { userId: number; sid: string; id: string; expiresMs: number };

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
      await this.append(userId, kind, payload);
    } catch (err) {
      this.deps.log?.warn({ err, kind }, 'live event not recorded');
    }
  }

  /**
   * The user's access changed (role, deletion, password, a session ended): every process checks that user's
   * open streams at once, narrowing or ending them. Called after the change is committed, and never fails
   * it: if the signal is lost, the hub's check before each delivery still keeps what a stream may no longer
   * read from it, and the heartbeat ends it.
   */
  async sessionChanged(userId: number): Promise<void> {
    try {
      await this.append(userId, SESSION_CHANGED, {});
    } catch (err) {
      this.deps.log?.warn({ err, userId }, 'live streams: session change not signalled');
    }
  }

  private async append(userId: number, kind: string, payload: Record<string, unknown>) {
    const id = await this.repo.appendEvent(userId, kind, payload);
    if (this.deps.dbKind === 'postgres') await this.repo.notify(LIVE_CHANNEL, String(id));
    this.hub.wake();
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

  // Stream tickets: `<userId>.<sid>.<exp>.<nonce>.<hmac>`, signed with a key of their own (never a bearer
  // token); the nonce names the ticket when it is redeemed.

  ticket(userId: number, sid: string, now = Date.now()): { ticket: string; expiresInSec: number } {
    const exp = Math.floor(now / 1000) + TICKET_TTL_SEC;
    const nonce = randomBytes(16).toString('base64url');
    const body = `${userId}.${Buffer.from(sid).toString('base64url')}.${exp}.${nonce}`;
    return { ticket: `${body}.${this.sign(body)}`, expiresInSec: TICKET_TTL_SEC };
  }

  /** The ticket's user and session, or a 401 when it is damaged or expired. */
  verifyTicket(ticket: string | undefined, now = Date.now()): TicketClaims {
    const parts = (ticket ?? '').split('.');
    if (parts.length !== 5) throw new AppError(401, M.unauthorized);
    const [uid, sid, exp, nonce, mac] = parts as [string, string, string, string, string];
    const want = Buffer.from(this.sign(`${uid}.${sid}.${exp}.${nonce}`));
    const got = Buffer.from(mac);
    const valid = got.length === want.length && timingSafeEqual(got, want);
    if (!valid || !/^\d+$/.test(uid) || Number(exp) * 1000 < now) throw new AppError(401, M.unauthorized);
    return {
      userId: Number(uid),
      sid: Buffer.from(sid, 'base64url').toString(),
      id: nonce,
      expiresMs: Number(exp) * 1000,
    };
  }

  /**
   * Verifies the ticket and redeems it: a ticket opens one stream, once, in whichever process sees it first
   * (the redemption is recorded in the database). A second use, here or elsewhere, is a 401.
   */
  async redeemTicket(ticket: string | undefined, now = Date.now()): Promise<TicketClaims> {
    const claims = this.verifyTicket(ticket, now);
    if (!(await this.repo.redeemTicket(claims.id, claims.expiresMs, now))) throw new AppError(401, M.unauthorized);
    return claims;
  }

  private sign(body: string) {
    return createHmac('sha256', this.deps.ticketKey).update(body).digest('base64url');
  }
}
