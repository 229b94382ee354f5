/**
 * The OAuth 2.0 authorization-code flow every platform driver shares: its options (HTTP client, hosts, OAuth client,
 * redirect URI, scopes, clock), the consent link, the callback, the missing-client and missing-refresh-token
 * refusals. A platform's driver adds its token requests and profile reads.
 */
import { joinUrl, needRedirectUri, parseOAuthCallback, stripUndefined, type QueryLike } from './common';
import type { PlatformHttp } from './http';
import {
  PlatformError,
  platformTitle,
  type OAuthCallback,
  type OAuthClientCredentials,
  type PlatformCapabilities,
  type PlatformDriver,
  type PlatformErrorKey,
  type PlatformId,
  type PlatformProfile,
  type TokenSet,
} from './types';

export interface OAuth2DriverOptions<B> {
  http: PlatformHttp;
  /** Partial overrides of the production hosts (tests point these at simulators). */
  baseUrls?: Partial<B>;
  /** Redirect URI registered with the platform; authorizationUrl/exchangeCode may override it. */
  redirectUri?: string;
  /** Scopes to request (defaults per platform). */
  scopes?: string[];
  /** Clock for expiry computation (tests). */
  now?: () => Date;
  /** The OAuth client: the profile's own (YouTube) or the server's app (TikTok's client key, Instagram's app id). */
  credentials: OAuthClientCredentials;
}

/** A platform's fixed OAuth facts. */
export interface OAuth2Platform<B> {
  name: PlatformId;
  defaultBaseUrls: B;
  scopes: readonly string[];
  /** The message when the OAuth client is not configured. */
  noClientKey: PlatformErrorKey;
  /** The platform appends `#_` to the redirect (Instagram): a code copied with it is cleaned. */
  stripHashSuffix?: boolean;
}

export abstract class OAuth2Driver<B extends { api: string }> implements PlatformDriver {
  readonly name: PlatformId;
  abstract readonly capabilities: PlatformCapabilities;
  /** How long before expiry `withFreshToken` refreshes proactively (ms). */
  abstract readonly refreshAheadMs: number;
  readonly scopes: readonly string[];
  readonly baseUrls: B;
  protected readonly http: PlatformHttp;
  protected readonly credentials: OAuthClientCredentials;
  protected readonly now: () => Date;
  private readonly redirectUri?: string;

  protected constructor(
    private readonly platform: OAuth2Platform<B>,
    opts: OAuth2DriverOptions<B>,
  ) {
    this.name = platform.name;
    this.http = opts.http;
    this.baseUrls = { ...platform.defaultBaseUrls, ...stripUndefined(opts.baseUrls) };
    this.credentials = opts.credentials;
    this.redirectUri = opts.redirectUri;
    this.scopes = opts.scopes ?? [...platform.scopes];
    this.now = opts.now ?? (() => new Date());
  }

  abstract authorizationUrl(params: { state: string; redirectUri?: string; loginHint?: string }): string;
  abstract exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet>;
  abstract refresh(tokens: TokenSet): Promise<TokenSet>;
  abstract getProfile(accessToken: string): Promise<PlatformProfile>;

  parseCallback(query: QueryLike): OAuthCallback {
    return parseOAuthCallback(this.name, query, { stripHashSuffix: this.platform.stripHashSuffix });
  }

  /** The consent page: `host` + `path` with the parameters built for the flow's redirect URI (the client checked first). */
  async reach(): Promise<void> {
    // Any answer will do (the API's root is a 404 on every platform): it came through the proxy.
    await (await this.http.request(this.baseUrls.api)).dump();
  }

  protected consentLink(
    host: string,
    path: string,
    redirectUri: string | undefined,
    params: (redirectUri: string) => Record<string, string | undefined>,
  ): string {
    this.requireCredentials();
    const u = new URL(joinUrl(host, path));
    for (const [k, v] of Object.entries(params(this.redirect(redirectUri))))
      if (v !== undefined) u.searchParams.set(k, v);
    return u.href;
  }

  /** The redirect URI of this flow: the one given, else the configured one; refused when there is none. */
  protected redirect(given: string | undefined): string {
    return needRedirectUri(this.name, given, this.redirectUri);
  }

  protected requireCredentials(): void {
    if (!this.credentials?.clientId || !this.credentials?.clientSecret) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_client',
        key: this.platform.noClientKey,
      });
    }
  }

  /** The refresh token a refresh needs, or the refusal that asks for a new connection. */
  protected refreshTokenOf(tokens: TokenSet): string {
    if (tokens.refreshToken) return tokens.refreshToken;
    throw new PlatformError({
      kind: 'reconnect',
      platform: this.name,
      code: 'no_refresh_token',
      key: 'no_refresh_token',
      params: { platform: platformTitle(this.name) },
    });
  }
}

/** The server's OAuth app from a platform's settings (empty when not configured: the link then says so). */
export const serverClient = (s: { clientId?: string; clientSecret?: string }): OAuthClientCredentials => ({
  clientId: s.clientId ?? '',
  clientSecret: s.clientSecret ?? '',
});
