/**
 * YouTube: Google OAuth 2.0 web-server flow with the account's own client_id/client_secret, and the
 * YouTube Data API v3 channel calls (read; description update by read-modify-write of brandingSettings).
 */
import { z } from 'zod';
import { expiresAtFrom, joinUrl, optionalText, parsed, readBody, requireScopes, splitScopes } from '../common';
import { OAuth2Driver, type OAuth2DriverOptions } from '../oauth2';
import { PlatformError, type PlatformCapabilities, type PlatformProfile, type TokenSet } from '../types';
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

export type YouTubeDriverOptions = OAuth2DriverOptions<YouTubeBaseUrls>;

const GoogleToken = z.object({
  access_token: z.string().min(1),
  refresh_token: optionalText,
  expires_in: z.unknown().optional(),
  scope: z.unknown().optional(),
});

const Channel = z.object({
  id: z.string().min(1),
  snippet: z
    .object({
      title: optionalText,
      description: optionalText,
      customUrl: optionalText,
      thumbnails: z.object({ default: z.object({ url: optionalText }).nullish() }).nullish(),
    })
    .nullish(),
  // Sent back whole on update: every field kept as it was.
  brandingSettings: z
    .looseObject({
      channel: z.looseObject({ title: optionalText, description: optionalText }).nullish(),
    })
    .nullish(),
});
type Channel = z.infer<typeof Channel>;

const ChannelList = z.object({ items: z.array(z.unknown()).optional() });

/** What the official API lets us do (the panel hides or disables what is false). */
export const YOUTUBE_CAPABILITIES: PlatformCapabilities = {
  updateProfileName: false,
  updateDescription: true,
  publishVideo: true,
  readStats: true,
};

export class YouTubeDriver extends OAuth2Driver<YouTubeBaseUrls> {
  readonly capabilities = YOUTUBE_CAPABILITIES;
  readonly refreshAheadMs = 5 * 60_000;

  constructor(opts: YouTubeDriverOptions) {
    super(
      {
        name: 'youtube',
        defaultBaseUrls: YOUTUBE_DEFAULT_BASE_URLS,
        scopes: YOUTUBE_SCOPES,
        noClientKey: 'youtube_no_client',
      },
      opts,
    );
  }

  authorizationUrl(params: { state: string; redirectUri?: string; loginHint?: string }): string {
    return this.consentLink(this.baseUrls.auth, '/o/oauth2/v2/auth', params.redirectUri, (redirectUri) => ({
      client_id: this.credentials.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: this.scopes.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: params.state,
      login_hint: params.loginHint || undefined,
    }));
  }

  async exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet> {
    this.requireCredentials();
    const body = await this.tokenRequest(
      {
        grant_type: 'authorization_code',
        code: params.code,
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        redirect_uri: this.redirect(params.redirectUri),
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
    const channelId = (await this.mineChannel(body.access_token, 'id')).id;
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
    const body = await this.tokenRequest(
      {
        grant_type: 'refresh_token',
        refresh_token: this.refreshTokenOf(tokens),
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
    const brandingSettings = {
      ...current.brandingSettings,
      channel: { ...current.brandingSettings?.channel, description },
    };
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

  private async tokenRequest(form: Record<string, string>, phase: 'exchange' | 'refresh') {
    const res = await this.http.request(joinUrl(this.baseUrls.token, '/token'), { method: 'POST', body: { form } });
    const body = await readBody(res);
    const token = res.status === 200 ? parsed(GoogleToken, body) : null;
    if (!token) throw googleTokenError(res.status, res.headers, body, phase);
    return token;
  }

  private async mineChannel(accessToken: string, part: string): Promise<Channel> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/youtube/v3/channels'), {
      query: { part, mine: 'true' },
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const body = await readBody(res);
    if (res.status !== 200) throw youtubeApiError(res.status, res.headers, body);
    const ch = parsed(Channel, parsed(ChannelList, body)?.items?.[0]);
    if (!ch) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: this.name,
        code: 'no_channel',
        key: 'youtube_no_channel',
      });
    }
    return ch;
  }
}

function toProfile(ch: Channel): PlatformProfile {
  const snippet = ch.snippet;
  const branding = ch.brandingSettings?.channel;
  return {
    title: snippet?.title ?? branding?.title ?? '',
    description: branding?.description ?? snippet?.description ?? '',
    url: `https://www.youtube.com/channel/${ch.id}`,
    username: snippet?.customUrl,
    avatarUrl: snippet?.thumbnails?.default?.url,
    platformUserId: ch.id,
  };
}
