/**
 * Platform drivers: one class per platform behind `PlatformDriver`, proxy-aware HTTP, token freshness.
 *
 *   const http = createPlatformHttp({ proxy: account.proxy, ipVersion: account.ipVersion, platform: 'youtube' });
 *   const yt = createDriver('youtube', { http, config: platformsConfig, credentials: { clientId, clientSecret } });
 *   const url = yt.authorizationUrl({ state });
 *   // callback: const { code, state } = yt.parseCallback(req.query); const tokens = await yt.exchangeCode({ code });
 *   const profile = await withFreshToken(tokens, yt, saveTokens, (t) => yt.getProfile(t));
 */
import type { PlatformHttp } from './http';
import { InstagramDriver, type InstagramBaseUrls } from './instagram/instagram.driver';
import { TikTokDriver, type TikTokBaseUrls } from './tiktok/tiktok.driver';
import { PlatformError, type OAuthClientCredentials, type PlatformDriver, type PlatformKey } from './types';
import { YouTubeDriver, type YouTubeBaseUrls } from './youtube/youtube.driver';

export * from './types';
export * from './http';
export * from './fresh-token';
export * from './oauth-state';
export {
  YouTubeDriver,
  YOUTUBE_DEFAULT_BASE_URLS,
  YOUTUBE_SCOPES,
  YOUTUBE_DESCRIPTION_MAX,
  type YouTubeBaseUrls,
} from './youtube/youtube.driver';
export * from './youtube/youtube.publish-exports';
export { TikTokDriver, TIKTOK_DEFAULT_BASE_URLS, TIKTOK_SCOPES, type TikTokBaseUrls } from './tiktok/tiktok.driver';
export * from './tiktok/tiktok.publishing';
export {
  InstagramDriver,
  INSTAGRAM_DEFAULT_BASE_URLS,
  INSTAGRAM_DEFAULT_GRAPH_VERSION,
  INSTAGRAM_SCOPES,
  type InstagramBaseUrls,
} from './instagram/instagram.driver';
export * from './instagram/instagram.publisher';

/** Server-side settings for the drivers (filled by server/config.ts). */
export interface PlatformsConfig {
  youtube: { baseUrls?: Partial<YouTubeBaseUrls>; redirectUri?: string };
  tiktok: { baseUrls?: Partial<TikTokBaseUrls>; redirectUri?: string; clientKey?: string; clientSecret?: string };
  instagram: {
    baseUrls?: Partial<InstagramBaseUrls>;
    redirectUri?: string;
    appId?: string;
    appSecret?: string;
    graphVersion?: string;
  };
}

export interface CreateDriverDeps {
  http: PlatformHttp;
  config: PlatformsConfig;
  /** YouTube only: the account's own Google OAuth client. */
  credentials?: OAuthClientCredentials;
  now?: () => Date;
}

export function createDriver(name: 'youtube', deps: CreateDriverDeps): YouTubeDriver;
export function createDriver(name: 'tiktok', deps: CreateDriverDeps): TikTokDriver;
export function createDriver(name: 'instagram', deps: CreateDriverDeps): InstagramDriver;
export function createDriver(name: PlatformKey, deps: CreateDriverDeps): PlatformDriver;
export function createDriver(name: PlatformKey, deps: CreateDriverDeps): PlatformDriver {
  const { http, config, now } = deps;
  switch (name) {
    case 'youtube':
      return new YouTubeDriver({
        http,
        now,
        baseUrls: config.youtube.baseUrls,
        redirectUri: config.youtube.redirectUri,
        credentials: deps.credentials ?? { clientId: '', clientSecret: '' },
      });
    case 'tiktok':
      return new TikTokDriver({
        http,
        now,
        baseUrls: config.tiktok.baseUrls,
        redirectUri: config.tiktok.redirectUri,
        credentials: { clientId: config.tiktok.clientKey ?? '', clientSecret: config.tiktok.clientSecret ?? '' },
      });
    case 'instagram':
      return new InstagramDriver({
        http,
        now,
        baseUrls: config.instagram.baseUrls,
        redirectUri: config.instagram.redirectUri,
        graphVersion: config.instagram.graphVersion,
        credentials: { clientId: config.instagram.appId ?? '', clientSecret: config.instagram.appSecret ?? '' },
      });
    default:
      throw new PlatformError({
        kind: 'bad-request',
        code: 'unknown_platform',
        key: 'unknown_platform',
        params: { platform: String(name) },
      });
  }
}
