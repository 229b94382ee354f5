/**
 * Instagram API with Instagram Login (professional accounts, no Facebook Page):
 * authorize → code → short-lived token (1 h) → long-lived token (60 d) → refresh (token ≥ 24 h old).
 * There is no separate refresh token: the long-lived token refreshes itself, and an expired one means
 * logging in again. The IG User node is read-only: name and biography cannot be changed via the API.
 */
import { z } from 'zod';
import { expiresAtFrom, joinUrl, optionalText, parsed, readBody, requireScopes, splitScopes } from '../common';
import { OAuth2Driver, type OAuth2DriverOptions } from '../oauth2';
import type { PlatformCapabilities, PlatformProfile, TokenSet } from '../types';
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

export interface InstagramDriverOptions extends OAuth2DriverOptions<InstagramBaseUrls> {
  graphVersion?: string;
}

/** An id Meta sends as a number or a string (or leaves out), read as text. */
const id = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? undefined : String(v)));
const ShortToken = z.object({ access_token: z.string().min(1), user_id: id, permissions: z.unknown().optional() });
const LongToken = z.object({ access_token: z.string().min(1), expires_in: z.unknown().optional() });
const Me = z.object({
  id,
  user_id: id,
  username: optionalText,
  name: optionalText,
  biography: optionalText,
  profile_picture_url: optionalText,
  error: z.unknown().optional(),
});
type Me = z.infer<typeof Me>;

/** What the official API lets us do (the panel hides or disables what is false). */
export const INSTAGRAM_CAPABILITIES: PlatformCapabilities = {
  updateProfileName: false,
  updateDescription: false,
  publishVideo: true,
  readStats: true,
};

export class InstagramDriver extends OAuth2Driver<InstagramBaseUrls> {
  readonly capabilities = INSTAGRAM_CAPABILITIES;
  /** Long-lived tokens are refreshed in their last week (a refresh needs the token to be ≥ 24 h old). */
  readonly refreshAheadMs = 7 * 24 * 3600_000;
  readonly graphVersion: string;

  constructor(opts: InstagramDriverOptions) {
    super(
      {
        name: 'instagram',
        defaultBaseUrls: INSTAGRAM_DEFAULT_BASE_URLS,
        scopes: INSTAGRAM_SCOPES,
        noClientKey: 'instagram_not_configured',
        stripHashSuffix: true,
      },
      opts,
    );
    this.graphVersion = opts.graphVersion || INSTAGRAM_DEFAULT_GRAPH_VERSION;
  }

  authorizationUrl(params: { state: string; redirectUri?: string }): string {
    return this.consentLink(this.baseUrls.auth, '/oauth/authorize', params.redirectUri, (redirectUri) => ({
      enable_fb_login: '0',
      client_id: this.credentials.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: this.scopes.join(','),
      state: params.state,
    }));
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
          redirect_uri: this.redirect(params.redirectUri),
          code: params.code.replace(/#_?$/, ''),
        },
      },
    });
    const raw = await readBody(res);
    // Real responses are flat; some docs wrap them in { data: [ … ] }. Accept both.
    const wrapped = parsed(z.object({ data: z.array(z.unknown()) }), raw);
    const short = res.status === 200 ? parsed(ShortToken, wrapped ? wrapped.data[0] : raw) : null;
    if (!short) throw instagramOAuthError(res.status, res.headers, raw);
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
    const longBody = await readBody(longRes);
    const long = longRes.status === 200 ? parsed(LongToken, longBody) : null;
    if (!long) throw instagramGraphError(longRes.status, longRes.headers, longBody, 'exchange');
    const expiresAt = expiresAtFrom(this.now(), long.expires_in, LONG_LIVED_SEC);

    // 3. the professional account id (user_id) that the content API uses
    let platformUserId = short.user_id ?? '';
    try {
      const me = await this.me(long.access_token, ['user_id', 'username']);
      if (me.user_id !== undefined) platformUserId = me.user_id;
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
    const raw = await readBody(res);
    const body = res.status === 200 ? parsed(LongToken, raw) : null;
    if (!body) throw instagramGraphError(res.status, res.headers, raw, 'refresh');
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
    const username = me.username || undefined;
    return {
      title: me.name || username || '',
      description: me.biography ?? '',
      url: username ? `https://www.instagram.com/${username}/` : '',
      username,
      avatarUrl: me.profile_picture_url,
      platformUserId: me.user_id ?? me.id ?? '',
    };
  }

  // -------------------------------------------------------------------------------------------

  private async me(accessToken: string, fields: readonly string[]): Promise<Me> {
    const res = await this.http.request(joinUrl(this.baseUrls.graph, `/${this.graphVersion}/me`), {
      // The documented form is the access_token query parameter (TLS keeps it from the proxy).
      query: { fields: fields.join(','), access_token: accessToken },
    });
    const body = await readBody(res);
    const me = parsed(Me, body ?? {});
    if (res.status !== 200 || !me || me.error) throw instagramGraphError(res.status, res.headers, body, 'api');
    return me;
  }
}
