import type { IpVersion } from '../../src/contract/accounts';
import type { Config } from '../config';
import { AppError } from '../http/errors';
import type { FreshTokenOptions, TokenRefreshes } from '../platforms/fresh-token';
import { createPlatformHttp, type PlatformHttp } from '../platforms/http';
import { signOAuthState, verifyOAuthState } from '../platforms/oauth-state';
import type { PlatformCall } from '../platforms/publish-step';
import type { PlatformRegistry } from '../platforms/registry';
import {
  PlatformError,
  isPlatformError,
  platformTitle,
  type PlatformDriver,
  type PlatformId,
} from '../platforms/types';
import type { Sealer } from '../crypto/seal';
import type { EventBus } from '../events/event-bus';
import { profileColumns, saveAccount, type AccountMapper } from './account-record';
import { SPEC_PLATFORMS, isSpecPlatform } from '../../src/contract/platforms';
import { isProxyFailure } from '../../src/contract/stored-message';
import { COLS, joinPatches, statePatch } from './platform-state';
import type { AccountPatch, AccountRow, AccountsRepository } from './accounts.repository';

/** How a PlatformError reaches the caller. */
const STATUS_OF_KIND: Record<PlatformError['kind'], number> = {
  'bad-request': 400,
  'refresh-token': 409,
  reconnect: 409,
  proxy: 502,
  'retry-later': 503,
};

export type CallbackResult = { location: string };

/** A PlatformError becomes a readable API error; anything else is passed on (a 500 without internals). */
export function toAppError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  if (isPlatformError(e)) return new AppError(STATUS_OF_KIND[e.kind] ?? 502, e.message);
  return e;
}

export const notConnected = (platform: PlatformId) =>
  new AppError(409, 'kadr.accounts.errors.not_connected', undefined, { platform: platformTitle(platform) });

/**
 * A profile's platform connections: OAuth links and callbacks, and every platform call made for a profile
 * (through its proxy, with a fresh token, retried once with tokens another process stored meanwhile).
 * Works on rows the caller may use (AccountsService checks ownership first).
 */
export class PlatformConnections {
  private readonly stateKey: string;

  constructor(
    private repo: AccountsRepository,
    private mapper: AccountMapper,
    sealer: Sealer,
    private config: Config,
    private platforms: PlatformRegistry,
    /** A platform's grant refused records `grant.lost` (the bell asks the owner to reconnect). */
    private events: EventBus,
    /** This process's token refreshes in flight (one per refresh token). */
    private refreshes: TokenRefreshes,
  ) {
    this.stateKey = sealer.subKey('oauth-state');
  }

  /** The authorization link (SPEC: copied to the clipboard by the panel). */
  async authorizeUrl(row: AccountRow, platform: PlatformId, actorId: number): Promise<{ url: string }> {
    const state = signOAuthState({ accountId: row.id, platform, userId: actorId }, this.stateKey);
    const { driver, http } = this.driverFor(row, platform);
    try {
      // A profile's own OAuth client signs in the profile's own account: its login is the hint.
      const own = this.platforms[platform].oauthClient === 'profile' ? this.mapper.ownClient(row) : null;
      const loginHint = own?.login ?? undefined;
      return { url: driver.authorizationUrl({ state, redirectUri: this.redirectUri(platform), loginHint }) };
    } catch (e) {
      throw toAppError(e);
    } finally {
      await http.close();
    }
  }

