/** YouTube behind the one platform contract (server/platforms/adapter.ts). */
import { waitOnCodes, type PlatformAdapter } from '../adapter';
import { nextPacificMidnight } from '../pacific-day';
import { YOUTUBE_CAPABILITIES, YouTubeDriver } from './youtube.driver';
import { youtubePublish, youtubeReconcile, youtubeStarted } from './youtube.publish';
import { YouTubePublisher } from './youtube.publisher';

export const youtube: PlatformAdapter = {
  id: 'youtube',
  label: 'YouTube',
  capabilities: YOUTUBE_CAPABILITIES,
  // Each profile signs in with its own Google OAuth client (SPEC: YouTubeAuthClientId / Secret).
  oauthClient: 'profile',
  connectPath: '/api/accounts/connect-youtube/:id',
  driver: ({ http, settings, credentials, now }) =>
    new YouTubeDriver({
      http,
      now,
      baseUrls: settings.baseUrls,
      redirectUri: settings.redirectUri,
      credentials: credentials ?? { clientId: '', clientSecret: '' },
    }),
  started: youtubeStarted,
  publish: youtubePublish,
  reconcile: youtubeReconcile,
  // The project's daily quota and the channel's upload cap: wait for the next quota day.
  limitWait: waitOnCodes(['quotaExceeded', 'dailyLimitExceeded', 'uploadLimitExceeded'], nextPacificMidnight),
  // Per profile (each its own Google project): 10,000 units a day and at most 100 videos.insert calls.
  limits: { window: 'pacific-day', posts: 100, units: { perWindow: 10_000, perPost: 1 } },
  stats: {
    batch: 500,
    idsPerUnit: 50,
    read: ({ http, settings }, token, ids) =>
      new YouTubePublisher({ http, baseUrls: settings.baseUrls }).stats(token, ids),
  },
};
