/**
 * The OAuth `state` parameter: a signed, expiring token that carries which account and platform a
 * callback belongs to, so the callback route needs no server-side session. Format:
 * base64url(JSON payload) + "." + base64url(HMAC-SHA256(payload, key)).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PlatformError, type PlatformErrorKey, type PlatformId } from './types';

export interface OAuthStatePayload {
  accountId: number | string;
  platform: PlatformId;
  /** Who started the flow (optional, for the audit trail / permission check). */
  userId?: number | string;
  /** Expiry, seconds since epoch. */
  exp: number;
  /** Random nonce so two states for the same account differ. */
  n: string;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

function sign(data: string, key: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

export function signOAuthState(
  input: { accountId: number | string; platform: PlatformId; userId?: number | string },
  key: string,
  opts: { ttlSec?: number; now?: Date } = {},
): string {
  const now = (opts.now ?? new Date()).getTime();
  const payload: OAuthStatePayload = {
    accountId: input.accountId,
    platform: input.platform,
    ...(input.userId !== undefined ? { userId: input.userId } : {}),
    exp: Math.floor(now / 1000) + (opts.ttlSec ?? 30 * 60),
    n: randomBytes(9).toString('base64url'),
  };
  const data = b64(JSON.stringify(payload));
  return `${data}.${sign(data, key)}`;
}

const invalid = (key: PlatformErrorKey) => new PlatformError({ kind: 'bad-request', code: 'invalid_state', key });

/** Returns the payload, or throws PlatformError 'bad-request' (code 'invalid_state'). */
export function verifyOAuthState(
  state: string,
  key: string,
  opts: { now?: Date; platform?: PlatformId } = {},
): OAuthStatePayload {
  const [data, mac, extra] = String(state ?? '').split('.');
  if (!data || !mac || extra !== undefined) throw invalid('state_broken');
  const expected = Buffer.from(sign(data, key));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw invalid('state_foreign');
  }
  let payload: OAuthStatePayload;
  try {
    payload = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
  } catch {
    throw invalid('state_broken');
  }
  if (typeof payload.platform !== 'string' || !payload.platform) throw invalid('state_broken');
  if (opts.platform && payload.platform !== opts.platform) throw invalid('state_other_platform');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (!Number.isFinite(payload.exp) || payload.exp < now) throw invalid('state_expired');
  return payload;
}
