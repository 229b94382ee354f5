import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { M } from '../../src/contract/messages';
import type { AuthUser, LoginInput, LoginResponse, RefreshResponse } from '../../src/contract/auth';
import type { PasswordChange } from '../../src/contract/users';
import { AppError, TooManyRequests } from '../http/errors';
import type { EventBus } from '../events/event-bus';
import type { AuthRepository } from './auth.repository';
import type { LoginThrottle } from './login-throttle';
import { dummyHash, hashPassword, verifyPassword } from './password';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Signs an access token for the user in the session `sessionId` (the refresh-token family). */
export type SignAccess = (user: AuthUser, sessionId: string) => string;

/**
 * How long a just-rotated refresh token still answers with its successor: two tabs of one panel share the
 * token and may refresh at the same moment; the second must not look like a stolen token being replayed.
 */
export const REFRESH_GRACE_MS = 30_000;

export class AuthService {
  constructor(
    private repo: AuthRepository,
    private throttle: LoginThrottle,
    private signAccess: SignAccess,
    private refreshTtlSec: number,
    /** HMAC key deriving a rotated token's successor from it, so a repeat within the grace gets the same one. */
    private successorKey: string,
    /** A session that ends is recorded as `session.changed`: that user's open streams are checked at once. */
    private events: EventBus,
  ) {}

  async login(input: LoginInput, address: string): Promise<LoginResponse> {
    const attempt = { login: input.login, address };
    const wait = await this.throttle.reserve(attempt);
    if (wait > 0) throw new TooManyRequests(M.tooManyAttempts, wait, { minutes: Math.ceil(wait / 60) });
    const delay = await this.throttle.delayMs(input.login);
    if (delay > 0) await sleep(delay);
    const row = await this.repo.findUserByLogin(input.login);
    const ok = await verifyPassword(input.password, row?.passwordHash ?? (await dummyHash()));
    if (!row || !ok) {
      await this.throttle.fail(attempt);
      throw new AppError(401, M.invalidCredentials);
    }
    await this.throttle.succeed(attempt);
    const user: AuthUser = { id: row.id, login: row.login, role: row.role };
    const familyId = randomUUID();
    const refreshToken = await this.issueRefresh(user.id, familyId, randomBytes(32).toString('base64url'));
    return { user, accessToken: this.signAccess(user, familyId), refreshToken };
  }

  /**
   * Rotates the refresh token. The just-rotated token presented again within REFRESH_GRACE_MS (another tab
   * refreshing at the same moment) gets the same successor; later, it counts as reuse and revokes the family.
   */
  async refresh(token: string): Promise<RefreshResponse & { user: AuthUser }> {
    const now = new Date();
    let row = await this.repo.findRefreshToken(sha256(token));
    if (!row || row.revokedAt || new Date(row.expiresAt) <= now) throw new AppError(401, M.invalidRefresh);
    const rotatedHere = !row.replacedAt && (await this.repo.markReplaced(row.id, now.toISOString()));
    if (!rotatedHere) {
      row = await this.repo.findRefreshToken(sha256(token));
      const inGrace =
        row?.replacedAt && !row.revokedAt && now.getTime() - Date.parse(row.replacedAt) <= REFRESH_GRACE_MS;
      if (!row || !inGrace) {
        if (row) await this.endSession(row.familyId, now.toISOString());
        throw new AppError(401, M.invalidRefresh);
      }
    }
    const userRow = await this.repo.findUserById(row.userId);
    if (!userRow) throw new AppError(401, M.invalidRefresh);
    const user: AuthUser = { id: userRow.id, login: userRow.login, role: userRow.role };
    const successor = this.successorOf(token);
    if (rotatedHere) await this.issueRefresh(user.id, row.familyId, successor);
    return { user, accessToken: this.signAccess(user, row.familyId), refreshToken: successor };
  }

  async logout(token: string | undefined): Promise<void> {
    if (!token) return;
    const row = await this.repo.findRefreshToken(sha256(token));
    if (row) await this.endSession(row.familyId, new Date().toISOString());
  }

  /**
   * Changes the caller's password and ends their other sessions: every refresh-token family is revoked but
   * the one of `keepRefreshToken` (the caller's own session, when it is theirs).
   */
  async changePassword(userId: number, input: PasswordChange, keepRefreshToken?: string): Promise<void> {
    const row = await this.repo.findUserById(userId);
    if (!row) throw new AppError(404, M.notFound);
    if (!(await verifyPassword(input.currentPassword, row.passwordHash))) {
      throw new AppError(400, M.validation, { currentPassword: M.wrongCurrentPassword });
    }
    const at = new Date().toISOString();
    await this.repo.updatePassword(userId, await hashPassword(input.newPassword), at);
    const own = keepRefreshToken ? await this.repo.findRefreshToken(sha256(keepRefreshToken)) : undefined;
    const keep = own?.userId === userId ? own.familyId : undefined;
    await this.events.transaction(async (trx) => {
      if (await this.repo.revokeAllForUser(trx, userId, at, keep))
        await this.events.record(trx, { name: 'session.changed', userId, payload: {} });
    });
  }

  /** Ends a session (refresh-token family) and, in the same transaction, tells its user's open streams. */
  private async endSession(familyId: string, at: string): Promise<void> {
    await this.events.transaction(async (trx) => {
      const owner = (await this.repo.revokeFamily(trx, familyId, at))
        ? await this.repo.familyOwner(trx, familyId)
        : undefined;
      if (owner !== undefined) await this.events.record(trx, { name: 'session.changed', userId: owner, payload: {} });
    });
  }

  /** The token that replaces `token`: unguessable without the key, the same for every repeat within the grace. */
  private successorOf(token: string): string {
    return createHmac('sha256', this.successorKey).update(`refresh-successor:${token}`).digest('base64url');
  }

  private async issueRefresh(userId: number, familyId: string, token: string): Promise<string> {
    const now = new Date();
    await this.repo.insertRefreshToken({
      userId,
      familyId,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + this.refreshTtlSec * 1000).toISOString(),
      createdAt: now.toISOString(),
    });
    return token;
  }
}
