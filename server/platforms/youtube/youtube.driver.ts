/**
 * YouTube: Google OAuth 2.0 web-server flow with the account's own client_id/client_secret, and the
 * YouTube Data API v3 channel calls (read; description update by read-modify-write of brandingSettings).
 */
import {
  expiresAtFrom,
  joinUrl,
  stripUndefined,
  needRedirectUri,
  parseOAuthCallback,
  readBody,
  requireScopes,
  splitScopes,
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
import { googleTokenError, youtubeApiError } from './youtube.errors';

export interface YouTubeBaseUrls {
  /** accounts.google.com: /o/oauth2/v2/auth */
  auth: string;
  /** oauth2.googleapis.com: /token, /revoke */
  token: string;
  /** www.googleapis.com: /youtube/v3/…, /upload/youtube/v3/… */
  api: string;
}

export const YOUTUBE_DEFAULT_BASE_URLS: YouTubeBaseUrls = {
  auth: 'https://accounts.google.com',
  token: 'https://oauth2.googleapis.com',
  api: 'https://www.googleapis.com',
};

export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.force-ssl',
] as const;

export const YOUTUBE_DESCRIPTION_MAX = 1000;

export interface YouTubeDriverOptions extends DriverBaseOptions<YouTubeBaseUrls> {
  /** The account's own Google OAuth client. */
  credentials: OAuthClientCredentials;
}

export class YouTubeDriver implements PlatformDriver {
  readonly name = 'youtube' as const;
  readonly capabilities: PlatformCapabilities = {
    updateProfileName: false,
    updateDescription: true,
    publishVideo: true,
    readStats: true,
  };
  readonly scopes: readonly string[];
  readonly refreshAheadMs = 5 * 60_000;
  readonly baseUrls: YouTubeBaseUrls;
  private readonly http;
  private readonly credentials: OAuthClientCredentials;
  private readonly redirectUri?: string;
  private readonly now: () => Date;

  constructor(opts: YouTubeDriverOptions) {
    this.http = opts.http;
    this.baseUrls = { ...YOUTUBE_DEFAULT_BASE_URLS, ...stripUndefined(opts.baseUrls) };
    this.credentials = opts.credentials;
    this.redirectUri = opts.redirectUri;
    this.scopes = opts.scopes ?? [...YOUTUBE_SCOPES];
    this.now = opts.now ?? (() => new Date());
  }

  authorizationUrl(params: { state: string; redirectUri?: string; loginHint?: string }): string {
    this.requireCredentials();
    const u = new URL(joinUrl(this.baseUrls.auth, '/o/oauth2/v2/auth'));
    u.searchParams.set('client_id', this.credentials.clientId);
    u.searchParams.set('redirect_uri', needRedirectUri(this.name, params.redirectUri, this.redirectUri));
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('scope', this.scopes.join(' '));
    u.searchParams.set('access_type', 'offline');
    u.searchParams.set('prompt', 'consent');
    u.searchParams.set('include_granted_scopes', 'true');
    u.searchParams.set('state', params.state);
    if (params.loginHint) u.searchParams.set('login_hint', params.loginHint);
    return u.href;
  }

  parseCallback(query: QueryLike) {
    return parseOAuthCallback(this.name, query);
  }

