/**
 * TikTok: Login Kit v2 (web, no PKCE) with the server's client key, token exchange and refresh
 * (refresh tokens rotate: the old one stops working, the new one must be stored), and user info.
 * TikTok has no endpoint to change display_name or bio_description.
 */
import {
  expiresAtFrom,
  joinUrl,
  needRedirectUri,
  parseOAuthCallback,
  readBody,
  requireScopes,
  splitScopes,
  stripUndefined,
  type DriverBaseOptions,
  type QueryLike,
} from '../common';
import {
  PlatformError,
  type OAuthClientCredentials,
  type PlatformCapabilities,
  type PlatformDriver,
  type PlatformProfile,
  type TokenSet,
} from '../types';
import { tiktokApiError, tiktokOAuthError } from './tiktok.errors';

export interface TikTokBaseUrls {
  /** www.tiktok.com: /v2/auth/authorize/ */
  auth: string;
  /** open.tiktokapis.com: /v2/oauth/token/, /v2/user/info/, /v2/post/… */
  api: string;
}

export const TIKTOK_DEFAULT_BASE_URLS: TikTokBaseUrls = {
  auth: 'https://www.tiktok.com',
  api: 'https://open.tiktokapis.com',
};

export const TIKTOK_SCOPES = [
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.list',
  'video.publish',
  'video.upload',
] as const;

export const TIKTOK_USER_FIELDS = [
  'open_id',
  'union_id',
  'avatar_url',
  'display_name',
  'bio_description',
  'profile_deep_link',
  'username',
] as const;

export interface TikTokDriverOptions extends DriverBaseOptions<TikTokBaseUrls> {
  /** The server's TikTok app: clientId = client_key. */
  credentials: OAuthClientCredentials;
}

export class TikTokDriver implements PlatformDriver {
  readonly name = 'tiktok' as const;
  readonly capabilities: PlatformCapabilities = {
    updateProfileName: false,
    updateDescription: false,
    publishVideo: true,
    readStats: true,
  };
  readonly scopes: readonly string[];
  readonly refreshAheadMs = 5 * 60_000;
  readonly baseUrls: TikTokBaseUrls;
  private readonly http;
  private readonly credentials: OAuthClientCredentials;
  private readonly redirectUri?: string;
  private readonly now: () => Date;

  constructor(opts: TikTokDriverOptions) {
    this.http = opts.http;
    this.baseUrls = { ...TIKTOK_DEFAULT_BASE_URLS, ...stripUndefined(opts.baseUrls) };
    this.credentials = opts.credentials;
    this.redirectUri = opts.redirectUri;
    this.scopes = opts.scopes ?? [...TIKTOK_SCOPES];
    this.now = opts.now ?? (() => new Date());
  }

  authorizationUrl(params: { state: string; redirectUri?: string }): string {
    this.requireCredentials();
    const u = new URL(joinUrl(this.baseUrls.auth, '/v2/auth/authorize/'));
    u.searchParams.set('client_key', this.credentials.clientId);
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('scope', this.scopes.join(','));
    u.searchParams.set('redirect_uri', needRedirectUri(this.name, params.redirectUri, this.redirectUri));
    u.searchParams.set('state', params.state);
    return u.href;
  }

  parseCallback(query: QueryLike) {
    return parseOAuthCallback(this.name, query);
  }

  async exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet> {
    this.requireCredentials();
    const body = await this.tokenRequest(
      {
        client_key: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        code: params.code,
        grant_type: 'authorization_code',
        redirect_uri: needRedirectUri(this.name, params.redirectUri, this.redirectUri),
      },
      'exchange',
    );
    const tokens = this.toTokens(body);
    requireScopes(this.name, tokens.scope, this.scopes);
    return tokens;
  }

  async refresh(tokens: TokenSet): Promise<TokenSet> {
    this.requireCredentials();
    if (!tokens.refreshToken) {
      throw new PlatformError({
        kind: 'reconnect',
        platform: this.name,
        code: 'no_refresh_token',
        key: 'no_refresh_token',
        params: { platform: 'TikTok' },
      });
    }
    const body = await this.tokenRequest(
      {
        client_key: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken,
      },
      'refresh',
    );
    const next = this.toTokens(body);
    return {
      ...next,
      platformUserId: next.platformUserId || tokens.platformUserId,
      scope: next.scope.length ? next.scope : tokens.scope,
    };
  }

  async getProfile(accessToken: string): Promise<PlatformProfile> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/v2/user/info/'), {
      query: { fields: TIKTOK_USER_FIELDS.join(',') },
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const body = await readBody(res);
    if (res.status !== 200 || (body?.error?.code && body.error.code !== 'ok'))
      throw tiktokApiError(res.status, res.headers, body);
    const user = body?.data?.user ?? {};
    const username: string | undefined = user.username || undefined;
    return {
      title: user.display_name ?? username ?? '',
      description: user.bio_description ?? '',
      url: user.profile_deep_link || (username ? `https://www.tiktok.com/@${username}` : ''),
      username,
      avatarUrl: user.avatar_url,
      platformUserId: user.open_id ?? '',
    };
  }

  // -------------------------------------------------------------------------------------------

  private requireCredentials() {
    if (!this.credentials?.clientId || !this.credentials?.clientSecret) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_client',
        key: 'tiktok_not_configured',
      });
    }
  }

  private async tokenRequest(form: Record<string, string>, phase: 'exchange' | 'refresh'): Promise<any> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/v2/oauth/token/'), {
      method: 'POST',
      headers: { 'cache-control': 'no-cache' },
      body: { form },
    });
    const body = await readBody(res);
    // TikTok may report OAuth errors with HTTP 200, so look at the body as well as the status.
    if (res.status !== 200 || typeof body?.error === 'string' || !body?.access_token)
      throw tiktokOAuthError(res.status, res.headers, body, phase);
    return body;
  }

  private toTokens(body: any): TokenSet {
    const now = this.now();
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? null,
      expiresAt: expiresAtFrom(now, body.expires_in, 2 * 3600),
      refreshExpiresAt: body.refresh_expires_in ? expiresAtFrom(now, body.refresh_expires_in, 0) : null,
      scope: splitScopes(body.scope, /[\s,]+/),
      platformUserId: body.open_id ?? '',
    };
  }
}