  /**
   * GET /api/oauth/{platform}/callback: verifies the signed state (account, platform, issuer, expiry),
   * exchanges the code through the profile's proxy, seals the tokens, marks the platform active and reads
   * the profile. Failures (denied consent, bad proxy, …) are stored on the profile as readable errors.
   * Returns where the browser goes next: the profile page.
   */
  async callback(platform: PlatformId, query: Record<string, string | undefined>): Promise<CallbackResult> {
    // A link that cannot be tied to a profile the issuer may use ends on the profile list with a reason
    // (a code the panel translates, never text taken from the query).
    const toList = (reason: 'link_invalid' | 'link_profile_gone') => ({
      location: `/accounts/list?connect_error=${platform}&reason=${reason}`,
    });
    let accountId: number;
    let issuer: number;
    try {
      const payload = verifyOAuthState(String(query.state ?? ''), this.stateKey, { platform });
      accountId = Number(payload.accountId);
      issuer = Number(payload.userId);
    } catch {
      return toList('link_invalid');
    }
    const row = await this.repo.get(accountId);
    const who = await this.repo.userRole(issuer);
    if (!row || !who || (who.role !== 'admin' && row.userId !== who.id)) return toList('link_profile_gone');
    const { driver, http } = this.driverFor(row, platform);
    // The operator's toggle is a column of the spec's platforms only (another platform's post is chosen per post).
    const toggle = isSpecPlatform(platform) ? { [COLS[platform].in]: 1 } : {};
    try {
      const cb = driver.parseCallback(query);
      const tokens = await driver.exchangeCode({ code: cb.code, redirectUri: this.redirectUri(platform) });
      const profile = await driver.getProfile(tokens.accessToken);
      await saveAccount(
        this.repo,
        row,
        joinPatches<AccountPatch>(
          statePatch(platform, { tokens: this.mapper.sealTokens(tokens), active: 1, error: null }),
          { ...toggle, error: null },
          profileColumns(platform, profile),
        ),
      );
      return { location: `/accounts/${row.id}?connected=${platform}` };
    } catch (e) {
      const message = isPlatformError(e) ? e.message : 'kadr.accounts.errors.connect_failed';
      await saveAccount(this.repo, row, { error: message, ...statePatch(platform, { error: message }) });
      return { location: `/accounts/${row.id}?connect_error=${platform}` };
    } finally {
      await http.close();
    }
  }

  /**
   * Runs a platform call with fresh tokens through the profile's proxy. New tokens are sealed and stored
   * before use (TikTok rotates refresh tokens). A refused refresh marks the platform as needing reconnection;
   * a proxy or network failure is stored as the profile's error. Both come back as readable messages.
   * A refusal after another call (another process) stored newer tokens meanwhile is not the grant's fault
   * (TikTok's refresh token rotates, the one we held was spent): the call is tried once more with those.
   */
  async withPlatform<T>(
    row: AccountRow,
    platform: PlatformId,
    fn: (driver: PlatformDriver, accessToken: string, call: PlatformCall) => Promise<T>,
    fresh?: FreshTokenOptions,
  ): Promise<T> {
    try {
      return await this.callPlatform(row, platform, fn, { fresh, recordTransient: true });
    } catch (e) {
      throw toAppError(e);
    }
  }

  /**
   * `withPlatform` for background work (the publish and stats jobs): the PlatformError comes back as it is (its
   * kind decides what the job does); a lost grant and a failing proxy are written on the profile, not a passing
   * fault of the platform.
   */
  async callPlatform<T>(
    row: AccountRow,
    platform: PlatformId,
    fn: (driver: PlatformDriver, accessToken: string, call: PlatformCall) => Promise<T>,
    opts: { fresh?: FreshTokenOptions; recordTransient?: boolean } = {},
  ): Promise<T> {
    const stateOf = async () => (await this.repo.platformRows(row.id)).get(platform);
    const state = await stateOf();
    const sealedTokens = state?.tokens ?? null;
    if (!sealedTokens) throw notConnected(platform);
    const { driver, http } = this.driverFor(row, platform);
    const attempt = (sealed: string) =>
      this.refreshes.withFreshToken(
        this.mapper.tokens(sealed),
        driver,
        (t) => this.repo.update(row.id, statePatch(platform, { tokens: this.mapper.sealTokens(t) })),
        (token, tokens) => fn(driver, token, { http, tokens, settings: this.settings(platform) }),
        opts.fresh,
      );
    try {
      let result: T;
      try {
        result = await attempt(sealedTokens);
      } catch (e) {
        const reconnect = isPlatformError(e) && e.kind === 'reconnect';
        const stored = reconnect ? (await stateOf())?.tokens : null;
        if (!stored || stored === sealedTokens) throw e;
        result = await attempt(stored);
      }
      if (row.error || state?.error)
        await saveAccount(this.repo, row, { error: null, ...statePatch(platform, { error: null }) });
      return result;
    } catch (e) {
      if (isPlatformError(e)) {
        if (e.kind === 'reconnect') {
          const lost = { ...statePatch(platform, { active: 0, error: e.message }), error: e.message };
          await this.events.transaction(async (trx) => {
            await saveAccount(this.repo, row, lost, trx);
            if (state?.active)
              await this.events.record(trx, {
                name: 'grant.lost',
                userId: row.userId,
                payload: { accountId: row.id, platform },
              });
          });
        } else if (e.kind === 'proxy' || (opts.recordTransient && e.kind === 'retry-later'))
          // The proxy is the profile's own: a background call through a dead proxy marks the profile too, so it
          // does not read "Active" while every post of it fails (issue 18 item 2). Any call that works clears it.
          await saveAccount(this.repo, row, { error: e.message });
      }
      throw e;
    } finally {
      await http.close();
    }
  }

