/**
 * Starts the three platform simulators on 127.0.0.1 (random ports unless given) and returns their
 * controls plus a ready `PlatformsConfig`-shaped set of base URLs and credentials. `npm run sim` starts them
 * with the AI ones on fixed ports (sim/main.ts).
 */
import type { PlatformsConfig } from '../../server/platforms/settings';
import { startGoogleSimulator, type GoogleSimulator, type GoogleSimulatorOptions } from './google';
import { startInstagramSimulator, type InstagramSimulator, type InstagramSimulatorOptions } from './instagram';
import { startTikTokSimulator, type TikTokSimulator, type TikTokSimulatorOptions } from './tiktok';

export { startGoogleSimulator, type GoogleSimulator, type GoogleSimulatorOptions } from './google';
export {
  startTikTokSimulator,
  TIKTOK_SIM_CLIENT_KEY,
  TIKTOK_SIM_CLIENT_SECRET,
  type TikTokSimulator,
  type TikTokSimulatorOptions,
} from './tiktok';
export {
  startInstagramSimulator,
  INSTAGRAM_SIM_APP_ID,
  INSTAGRAM_SIM_APP_SECRET,
  type InstagramSimulator,
  type InstagramSimulatorOptions,
} from './instagram';
export type { SimFault } from './common';
export {
  startLocalProxy,
  holdDeadPort,
  type LocalProxy,
  type LocalProxyOptions,
  type DeadAddress,
} from './local-proxy';

export interface Simulators {
  google: GoogleSimulator;
  tiktok: TikTokSimulator;
  instagram: InstagramSimulator;
  /** Driver configuration pointing at the simulators (redirect URIs are left to the caller). */
  config: PlatformsConfig;
  /** Environment variables for server/config.ts pointing at the simulators. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface StartSimulatorsOptions {
  google?: GoogleSimulatorOptions;
  tiktok?: TikTokSimulatorOptions;
  instagram?: InstagramSimulatorOptions;
  /** Fixed ports base, base+1, base+2 (default: random free ports). */
  portBase?: number;
}

export async function startSimulators(opts: StartSimulatorsOptions = {}): Promise<Simulators> {
  const p = (i: number) => (opts.portBase ? opts.portBase + i : undefined);
  const google = await startGoogleSimulator({ port: p(0), ...opts.google });
  const tiktok = await startTikTokSimulator({ port: p(1), ...opts.tiktok });
  const instagram = await startInstagramSimulator({ port: p(2), ...opts.instagram });
  const config: PlatformsConfig = {
    youtube: { baseUrls: { auth: google.url, token: google.url, api: google.url } },
    tiktok: {
      baseUrls: { auth: tiktok.url, api: tiktok.url },
      clientId: tiktok.clientKey,
      clientSecret: tiktok.clientSecret,
    },
    instagram: {
      baseUrls: { auth: instagram.url, api: instagram.url, graph: instagram.url },
      clientId: instagram.appId,
      clientSecret: instagram.appSecret,
    },
  };
  const env: Record<string, string> = {
    YOUTUBE_AUTH_BASE_URL: google.url,
    YOUTUBE_TOKEN_BASE_URL: google.url,
    YOUTUBE_API_BASE_URL: google.url,
    TIKTOK_AUTH_BASE_URL: tiktok.url,
    TIKTOK_API_BASE_URL: tiktok.url,
    TIKTOK_CLIENT_KEY: tiktok.clientKey,
    TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
    INSTAGRAM_AUTH_BASE_URL: instagram.url,
    INSTAGRAM_API_BASE_URL: instagram.url,
    INSTAGRAM_GRAPH_BASE_URL: instagram.url,
    INSTAGRAM_APP_ID: instagram.appId,
    INSTAGRAM_APP_SECRET: instagram.appSecret,
  };
  return {
    google,
    tiktok,
    instagram,
    config,
    env,
    close: async () => {
      await Promise.all([google.close(), tiktok.close(), instagram.close()]);
    },
  };
}
