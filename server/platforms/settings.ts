import type { PlatformId } from './types';

/** Server-side settings of one platform (filled by server/config.ts; tests point the hosts at simulators). */
export interface PlatformSettings {
  /** Overrides of the platform's production hosts, by the adapter's names for them (auth, token, api, graph). */
  baseUrls?: Record<string, string | undefined>;
  /** The redirect URI registered with the platform. */
  redirectUri?: string;
  /** The server's OAuth app (TikTok's client key, Instagram's app id), for a platform that signs in with one. */
  clientId?: string;
  clientSecret?: string;
}

/** Every platform's settings, by platform id. */
export type PlatformsConfig = Record<PlatformId, PlatformSettings>;
