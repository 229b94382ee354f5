import type { SessionUser } from './auth.repository';

/**
 * The live sessions this process checked in the last SESSION_CACHE_MS: GET requests in a burst (a panel page
 * asks for several lists at once) check the database once. Several API processes may share PostgreSQL, so
 * the time is very short: a change made through another process applies here within it. In this process a
 * change applies at once: every write request checks the database afresh and clears the cache, and so does
 * every revocation and password change (auth.repository.ts). Only live sessions are kept.
 */
export const SESSION_CACHE_MS = 1_000;
const MAX_ENTRIES = 10_000;

/** One per composition root (server/container.ts): the guard reads it, the auth repository clears it. */
export class SessionCache {
  private entries = new Map<string, { user: SessionUser; at: number }>();

  get(sessionId: string, userId: number, now = Date.now()): SessionUser | undefined {
    const e = this.entries.get(`${sessionId}:${userId}`);
    if (!e) return undefined;
    if (now - e.at < SESSION_CACHE_MS) return e.user;
    this.entries.delete(`${sessionId}:${userId}`);
    return undefined;
  }

  set(sessionId: string, userId: number, user: SessionUser, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${sessionId}:${userId}`, { user, at: now });
  }

  clear(): void {
    this.entries.clear();
  }
}
