/**
 * Runs platform calls with a valid access token:
 * - refreshes first when the token expires within the driver's window (5 minutes for YouTube and
 *   TikTok; the last week for Instagram's 60-day tokens);
 * - on a 'refresh-token' error (401, expired token) refreshes once and retries the call once;
 * - hands every new TokenSet to `persist` before using it, so a rotated refresh token (TikTok) is
 *   stored before anything else can fail;
 * - shares one in-flight refresh per refresh token in this process (TokenRefreshes, one per process, held
 *   by the composition root), so concurrent callers never spend a rotating refresh token twice;
 * - when the refresh is refused, throws PlatformError kind 'reconnect' with a readable message.
 *   Proxy and network failures are passed through unchanged (they are not the grant's fault).
 */
import {
  platformTitle,
  PlatformError,
  isPlatformError,
  platformMessage,
  type PlatformDriver,
  type TokenSet,
} from './types';
import { splitDetail } from '../../src/contract/stored-message';

export type PersistTokens = (tokens: TokenSet) => Promise<void> | void;

export interface FreshTokenOptions {
  now?: () => Date;
  /** Overrides the driver's refresh window (ms). */
  refreshAheadMs?: number;
  /**
   * The refresh is the point (the keep-alive): a refresh that fails is thrown even while the access token still
   * works, instead of going on with it.
   */
  mustRefresh?: boolean;
}

/** Google drops a refresh token left unused for six months: a grant idle this long is refreshed to keep it. */
const IDLE_GRANT_MS = 150 * 24 * 3600_000;

/**
 * When a grant is lost unless it is refreshed (ms since epoch): the refresh token's own expiry where the
 * platform gives one (TikTok; Instagram, whose long-lived token is its own refresh token), else the access
 * token's expiry when there is nothing to refresh with, else (Google) after a long idle spell.
 */
export function grantLapsesAt(t: TokenSet): number {
  if (t.refreshExpiresAt) return new Date(t.refreshExpiresAt).getTime();
  const expiresAt = new Date(t.expiresAt).getTime();
  return t.refreshToken ? expiresAt + IDLE_GRANT_MS : expiresAt;
}

function reconnectError(driver: PlatformDriver, cause: unknown): PlatformError {
  const title = platformTitle(driver.name);
  // A PlatformError's message is stored (translated in turn), its platform's own words kept as this one's detail;
  // any other error's own words never reach a user.
  const { message: reason, detail } = isPlatformError(cause)
    ? splitDetail(cause.message)
    : { message: platformMessage('net_unknown'), detail: null };
  return new PlatformError({
    kind: 'reconnect',
    platform: driver.name,
    code: isPlatformError(cause) ? (cause.code ?? 'refresh_failed') : 'refresh_failed',
    httpStatus: isPlatformError(cause) ? cause.httpStatus : undefined,
    raw: isPlatformError(cause) ? cause.raw : undefined,
    cause,
    key: 'access_lost',
    params: { platform: title, reason },
    detail: detail ?? undefined,
  });
}

const isNetworkKind = (e: unknown) => isPlatformError(e) && (e.kind === 'proxy' || e.kind === 'retry-later');

/**
 * The token refreshes in flight in this process, one per refresh token, so concurrent callers never spend a
 * rotating refresh token twice. One per process, held by the composition root (PlatformConnections uses it).
 */
export class TokenRefreshes {
  private inFlight = new Map<string, Promise<TokenSet>>();

  private refresh(tokens: TokenSet, driver: PlatformDriver, persist: PersistTokens): Promise<TokenSet> {
    const key = `${driver.name}:${tokens.refreshToken ?? tokens.accessToken}`;
    let p = this.inFlight.get(key);
    if (!p) {
      p = (async () => {
        const next = await driver.refresh(tokens);
        await persist(next);
        return next;
      })();
      this.inFlight.set(key, p);
      p.then(
        () => this.inFlight.delete(key),
        () => this.inFlight.delete(key),
      );
    }
    return p;
  }

  /** Returns a TokenSet whose access token is valid for at least the refresh window. */
  withFreshToken(
    tokens: TokenSet,
    driver: PlatformDriver,
    persist: PersistTokens,
    fn?: undefined,
    opts?: FreshTokenOptions,
  ): Promise<TokenSet>;
  /** Calls `fn` with a valid access token; refreshes and retries once on an expired-token error. */
  withFreshToken<T>(
    tokens: TokenSet,
    driver: PlatformDriver,
    persist: PersistTokens,
    fn: (accessToken: string, tokens: TokenSet) => Promise<T>,
    opts?: FreshTokenOptions,
  ): Promise<T>;
  async withFreshToken<T>(
    tokens: TokenSet,
    driver: PlatformDriver,
    persist: PersistTokens,
    fn?: (accessToken: string, tokens: TokenSet) => Promise<T>,
    opts: FreshTokenOptions = {},
  ): Promise<T | TokenSet> {
    const now = (opts.now ?? (() => new Date()))().getTime();
    const ahead = opts.refreshAheadMs ?? driver.refreshAheadMs;
    const expiresAt = new Date(tokens.expiresAt).getTime();
    let current = tokens;
    let refreshed = false;

    if (!Number.isFinite(expiresAt) || expiresAt - now <= ahead) {
      const stillValid = Number.isFinite(expiresAt) && expiresAt > now;
      try {
        current = await this.refresh(tokens, driver, persist);
        refreshed = true;
      } catch (e) {
        if (!isPlatformError(e)) throw e; // persist failed, or a bug: not the grant's fault
        if (isNetworkKind(e)) {
          if (!stillValid || opts.mustRefresh) throw e;
        } else if (e.kind === 'reconnect' || !stillValid) {
          throw reconnectError(driver, e);
        } else if (opts.mustRefresh) throw e;
        // A soft refresh refused for another reason (e.g. an Instagram token < 24 h old) while the
        // access token still works: go on with it.
      }
    }
    if (!fn) return current;

    try {
      return await fn(current.accessToken, current);
    } catch (e) {
      if (!isPlatformError(e, 'refresh-token')) throw e;
      if (refreshed) throw reconnectError(driver, e);
      try {
        current = await this.refresh(current, driver, persist);
      } catch (re) {
        if (!isPlatformError(re) || isNetworkKind(re)) throw re;
        throw reconnectError(driver, re);
      }
      try {
        return await fn(current.accessToken, current);
      } catch (e2) {
        if (isPlatformError(e2, 'refresh-token')) throw reconnectError(driver, e2);
        throw e2;
      }
    }
  }
}
