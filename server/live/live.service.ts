import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthUser } from '../../src/contract/auth';
import type { Notification, NotificationPage } from '../../src/contract/live';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import type { LiveRepository } from './live.repository';
import { toNotification } from './notification-record';

/** How long a stream ticket may open its one stream (the panel asks for a new one on every reconnect). */
export const TICKET_TTL_SEC = 60;

/** The ticket's user and session; `id` names it among the redeemed ones until `expiresMs`. */
export type TicketClaims = { userId: number; sid: string; id: string; expiresMs: number };

/**
 * The bell's API and the live streams' tickets. What the bell holds is written by its subscriber of the event
 * bus (live.notices.ts); what the streams show comes from the bus (live.hub.ts).
 */
export class LiveService {
  constructor(
    private repo: LiveRepository,
    private deps: { ticketKey: string },
  ) {}

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
