/**
 * Instagram API with Instagram Login (professional accounts, no Facebook Page):
 * authorize → code → short-lived token (1 h) → long-lived token (60 d) → refresh (token ≥ 24 h old).
 * There is no separate refresh token: the long-lived token refreshes itself, and an expired one means
 * logging in again. The IG User node is read-only: name and biography cannot be changed via the API.
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
import { instagramGraphError, instagramOAuthError } from './instagram.errors';

export interface InstagramBaseUrls {
  /** www.instagram.com: /oauth/authorize */
  auth: string;
  /** api.instagram.com: /oauth/access_token */
  api: string;
  /** graph.instagram.com: /access_token, /refresh_access_token, /{version}/me, … */
  graph: string;
}

export const INSTAGRAM_DEFAULT_BASE_URLS: InstagramBaseUrls = {
  auth: 'https://www.instagram.com',
  api: 'https://api.instagram.com',
  graph: 'https://graph.instagram.com',
};

export const INSTAGRAM_DEFAULT_GRAPH_VERSION = 'v23.0';

export const INSTAGRAM_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_insights',
] as const;

export const INSTAGRAM_PROFILE_FIELDS = [
  'user_id',
  'username',
  'name',
  'biography',
  'profile_picture_url',
  'account_type',
] as const;

/** Long-lived token lifetime when the response omits expires_in. */
const LONG_LIVED_SEC = 60 * 24 * 3600;

export interface InstagramDriverOptions extends DriverBaseOptions<InstagramBaseUrls> {
  /** The server's Instagram app: clientId = Instagram App ID. */
  credentials: OAuthClientCredentials;
  graphVersion?: string;
}

export class InstagramDriver implements PlatformDriver {
  readonly name = 'instagram' as const;
  readonly capabilities: PlatformCapabilities = {
    updateProfileName: false,
    updateDescription: false,
    publishVideo: true,
    readStats: true,
  };
  readonly scopes: readonly string[];
  /** Long-lived tokens are refreshed in their last week (a refresh needs the token to be ≥ 24 h old). */
  readonly refreshAheadMs = 7 * 24 * 3600_000;
  readonly baseUrls: InstagramBaseUrls;
  readonly graphVersion: string;
  private readonly http;
  private readonly credentials: OAuthClientCredentials;
  private readonly redirectUri?: string;
  private readonly now: () => Date;

  constructor(opts: InstagramDriverOptions) {
    this.http = opts.http;
    this.baseUrls = { ...INSTAGRAM_DEFAULT_BASE_URLS, ...stripUndefined(opts.baseUrls) };
    this.graphVersion = opts.graphVersion || INSTAGRAM_DEFAULT_GRAPH_VERSION;
    this.credentials = opts.credentials;
    this.redirectUri = opts.redirectUri;
    this.scopes = opts.scopes ?? [...INSTAGRAM_SCOPES];
    this.now = opts.now ?? (() => new Date());
  }

  authorizationUrl(params: { state: string; redirectUri?: string }): string {
    this.requireCredentials();
    const u = new URL(joinUrl(this.baseUrls.auth, '/oauth/authorize'));
    u.searchParams.set('enable_fb_login', '0');
    u.searchParams.set('client_id', this.credentials.clientId);
    u.searchParams.set('redirect_uri', needRedirectUri(this.name, params.redirectUri, this.redirectUri));
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('scope', this.scopes.join(','));
    u.searchParams.set('state', params.state);
    return u.href;
  }

  /** Instagram appends `#_` to the redirect; a code copied with it is cleaned here. */
  parseCallback(query: QueryLike) {
    return parseOAuthCallback(this.name, query, { stripHashSuffix: true });
  }

  async exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet> {
    this.requireCredentials();
    // 1. code → short-lived token
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/oauth/access_token'), {
      method: 'POST',
      body: {
        form: {
          client_id: this.credentials.clientId,
          client_secret: this.credentials.clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: needRedirectUri(this.name, params.redirectUri, this.redirectUri),
          code: params.code.replace(/#_?$/, ''),
        },
      },
    });
    const raw = await readBody(res);
    // Real responses are flat; some docs wrap them in { data: [ … ] }. Accept both.
    const short = Array.isArray(raw?.data) ? raw.data[0] : raw;
    if (res.status !== 200 || !short?.access_token) throw instagramOAuthError(res.status, res.headers, raw);
    const scope = splitScopes(short.permissions, /[\s,]+/);
    if (scope.length) requireScopes(this.name, scope, this.scopes);

    // 2. short-lived → long-lived token
    const longRes = await this.http.request(joinUrl(this.baseUrls.graph, '/access_token'), {
      query: {
        grant_type: 'ig_exchange_token',
        client_secret: this.credentials.clientSecret,
        access_token: short.access_token,
      },
    });
    const long = await readBody(longRes);
    if (longRes.status !== 200 || !long?.access_token)
      throw instagramGraphError(longRes.status, longRes.headers, long, 'exchange');
    const expiresAt = expiresAtFrom(this.now(), long.expires_in, LONG_LIVED_SEC);

    // 3. the professional account id (user_id) that the content API uses
    let platformUserId = short.user_id !== undefined ? String(short.user_id) : '';
    try {
      const me = await this.me(long.access_token, ['user_id', 'username']);
      if (me.user_id !== undefined) platformUserId = String(me.user_id);
    } catch (e) {
      if (!platformUserId) throw e;
    }
    return {
      accessToken: long.access_token,
      refreshToken: long.access_token,
      expiresAt,
      refreshExpiresAt: expiresAt,
      scope: scope.length ? scope : [...this.scopes],
      platformUserId,
    };
  }

  async refresh(tokens: TokenSet): Promise<TokenSet> {
    const token = tokens.refreshToken ?? tokens.accessToken;
    const res = await this.http.request(joinUrl(this.baseUrls.graph, '/refresh_access_token'), {
      query: { grant_type: 'ig_refresh_token', access_token: token },
    });
    const body = await readBody(res);
    if (res.status !== 200 || !body?.access_token) throw instagramGraphError(res.status, res.headers, body, 'refresh');
    const expiresAt = expiresAtFrom(this.now(), body.expires_in, LONG_LIVED_SEC);
    return {
      ...tokens,
      accessToken: body.access_token,
      refreshToken: body.access_token,
      expiresAt,
      refreshExpiresAt: expiresAt,
    };
  }

  async getProfile(accessToken: string): Promise<PlatformProfile> {
    const me = await this.me(accessToken, INSTAGRAM_PROFILE_FIELDS);
    const username: string | undefined = me.username || undefined;
    return {
      title: me.name || username || '',
      description: me.biography ?? '',
      url: username ? `https://www.instagram.com/${username}/` : '',
      username,
      avatarUrl: me.profile_picture_url,
      platformUserId: me.user_id !== undefined ? String(me.user_id) : String(me.id ?? ''),
    };
  }

  // -------------------------------------------------------------------------------------------

  private requireCredentials() {
    if (!this.credentials?.clientId || !this.credentials?.clientSecret) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_client',
        key: 'instagram_not_configured',
      });
    }
  }

  private async me(accessToken: string, fields: readonly string[]): Promise<any> {
    const res = await this.http.request(joinUrl(this.baseUrls.graph, `/${this.graphVersion}/me`), {
      // The documented form is the access_token query parameter (TLS keeps it from the proxy).
      query: { fields: fields.join(','), access_token: accessToken },
    });
    const body = await readBody(res);
    if (res.status !== 200 || body?.error) throw instagramGraphError(res.status, res.headers, body, 'api');
    return body ?? {};
  }
}
