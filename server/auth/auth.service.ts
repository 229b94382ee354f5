import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { M } from '../../src/contract/messages';
import {
  LANGUAGES,
  type AuthUser,
  type Language,
  type LoginAnswer,
  type LoginInput,
  type LoginResponse,
  type RefreshResponse,
} from '../../src/contract/auth';
import type { PasswordChange } from '../../src/contract/users';
import { TM, type LoginCodeInput } from '../../src/contract/two-factor';
import { record } from '../audit/audit';
import type { Db } from '../db/index';
import { AppError, TooManyRequests } from '../http/errors';
import type { EventBus } from '../events/event-bus';
import type { AuthRepository } from './auth.repository';
import type { LoginThrottle, SignInAttempt } from './login-throttle';
import { dummyHash, hashPassword, verifyPassword } from './password';
import type { TwoFactorService } from './two-factor.service';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Signs an access token for the user in the session `sessionId` (the refresh-token family). */
/** A stored language the panel knows, else null. */
const languageOf = (v: string | null): Language | null =>
  (LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : null;

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
    /** Two-factor sign-in: the second step, after the password, of a user who turned it on. */
    private twoFactor: TwoFactorService,
    /** Where sign-ins and their failures are recorded in the audit log. */
    private db: Db,
  ) {}

  /**
   * The password step. A user with two-factor sign-in on gets a challenge for the second step (loginWithCode)
   * instead of tokens; one without it while an admin requires it signs in and is told to enrol.
   */
  async login(input: LoginInput, address: string): Promise<LoginAnswer> {
    const attempt = { login: input.login, address };
    await this.admit(attempt);
    const row = await this.repo.findUserByLogin(input.login);
    const ok = await verifyPassword(input.password, row?.passwordHash ?? (await dummyHash()));
    if (!row || !ok) {
      await this.throttle.fail(attempt);
      await record(this.db, {
        actorId: row?.id ?? null,
        actorLogin: input.login,
        action: 'auth.sign_in_failed',
        objectType: 'user',
        objectId: row?.id ?? null,
        ip: address,
        detail: { step: 'password' },
      });
      throw new AppError(401, M.invalidCredentials);
    }
    await this.throttle.succeed(attempt);
    if (row.totpSecretSealed) return { twoFactor: true, challenge: this.twoFactor.challengeFor(row) };
    const answer = await this.signedIn(row, address, 'password');
    return (await this.twoFactor.required()) ? { ...answer, enrolTwoFactor: true } : answer;
  }

  /**
   * The second step: the challenge of a right password and a code from the app (or a recovery code, once).
   * Throttled as passwords are, counted apart from them (`<login>#2fa`), so a known password buys no guesses.
   */
  async loginWithCode(input: LoginCodeInput, address: string): Promise<LoginResponse> {
    const row = await this.twoFactor.userOfChallenge(input.challenge);
    if (!row) throw new AppError(401, TM.challengeExpired);
    const attempt = { login: `${row.login}#2fa`, address };
    await this.admit(attempt);
    const how = await this.db.transaction().execute(async (trx) => {
      const spent = await this.twoFactor.spendCode(trx, row, input.code);
      if (spent === 'recovery')
        await record(trx, {
          actorId: row.id,
          actorLogin: row.login,
          action: 'two_factor.recovery_used',
          objectType: 'user',
          objectId: row.id,
          ip: address,
        });
      return spent;
    });
    if (!how) {
      await this.throttle.fail(attempt);
      await record(this.db, {
        actorId: row.id,
        actorLogin: row.login,
        action: 'auth.two_factor_failed',
        objectType: 'user',
        objectId: row.id,
        ip: address,
      });
      throw new AppError(401, TM.wrongCode);
    }
    await this.throttle.succeed(attempt);
    const user = await this.repo.findUserById(row.id);
    if (!user) throw new AppError(401, TM.challengeExpired);
    return this.signedIn(user, address, how);
  }

  /** Reserves the attempt's place in the throttle (429 when its window is full), then waits its delay. */
  private async admit(attempt: SignInAttempt): Promise<void> {
    const wait = await this.throttle.reserve(attempt);
    if (wait > 0) throw new TooManyRequests(M.tooManyAttempts, wait, { minutes: Math.ceil(wait / 60) });
    const delay = await this.throttle.delayMs(attempt.login);
    if (delay > 0) await sleep(delay);
  }

  /** A new session for the user, recorded as a sign-in. */
  private async signedIn(
    row: { id: number; login: string; role: AuthUser['role']; language: string | null },
    address: string,
    how: 'password' | 'totp' | 'recovery',
  ): Promise<LoginResponse> {
    const user: AuthUser = { id: row.id, login: row.login, role: row.role };
    const familyId = randomUUID();
    const refreshToken = await this.issueRefresh(user.id, familyId, randomBytes(32).toString('base64url'));
    await record(this.db, {
      actorId: user.id,
      actorLogin: user.login,
      action: 'auth.sign_in',
      objectType: 'user',
      objectId: user.id,
      ip: address,
      detail: { with: how },
    });
    return { user, accessToken: this.signAccess(user, familyId), refreshToken, language: languageOf(row.language) };
  }

  /** The user's interface language, for every browser they sign in on. */
  async setLanguage(userId: number, language: Language): Promise<void> {
    await this.repo.setLanguage(userId, language);
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
  async changePassword(
    userId: number,
    input: PasswordChange,
    keepRefreshToken?: string,
    address?: string,
  ): Promise<void> {
    const row = await this.repo.findUserById(userId);
    if (!row) throw new AppError(404, M.notFound);
    if (!(await verifyPassword(input.currentPassword, row.passwordHash))) {
      throw new AppError(400, M.validation, { currentPassword: M.wrongCurrentPassword });
    }
    const at = new Date().toISOString();
    const hash = await hashPassword(input.newPassword);
    const own = keepRefreshToken ? await this.repo.findRefreshToken(sha256(keepRefreshToken)) : undefined;
    const keep = own?.userId === userId ? own.familyId : undefined;
    await this.events.transaction(async (trx) => {
      await this.repo.updatePassword(userId, hash, at, trx);
      await record(trx, {
        actorId: userId,
        actorLogin: row.login,
        action: 'auth.password_changed',
        objectType: 'user',
        objectId: userId,
        ip: address ?? null,
      });
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