  /**
   * The proxy check after a profile's proxy is set (the 'accounts.proxy-check' job): one exchange through it with
   * the API host of the first platform the profile publishes to (YouTube's when none is on yet). A proxy failure
   * is written as the profile's error, as a platform call through it would (the list says "Не працює" before any
   * post fails); one that works clears a proxy failure written before. A failure that is not the proxy's (the
   * platform down) changes nothing. Nothing is written if the proxy changed meanwhile (its own check follows).
   */
  async checkProxy(accountId: number): Promise<'works' | 'fails' | 'unknown'> {
    const row = await this.repo.get(accountId);
    if (!row || !this.mapper.proxy(row)) return 'unknown';
    const platform = SPEC_PLATFORMS.find((k) => row[COLS[k].in] === 1) ?? 'youtube';
    const { driver, http } = this.driverFor(row, platform);
    let error: string | null;
    try {
      await driver.reach();
      error = null;
    } catch (e) {
      if (!(isPlatformError(e) && e.kind === 'proxy')) return 'unknown';
      error = e.message;
    } finally {
      await http.close();
    }
    const now = await this.repo.get(accountId);
    if (!now || this.mapper.proxy(now) !== this.mapper.proxy(row)) return 'unknown';
    await this.events.transaction(async (trx) => {
      if (error !== null) await saveAccount(this.repo, now, { error }, trx);
      else if (isProxyFailure(now.error)) await saveAccount(this.repo, now, { error: null }, trx);
      // The open profile list and pickers read it again (live streams).
      const payload = { accountId, failing: error !== null };
      await this.events.record(trx, { name: 'profile.checked', userId: now.userId, payload });
    });
    return error === null ? 'works' : 'fails';
  }

  private redirectUri(platform: PlatformId) {
    return `${this.config.publicUrl}/api/oauth/${platform}/callback`;
  }

  private driverFor(row: AccountRow, platform: PlatformId): { driver: PlatformDriver; http: PlatformHttp } {
    let http: PlatformHttp;
    try {
      http = createPlatformHttp({
        proxy: this.mapper.proxy(row),
        ipVersion: (row.ipVersion as IpVersion) ?? 'ipv4',
        platform,
        timeoutMs: this.config.platformTimeoutMs,
        connectTimeoutMs: Math.min(10_000, this.config.platformTimeoutMs),
        allowPrivateProxy: this.config.allowPrivateProxies,
      });
    } catch (e) {
      throw toAppError(e);
    }
    const adapter = this.platforms[platform];
    const own = adapter.oauthClient === 'profile' ? this.mapper.ownClient(row) : null;
    const credentials = own ? { clientId: own.clientId ?? '', clientSecret: own.clientSecret ?? '' } : undefined;
    return { driver: adapter.driver({ http, settings: this.settings(platform), credentials }), http };
  }

  private settings(platform: PlatformId) {
    return this.config.platforms[platform] ?? {};
  }
}
