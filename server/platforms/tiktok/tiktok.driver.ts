/**
 * TikTok: Login Kit v2 (web, no PKCE) with the server's client key, token exchange and refresh
 * (refresh tokens rotate: the old one stops working, the new one must be stored), and user info.
 * TikTok has no endpoint to change display_name or bio_description.
 */
import { z } from 'zod';
import { expiresAtFrom, joinUrl, optionalText, parsed, textAt, readBody, requireScopes, splitScopes } from '../common';
import { OAuth2Driver, type OAuth2DriverOptions } from '../oauth2';
import type { PlatformCapabilities, PlatformProfile, TokenSet } from '../types';
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

/** The server's TikTok app: clientId = client_key. */
export type TikTokDriverOptions = OAuth2DriverOptions<TikTokBaseUrls>;

const TikTokToken = z.object({
  access_token: z.string().min(1),
  refresh_token: optionalText,
  expires_in: z.unknown().optional(),
  refresh_expires_in: z.unknown().optional(),
  scope: z.unknown().optional(),
  open_id: optionalText,
});
type TikTokToken = z.infer<typeof TikTokToken>;

const UserInfo = z.object({
  error: z.object({ code: optionalText }).nullish(),
  data: z
    .object({
      user: z
        .object({
          open_id: optionalText,
          avatar_url: optionalText,
          display_name: optionalText,
          bio_description: optionalText,
          profile_deep_link: optionalText,
          username: optionalText,
        })
        .optional(),
    })
    .nullish(),
});

/** What the official API lets us do (the panel hides or disables what is false). */
export const TIKTOK_CAPABILITIES: PlatformCapabilities = {
  updateProfileName: false,
  updateDescription: false,
  publishVideo: true,
  readStats: true,
};

export class TikTokDriver extends OAuth2Driver<TikTokBaseUrls> {
  readonly capabilities = TIKTOK_CAPABILITIES;
  readonly refreshAheadMs = 5 * 60_000;

  constructor(opts: TikTokDriverOptions) {
    super(
      {
        name: 'tiktok',
        defaultBaseUrls: TIKTOK_DEFAULT_BASE_URLS,
        scopes: TIKTOK_SCOPES,
        noClientKey: 'tiktok_not_configured',
      },
      opts,
    );
  }

  authorizationUrl(params: { state: string; redirectUri?: string }): string {
    return this.consentLink(this.baseUrls.auth, '/v2/auth/authorize/', params.redirectUri, (redirectUri) => ({
      client_key: this.credentials.clientId,
      response_type: 'code',
      scope: this.scopes.join(','),
      redirect_uri: redirectUri,
      state: params.state,
    }));
  }

  async exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet> {
    this.requireCredentials();
    const body = await this.tokenRequest(
      {
        client_key: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        code: params.code,
        grant_type: 'authorization_code',
        redirect_uri: this.redirect(params.redirectUri),
      },
      'exchange',
    );
    const tokens = this.toTokens(body);
    requireScopes(this.name, tokens.scope, this.scopes);
    return tokens;
  }

  async refresh(tokens: TokenSet): Promise<TokenSet> {
    this.requireCredentials();
    const refreshToken = this.refreshTokenOf(tokens);
    const body = await this.tokenRequest(
      {
        client_key: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
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
    const info = parsed(UserInfo, body);
    if (res.status !== 200 || !info || (info.error?.code && info.error.code !== 'ok'))
      throw tiktokApiError(res.status, res.headers, body);
    const user = info.data?.user;
    const username = user?.username || undefined;
    return {
      title: user?.display_name ?? username ?? '',
      description: user?.bio_description ?? '',
      url: user?.profile_deep_link || (username ? `https://www.tiktok.com/@${username}` : ''),
      username,
      avatarUrl: user?.avatar_url,
      platformUserId: user?.open_id ?? '',
    };
  }

  // -------------------------------------------------------------------------------------------

  private async tokenRequest(form: Record<string, string>, phase: 'exchange' | 'refresh'): Promise<TikTokToken> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/v2/oauth/token/'), {
      method: 'POST',
      headers: { 'cache-control': 'no-cache' },
      body: { form },
    });
    const body = await readBody(res);
    // TikTok may report OAuth errors with HTTP 200, so look at the body as well as the status.
    const token = res.status === 200 && textAt(body, 'error') === undefined ? parsed(TikTokToken, body) : null;
    if (!token) throw tiktokOAuthError(res.status, res.headers, body, phase);
    return token;
  }

  private toTokens(body: TikTokToken): TokenSet {
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
