import { createHash, randomBytes } from 'node:crypto';
import type { AuthUser } from '../../src/contract/auth';
import {
  API_KEY_PREFIX,
  KM,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
} from '../../src/contract/personal-keys';
import { M } from '../../src/contract/messages';
import { AppError, badRequest, forbidden, notFound, TooManyRequests } from '../http/errors';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';
import { actorOf, record } from '../audit/audit';
import { ownerScope, type Acting } from '../auth/guards';
import type { Db } from '../db/index';
import { keyRefusal } from './api-key-scope';

/** Characters of the key kept in the clear (with `kadr_`), to tell keys apart in the list. */
const SHOWN_CHARS = 12;
const RATE_WINDOW_MS = 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Whether a bearer token is an API key (else it is an access token of a session). */
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** The user a key acts as, which key it is, and whether its owner must enrol in 2FA first (auth/enrol-gate.ts). */
export type KeyHolder = { user: AuthUser; keyId: number; mustEnrol: boolean };

/**
 * Personal API keys. A key is `kadr_` and 32 random bytes (base64url); only its SHA-256 is kept, the key is shown
 * once. It acts with its owner's role as the users table has it at each request (never more), read-only ones
 * read only, and none reaches keys, webhooks, passwords or two-factor (./api-key-scope.ts). Revoked or expired
 * keys are refused at once (every request reads the row). Each key has a rate window (`rateLimit` a minute).
 */
export class ApiKeysService {
  constructor(
    private repo: ApiKeysRepository,
    /** Where a key's creation and revocation are written with their audit entries, in one transaction. */
    private db: Db,
    private rateLimit: number,
    private now: () => number = Date.now,
  ) {}

  /** Makes a key for the user: the record and the key itself, which is never shown again. */
  async create(user: Acting, body: ApiKeyCreate): Promise<ApiKeyCreated> {
    const now = this.now();
    const expiresAt = body.expiresAt ? Date.parse(body.expiresAt) : null;
    if (expiresAt !== null && expiresAt <= now) throw badRequest(M.validation, { expiresAt: KM.expiryPast });
    const token = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const prefix = token.slice(0, API_KEY_PREFIX.length + SHOWN_CHARS);
    const id = await this.db.transaction().execute(async (trx) => {
      const id = await this.repo.insert(
        {
          userId: user.id,
          name: body.name,
          access: body.access,
          prefix,
          tokenHash: sha256(token),
          expiresAt,
          createdAt: now,
        },
        trx,
      );
      // Never the token: its shown prefix names it.
      await record(trx, {
        ...actorOf(user),
        action: 'api_key.created',
        objectType: 'api_key',
        objectId: id,
        detail: { name: body.name, access: body.access, prefix, expiresAt },
      });
      return id;
    });
    return { key: await this.get(user, id), token };
  }

  /** The caller's keys, or (an admin only) another user's: a user naming someone else is a 403. */
  async list(user: AuthUser, userId: number = user.id): Promise<ApiKey[]> {
    if (userId !== user.id && user.role !== 'admin') throw forbidden();
    return (await this.repo.listOf(userId)).map(shown);
  }

  async get(user: AuthUser, id: number): Promise<ApiKey> {
    const row = await this.repo.get(user.id, id);
    if (!row) throw notFound();
    return shown(row);
  }

  /**
   * Revokes a key: a user their own (another's is a 404), an admin anyone's. The next request with it is a 401.
   * Revoking a revoked key changes nothing. The audit entry names who revoked it and whose key it was.
   */
  async revoke(user: Acting, id: number): Promise<ApiKey> {
    const key = await this.repo.find(id, ownerScope(user));
    if (!key) throw notFound();
    await this.db.transaction().execute(async (trx) => {
      if (!(await this.repo.revoke(key.userId, id, this.now(), trx))) return;
      await record(trx, {
        ...actorOf(user),
        action: 'api_key.revoked',
        objectType: 'api_key',
        objectId: id,
        detail: { name: key.name, prefix: key.prefix, ownerId: key.userId, ownerLogin: key.ownerLogin },
      });
    });
    return shown((await this.repo.find(id, null))!);
  }

  /**
   * The user a request's key acts as: 401 for an unknown, revoked or expired key, 403 where keys never reach
   * (or a read-only key writing), 429 when the key's window is full.
   */
  async authenticate(token: string, method: string, route: string): Promise<KeyHolder> {
    const row = await this.repo.findByHash(sha256(token));
    const now = this.now();
    if (!row || row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt <= now))
      throw new AppError(401, M.unauthorized);
    const refusal = keyRefusal(row.access, method, route);
    if (refusal) throw new AppError(403, refusal);
    const waitSec = await this.repo.take(row.id, now, this.rateLimit, RATE_WINDOW_MS);
    if (waitSec) throw new TooManyRequests(KM.rateLimited, waitSec, { seconds: waitSec });
    return { user: { id: row.userId, login: row.login, role: row.role }, keyId: row.id, mustEnrol: row.mustEnrol };
  }
}

function shown(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    access: row.access,
    prefix: row.prefix,
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
    createdAt: iso(row.createdAt)!,
  };
}
