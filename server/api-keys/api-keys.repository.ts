import { sql } from 'kysely';
import type { Db } from '../db/index';
import type { ApiKeysTable } from '../db/types';
import type { Role } from '../../src/contract/roles';
import { mustEnrolColumn } from '../auth/enrol-gate';

/** A key as stored (times epoch ms). */
export type ApiKeyRow = {
  id: number;
  userId: number;
  name: string;
  access: ApiKeysTable['access'];
  prefix: string;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  createdAt: number;
};

/** A key found by its hash, with its owner as the users table has them now (and whether they must enrol in 2FA). */
export type ApiKeyOwner = ApiKeyRow & { login: string; role: Role; mustEnrol: boolean };

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const row = (r: ApiKeyRow): ApiKeyRow => ({
  ...r,
  expiresAt: num(r.expiresAt),
  lastUsedAt: num(r.lastUsedAt),
  revokedAt: num(r.revokedAt),
  createdAt: Number(r.createdAt),
});
const COLUMNS = [
  'apiKeys.id',
  'apiKeys.userId',
  'apiKeys.name',
  'apiKeys.access',
  'apiKeys.prefix',
  'apiKeys.expiresAt',
  'apiKeys.lastUsedAt',
  'apiKeys.revokedAt',
  'apiKeys.createdAt',
] as const;

/** The api_keys table (030): personal keys, stored by the SHA-256 of the key. */
export class ApiKeysRepository {
  constructor(private db: Db) {}

  /** Writes a new key; answers its id. `trx`: the caller's transaction (an audit entry may join it). */
  async insert(
    key: Omit<ApiKeyRow, 'id' | 'lastUsedAt' | 'revokedAt'> & { tokenHash: string },
    trx: Db = this.db,
  ): Promise<number> {
    const r = await trx.insertInto('apiKeys').values(key).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async get(userId: number, id: number): Promise<ApiKeyRow | undefined> {
    const r = await this.db
      .selectFrom('apiKeys')
      .select(COLUMNS)
      .where('userId', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && row(r);
  }

  /** A key with its owner's login; of `ownerId` only, unless null (an admin reaches every key). */
  async find(id: number, ownerId: number | null): Promise<(ApiKeyRow & { ownerLogin: string }) | undefined> {
    let q = this.db
      .selectFrom('apiKeys')
      .innerJoin('users', 'users.id', 'apiKeys.userId')
      .select([...COLUMNS, 'users.login as ownerLogin'])
      .where('apiKeys.id', '=', id);
    if (ownerId !== null) q = q.where('apiKeys.userId', '=', ownerId);
    const r = await q.executeTakeFirst();
    return r && { ...row(r), ownerLogin: r.ownerLogin };
  }

  /** The user's keys, newest first. */
  async listOf(userId: number): Promise<ApiKeyRow[]> {
    const rows = await this.db
      .selectFrom('apiKeys')
      .select(COLUMNS)
      .where('userId', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(row);
  }

  /** Revokes the user's key (once); answers whether it was live until now. */
  async revoke(userId: number, id: number, at: number, trx: Db = this.db): Promise<boolean> {
    const r = await trx
      .updateTable('apiKeys')
      .set({ revokedAt: at })
      .where('userId', '=', userId)
      .where('id', '=', id)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The key with this hash and its owner, whatever its state (the caller judges expiry and revocation). */
  async findByHash(tokenHash: string): Promise<ApiKeyOwner | undefined> {
    const r = await this.db
      .selectFrom('apiKeys')
      .innerJoin('users', 'users.id', 'apiKeys.userId')
      .select([...COLUMNS, 'users.login', 'users.role', mustEnrolColumn()])
      .where('apiKeys.tokenHash', '=', tokenHash)
      .executeTakeFirst();
    return r && { ...row(r), login: r.login, role: r.role, mustEnrol: Number(r.mustEnrol) === 1 };
  }

  /**
   * Counts one request of the key in its rate window and stamps its last use, in one conditional update: a
   * window of `windowMs` starts at the first request after the last one ended; while it lasts at most `limit`
   * requests pass. Answers 0 when counted, else the seconds left of the full window. Racing requests of many
   * processes cannot push the count past the limit (the condition is in the UPDATE).
   */
  async take(id: number, now: number, limit: number, windowMs: number): Promise<number> {
    const passed = sql<boolean>`window_until_ms <= ${now}`;
    const r = await this.db
      .updateTable('apiKeys')
      .set({
        windowCount: sql<number>`CASE WHEN ${passed} THEN 1 ELSE window_count + 1 END`,
        windowUntilMs: sql<number>`CASE WHEN ${passed} THEN ${now + windowMs} ELSE window_until_ms END`,
        lastUsedAt: now,
      })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('windowUntilMs', '<=', now), eb('windowCount', '<', limit)]))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) return 0;
    const left = await this.db.selectFrom('apiKeys').select('windowUntilMs').where('id', '=', id).executeTakeFirst();
    return Math.max(1, Math.ceil((Number(left?.windowUntilMs ?? now) - now) / 1000));
  }
}
