/**
 * The one interface every platform driver implements, and the one error they throw.
 *
 * A driver is built per account (it carries that account's proxy-aware HTTP client and the OAuth
 * client credentials: the account's own Google client for YouTube, the server's app for TikTok and
 * Instagram). Drivers are stateless apart from that: tokens come in and go out as `TokenSet`s, and the
 * caller stores them (see `withFreshToken`).
 */

import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import { encodeMessage, type MessageParams } from '../../src/contract/stored-message';
import type { KadrMessages } from '../../i18n/uk';

export { PLATFORMS, PLATFORM_TITLES, type PlatformKey };

/**
 * A platform's id in the registry the root holds (server/platforms/registry.ts): one of the panel's PLATFORMS, or
 * one more platform a registry adds (a test's). The server's generic parts (connections, the worker, the quota,
 * the stats job, the keep-alive) take any; the spec's API shape names the panel's three.
 */
export type PlatformId = string;

/** A platform's own name for messages: the panel's title, else its id. */
export const platformTitle = (id: PlatformId): string =>
  (PLATFORM_TITLES as Record<PlatformId, string | undefined>)[id] ?? id;

/** What the official API of a platform lets us do. The panel hides or disables what is false. */
export interface PlatformCapabilities {
  /** Change the channel/profile name. False everywhere: no official API allows it. */
  updateProfileName: boolean;
  /** Change the channel/profile description (YouTube only: brandingSettings.channel.description). */
  updateDescription: boolean;
  /** Upload and publish a video through the official API (subject to the platform's app audit). */
  publishVideo: boolean;
  /** Read per-video statistics (views, likes, comments). */
  readStats: boolean;
}

/** OAuth client credentials: YouTube uses the account's own; TikTok and Instagram the server's app. */
export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Tokens as the caller stores them. Dates are absolute, computed from `expires_in` at receipt. */
export interface TokenSet {
  accessToken: string;
  /** Google: stable; TikTok: rotates on every refresh; Instagram: the long-lived token itself. */
  refreshToken: string | null;
  expiresAt: Date;
  refreshExpiresAt?: Date | null;
  /** Granted scopes (normalised to an array). */
  scope: string[];
  /** YouTube: channel id (UC…); TikTok: open_id; Instagram: the professional account user_id. */
  platformUserId: string;
}

export interface PlatformProfile {
  /** Channel title / display name / profile name (falls back to the username). */
  title: string;
  description: string;
  /** Public link to the channel or profile. */
  url: string;
  username?: string;
  avatarUrl?: string;
  platformUserId: string;
}

/** The result of reading an OAuth callback's query string. */
export interface OAuthCallback {
  code: string;
  state: string;
}

export interface PlatformDriver {
  readonly name: PlatformId;
  readonly capabilities: PlatformCapabilities;
  /** Scopes requested at authorization; exchangeCode refuses a grant that lacks any of them. */
  readonly scopes: readonly string[];
  /** How long before expiry `withFreshToken` refreshes proactively (ms). */
  readonly refreshAheadMs: number;

  /** The URL the user opens to grant access. `state` is an opaque value the caller verifies on return. */
  authorizationUrl(params: { state: string; redirectUri?: string; loginHint?: string }): string;
  /**
   * Reads the callback query (`?code&state` or `?error=access_denied&state`).
   * Throws PlatformError kind 'bad-request' (code 'access_denied') when the user refused consent.
   */
  parseCallback(query: URLSearchParams | Record<string, string | string[] | undefined>): OAuthCallback;
  /** Exchanges an authorization code for tokens (and learns the platform user id). */
  exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet>;
  /** Refreshes tokens. The result carries the (possibly rotated) refresh token. */
  refresh(tokens: TokenSet): Promise<TokenSet>;
  getProfile(accessToken: string): Promise<PlatformProfile>;
  /**
   * One exchange with the platform's API host through the profile's HTTP client, whatever it answers: the proxy
   * check after a profile's proxy is set. Throws the PlatformError of a proxy or network failure.
   */
  reach(): Promise<void>;
  /** Present only when `capabilities.updateDescription`. Returns the profile as it is afterwards. */
  updateDescription?(accessToken: string, description: string): Promise<PlatformProfile>;
}

/**
 * How the caller should react:
 * - 'refresh-token': the access token is expired or invalid; refresh and retry once.
 * - 'bad-request': our request or the user's input is wrong; retrying the same thing will not help.
 * - 'retry-later': rate limit, quota, platform outage, network trouble; try again later.
 * - 'reconnect': the grant is gone (revoked, expired refresh token, missing scope); the user must
 *   connect the account again.
 * - 'proxy': the account's proxy is unreachable, refuses us or cannot reach the platform.
 */
export type PlatformErrorKind = 'refresh-token' | 'bad-request' | 'retry-later' | 'reconnect' | 'proxy';

/** A message of the kadr.platform_errors block (i18n/uk.ts, i18n/en.ts). */
export type PlatformErrorKey = keyof KadrMessages['platform_errors'];

/** The stored form of a kadr.platform_errors message; `detail` (the platform's own words) is appended after a colon. */
export function platformMessage(key: PlatformErrorKey, params: MessageParams = {}, detail?: string): string {
  const message = encodeMessage(`kadr.platform_errors.${key}`, params);
  return detail ? encodeMessage('kadr.platform_errors.with_detail', { message, detail }) : message;
}

/** An OAuth error's code and description as the platform's own words ('invalid_request: Bad scope'). */
export const withCode = (code: string, description?: string) => (description ? `${code}: ${description}` : code);

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  /** What to tell the user: a kadr.platform_errors key, its parameters and the platform's own detail text. */
  key: PlatformErrorKey;
  params?: MessageParams;
  detail?: string;
  platform?: PlatformId;
  /** A stable machine code: the platform's own error code/reason when there is one. */
  code?: string;
  httpStatus?: number;
  /** Seconds to wait before retrying, from Retry-After or the platform's rules. */
  retryAfterSec?: number;
  /** The platform's error body (never contains our secrets). */
  raw?: unknown;
  cause?: unknown;
}

/**
 * `message` is the stored form (src/contract/stored-message.ts): an i18n key with JSON parameters that the
 * profile keeps and the panel or the API's error handler translates.
 */
export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly key: PlatformErrorKey;
  readonly params: MessageParams;
  readonly platform?: PlatformId;
  readonly code?: string;
  readonly httpStatus?: number;
  readonly retryAfterSec?: number;
  readonly raw?: unknown;

  constructor(init: PlatformErrorInit) {
    super(
      platformMessage(init.key, init.params, init.detail),
      init.cause !== undefined ? { cause: init.cause } : undefined,
    );
    this.name = 'PlatformError';
    this.key = init.key;
    this.params = init.params ?? {};
    this.kind = init.kind;
    this.platform = init.platform;
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.retryAfterSec = init.retryAfterSec;
    this.raw = init.raw;
  }

  get retryable(): boolean {
    return this.kind === 'retry-later' || this.kind === 'proxy';
  }

  get needsReconnect(): boolean {
    return this.kind === 'reconnect';
  }

  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      platform: this.platform,
      code: this.code,
      httpStatus: this.httpStatus,
      retryAfterSec: this.retryAfterSec,
    };
  }
}

export function isPlatformError(e: unknown, kind?: PlatformErrorKind): e is PlatformError {
  return e instanceof PlatformError && (kind === undefined || e.kind === kind);
}
