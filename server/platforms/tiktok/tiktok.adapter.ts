/** TikTok behind the one platform contract (server/platforms/adapter.ts). */
import { inAnHour, waitOnCodes, type PlatformAdapter } from '../adapter';
import { serverClient } from '../oauth2';
import { TIKTOK_CAPABILITIES, TikTokDriver } from './tiktok.driver';
import { TIKTOK_POSTING_LIMITS } from './tiktok.limits';
import { tiktokPublish, tiktokReconcile, tiktokStarted } from './tiktok.publish';
import { TikTokPublisher } from './tiktok.publisher';

export const tiktok: PlatformAdapter = {
  id: 'tiktok',
  label: 'TikTok',
  capabilities: TIKTOK_CAPABILITIES,
  oauthClient: 'server',
  connectPath: '/api/tiktok/authorize/:id',
  driver: ({ http, settings, now }) =>
    new TikTokDriver({
      http,
      now,
      baseUrls: settings.baseUrls,
      redirectUri: settings.redirectUri,
      credentials: serverClient(settings),
    }),
  started: tiktokStarted,
  publish: tiktokPublish,
  reconcile: tiktokReconcile,
  limitWait: waitOnCodes(['spam_risk_too_many_posts'], inAnHour),
  // Direct Post: about 15 posts per creator in a rolling 24 h.
  limits: { window: 'rolling-24h', posts: TIKTOK_POSTING_LIMITS.postsPer24h },
  stats: {
    batch: 200,
    read: ({ http, settings }, token, ids) =>
      new TikTokPublisher({ http, baseUrls: settings.baseUrls }).stats(token, ids),
  },
};
