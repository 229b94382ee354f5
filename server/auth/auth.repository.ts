import { CompiledQuery } from 'kysely';
import type { AuthUser } from '../../src/contract/auth';
import type { Db } from '../db/index';
import { mustEnrolColumn } from './enrol-gate';
import type { SessionCache } from './session-cache';

/** A session's user, and whether they must enrol in two-factor sign-in before anything else (enrol-gate.ts). */
export type SessionUser = AuthUser & { mustEnrol?: boolean };

export class AuthRepository {
  constructor(
    private db: Db,
    private sessionCache: SessionCache,
  ) {}

  findUserByLogin(login: string) {
    return this.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
  }

  findUserById(id: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'login', 'role', 'passwordHash', 'language'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The user's interface language (PUT /api/auth/language). */
  setLanguage(id: number, language: string) {
    return this.db.updateTable('users').set({ language }).where('id', '=', id).execute();
  }

  updatePassword(id: number, passwordHash: string, at: string, exec: Db = this.db) {
    this.sessionCache.clear();
    return exec.updateTable('users').set({ passwordHash, updatedAt: at }).where('id', '=', id).execute();
  }

  /** `expiresAt` ISO text, stored as epoch ms (012: SQL compares it). */
  insertRefreshToken(row: {
    userId: number;
    familyId: string;
    tokenHash: string;
    expiresAt: string;
    createdAt: string;
  }) {
    return this.db
      .insertInto('refreshTokens')
      .values({ ...row, expiresAt: Date.parse(row.expiresAt), revokedAt: null, replacedAt: null })
      .execute();
  }

  findRefreshToken(tokenHash: string) {
    return this.db.selectFrom('refreshTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks a token as used; returns false when another request rotated it first. */
  async markReplaced(id: number, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('refreshTokens')
      .set({ replacedAt: at })
      .where('id', '=', id)
      .where('replacedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Revokes a session (refresh-token family) in `trx`; answers whether it was live. */
  async revokeFamily(trx: Db, familyId: string, at: string): Promise<boolean> {
    this.sessionCache.clear();
    const r = await trx
      .updateTable('refreshTokens')
      .set({ revokedAt: at })
      .where('familyId', '=', familyId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Ends every session of the user (but the family `exceptFamilyId`, when given); answers whether one was live. */
  async revokeAllForUser(trx: Db, userId: number, at: string, exceptFamilyId?: string): Promise<boolean> {
    this.sessionCache.clear();
    let q = trx
      .updateTable('refreshTokens')
      .set({ revokedAt: at })
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null);
    if (exceptFamilyId) q = q.where('familyId', '!=', exceptFamilyId);
    return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
  }

  /**
   * The signed-in user of a live session, with their current role and whether they must enrol in 2FA: the session (refresh-token family) is
   * neither revoked nor expired and belongs to `userId`, who still exists. One indexed lookup per request;
   * it runs on every authenticated request, so its SQL is built once and reused (the statement cache of
   * SQLite, the plan of PostgreSQL).
   */
  async findSessionUser(familyId: string, userId: number, now: string): Promise<SessionUser | undefined> {
    this.sessionSql ??= this.sessionQuery('', 0, 0).compile().sql;
    const r = await this.db.executeQuery<AuthUser & { mustEnrol: number | string }>(
      CompiledQuery.raw(this.sessionSql, [familyId, Date.parse(now), userId, 1]),
    );
    const row = r.rows[0];
    return row && { id: row.id, login: row.login, role: row.role, mustEnrol: Number(row.mustEnrol) === 1 };
  }

  private sessionSql?: string;

  /** Parameters in order: family id, now, user id, the limit (1). */
  private sessionQuery(familyId: string, userId: number, now: number) {
    return this.db
      .selectFrom('refreshTokens')
      .innerJoin('users', 'users.id', 'refreshTokens.userId')
      .select(['users.id', 'users.login', 'users.role', mustEnrolColumn()])
      .where('refreshTokens.familyId', '=', familyId)
      .where('refreshTokens.revokedAt', 'is', null)
      .where('refreshTokens.expiresAt', '>', now)
      .where('refreshTokens.userId', '=', userId)
      .limit(1);
  }

  /**
   * Of the sessions `keys` (family id and user), those that are live now, with their user's current role: the
   * same rule as findSessionUser, for every open live stream a batch of events would reach, in one query.
   */
  async liveSessions(keys: { sid: string; userId: number }[], now: number) {
    const sids = [...new Set(keys.map((k) => k.sid))];
    const live: { sid: string; userId: number; role: SessionUser['role'] }[] = [];
    // In slices, so that any number of open streams stays within the databases' limits on bound parameters.
    for (let i = 0; i < sids.length; i += 1000) {
      const rows = await this.db
        .selectFrom('refreshTokens')
        .innerJoin('users', 'users.id', 'refreshTokens.userId')
        .select(['refreshTokens.familyId', 'users.id', 'users.role'])
        .distinct()
        .where('refreshTokens.familyId', 'in', sids.slice(i, i + 1000))
        .where('refreshTokens.revokedAt', 'is', null)
        .where('refreshTokens.expiresAt', '>', now)
        .execute();
      for (const r of rows) live.push({ sid: r.familyId, userId: r.id, role: r.role });
    }
    return live;
  }

  /** Whose session (refresh-token family) this is. */
  async familyOwner(exec: Db, familyId: string): Promise<number | undefined> {
    const r = await exec
      .selectFrom('refreshTokens')
      .select('userId')
      .where('familyId', '=', familyId)
      .limit(1)
      .executeTakeFirst();
    return r?.userId;
  }

  deleteExpired(before: string) {
    return this.db.deleteFrom('refreshTokens').where('expiresAt', '<', Date.parse(before)).execute();
  }
}
