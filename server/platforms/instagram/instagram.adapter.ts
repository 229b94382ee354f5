/** Instagram behind the one platform contract (server/platforms/adapter.ts). */
import { inAnHour, waitOnCodes, type PlatformAdapter } from '../adapter';
import { serverClient } from '../oauth2';
import { INSTAGRAM_CAPABILITIES, InstagramDriver } from './instagram.driver';
import { instagramPublish, instagramReconcile, instagramStarted } from './instagram.publish';
import { InstagramPublisher } from './instagram.publisher';

export const instagram: PlatformAdapter = {
  id: 'instagram',
  label: 'Instagram',
  capabilities: INSTAGRAM_CAPABILITIES,
  oauthClient: 'server',
  connectPath: '/api/instagram/authorize/:id',
  driver: ({ http, settings, now }) =>
    new InstagramDriver({
      http,
      now,
      baseUrls: settings.baseUrls,
      redirectUri: settings.redirectUri,
      credentials: serverClient(settings),
    }),
  started: instagramStarted,
  publish: instagramPublish,
  reconcile: instagramReconcile,
  // The platform's own content_publishing_limit (code 9, subcode 2207042).
  limitWait: waitOnCodes(['publish_limit', '9/2207042'], inAnHour),
  // Posts per account in a rolling 24 h (the platform's content_publishing_limit is asked too).
  limits: { window: 'rolling-24h', posts: 100 },
  stats: {
    batch: 100,
    read: ({ http, settings }, token, ids) =>
      new InstagramPublisher({ http, baseUrls: settings.baseUrls }).stats(token, ids),
  },
};