  async exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet> {
    this.requireCredentials();
    const body = await this.tokenRequest(
      {
        grant_type: 'authorization_code',
        code: params.code,
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        redirect_uri: needRedirectUri(this.name, params.redirectUri, this.redirectUri),
      },
      'exchange',
    );
    if (!body.refresh_token) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_refresh_token',
        key: 'google_no_refresh_token',
      });
    }
    const scope = splitScopes(body.scope, /\s+/);
    requireScopes(this.name, scope, this.scopes);
    const channelId = await this.channelId(body.access_token);
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresAt: expiresAtFrom(this.now(), body.expires_in, 3599),
      refreshExpiresAt: null,
      scope,
      platformUserId: channelId,
    };
  }

  async refresh(tokens: TokenSet): Promise<TokenSet> {
    this.requireCredentials();
    if (!tokens.refreshToken) {
      throw new PlatformError({
        kind: 'reconnect',
        platform: this.name,
        code: 'no_refresh_token',
        key: 'no_refresh_token',
        params: { platform: 'YouTube' },
      });
    }
    const body = await this.tokenRequest(
      {
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken,
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
      },
      'refresh',
    );
    return {
      accessToken: body.access_token,
      // Google normally keeps the refresh token; take a new one if it ever sends one.
      refreshToken: body.refresh_token ?? tokens.refreshToken,
      expiresAt: expiresAtFrom(this.now(), body.expires_in, 3599),
      refreshExpiresAt: tokens.refreshExpiresAt ?? null,
      scope: body.scope ? splitScopes(body.scope, /\s+/) : tokens.scope,
      platformUserId: tokens.platformUserId,
    };
  }

  async getProfile(accessToken: string): Promise<PlatformProfile> {
    const ch = await this.mineChannel(accessToken, 'snippet,brandingSettings');
    return toProfile(ch);
  }

  /** Changes the channel description, keeping every other brandingSettings field as it was. */
  async updateDescription(accessToken: string, description: string): Promise<PlatformProfile> {
    if (description.length > YOUTUBE_DESCRIPTION_MAX) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'description_too_long',
        key: 'youtube_description_too_long',
        params: { max: YOUTUBE_DESCRIPTION_MAX },
      });
    }
    if (/[<>]/.test(description)) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'invalid_description',
        key: 'youtube_description_brackets',
      });
    }
    // channels.update overwrites every mutable property of the part: read it, change one field, send it all back.
    const current = await this.mineChannel(accessToken, 'brandingSettings');
    const brandingSettings = structuredClone(current.brandingSettings ?? {});
    brandingSettings.channel = { ...(brandingSettings.channel ?? {}), description };
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/youtube/v3/channels'), {
      method: 'PUT',
      query: { part: 'brandingSettings' },
      headers: { authorization: `Bearer ${accessToken}` },
      body: { json: { id: current.id, brandingSettings } },
    });
    const body = await readBody(res);
    if (res.status !== 200) throw youtubeApiError(res.status, res.headers, body);
    return this.getProfile(accessToken);
  }

  // -------------------------------------------------------------------------------------------

  private requireCredentials() {
    if (!this.credentials?.clientId || !this.credentials?.clientSecret) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_client',
        key: 'youtube_no_client',
      });
    }
  }

  private async tokenRequest(form: Record<string, string>, phase: 'exchange' | 'refresh'): Promise<any> {
    const res = await this.http.request(joinUrl(this.baseUrls.token, '/token'), { method: 'POST', body: { form } });
    const body = await readBody(res);
    if (res.status !== 200 || !body?.access_token) throw googleTokenError(res.status, res.headers, body, phase);
    return body;
  }

  private async mineChannel(accessToken: string, part: string): Promise<any> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/youtube/v3/channels'), {
      query: { part, mine: 'true' },
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const body = await readBody(res);
    if (res.status !== 200) throw youtubeApiError(res.status, res.headers, body);
    const ch = body?.items?.[0];
    if (!ch?.id) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_channel',
        key: 'youtube_no_channel',
      });
    }
    return ch;
  }

  private async channelId(accessToken: string): Promise<string> {
    return (await this.mineChannel(accessToken, 'id')).id as string;
  }
}

function toProfile(ch: any): PlatformProfile {
  const snippet = ch.snippet ?? {};
  const branding = ch.brandingSettings?.channel ?? {};
  return {
    title: snippet.title ?? branding.title ?? '',
    description: branding.description ?? snippet.description ?? '',
    url: `https://www.youtube.com/channel/${ch.id}`,
    username: snippet.customUrl,
    avatarUrl: snippet.thumbnails?.default?.url,
    platformUserId: ch.id,
  };
}
