import { PLATFORM_REGISTRY, type PlatformRegistry } from '../../server/platforms/registry';
import type { Config } from '../../server/config';
import { FOURTH, fourth } from '../../sim/platforms/fourth/fourth.adapter';
import {
  FOURTH_SIM_CLIENT_ID,
  FOURTH_SIM_CLIENT_SECRET,
  startFourthSimulator,
  type FourthSimulator,
} from '../../sim/platforms/fourth/fourth-sim';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { describeEachDb } from '../helpers/app';
import { seedFinishedRequest, seedStoredRequest } from '../helpers/finished-request';
import { sha256 } from '../helpers/media-fixtures';
import { openConsent } from '../platforms/helpers';
import { PUBLISH_TIMING, makePublishClip, publishSimulators, settle } from './publish.fixtures';

/**
 * Issue 19 item 2, the proof: a fourth platform that lives only in the simulators' package (sim/platforms/fourth:
 * its simulator and its adapter) is added by handing the root a registry that lists it, and its settings under
 * `config.platforms.fourth`. Nothing else in the server names it: the OAuth routes, the connection (a token per
 * profile × platform), the publish API (which takes the registry's platforms), the publish worker, the quota and
 * the stats job take it from the registry.
 */
const registry: PlatformRegistry = { ...PLATFORM_REGISTRY, [FOURTH]: fourth };
const sims: Record<string, FourthSimulator> = {};
let proxy: LocalProxy;
let clip: Awaited<ReturnType<typeof makePublishClip>>;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  proxy = await startLocalProxy();
  clip = await makePublishClip({ durationSec: 2 });
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await proxy?.close();
  await clip?.cleanup();
});

async function withFourth(kind: string): Promise<Partial<Config>> {
  const { sims: three, config } = await publishSimulators();
  const sim = await startFourthSimulator();
  sim.processingPolls = 1;
  sims[kind] = sim;
  closers.push(
    () => three.close(),
    () => sim.close(),
  );
  return {
    ...config,
    platforms: {
      ...config.platforms,
      [FOURTH]: { baseUrls: { api: sim.url }, clientId: FOURTH_SIM_CLIENT_ID, clientSecret: FOURTH_SIM_CLIENT_SECRET },
    },
  };
}

describeEachDb(
  'a fourth platform from the registry',
  (ctx) => {
    let token: { authorization: string };
    let userId: number;
    let accountId: number;
    const sim = () => sims[ctx.tdb.kind]!;

    beforeAll(async () => {
      userId = await ctx.createUser('fourth', 'fourth-pass');
      token = (await ctx.login('fourth', 'fourth-pass')).headers;
      const r = await ctx.call({ method: 'POST', url: '/api/accounts', token, payload: { proxy: proxy.url } });
      accountId = r.body.id as number;
    });

    it('connects a profile: the authorization link, the consent, the callback, a token stored for the profile × platform', async () => {
      const link = await ctx.call({ method: 'POST', url: `/api/fourth/authorize/${accountId}`, token });
      expect(link.status).toBe(200);
      expect(link.body.url).toContain(`${sim().url}/oauth/authorize`);
      const consent = await openConsent(link.body.url as string);
      expect(consent.location.pathname).toBe('/api/oauth/fourth/callback');
      const cb = await ctx.call({ method: 'GET', url: consent.location.pathname + consent.location.search });
      expect(cb.status).toBe(302);
      expect(cb.headers.location).toBe(`/accounts/${accountId}?connected=fourth`);

      const rows = await ctx.tdb.db
        .selectFrom('accountPlatforms')
        .selectAll()
        .where('accountId', '=', accountId)
        .execute();
      expect(rows.map((r) => r.platform)).toEqual(['fourth']);
      expect(rows[0]).toMatchObject({ active: 1, error: null, handle: 'fourth_channel' });
      const tokens = rows[0]!.tokensSealed;
      expect(tokens).toBeTruthy();
      expect(tokens).not.toContain('fa_'); // sealed, never the token itself
      // The callback of a platform no registry lists is no route.
      expect((await ctx.call({ method: 'GET', url: '/api/oauth/fifth/callback?code=x&state=y' })).status).toBe(404);
    });

    /** The publish form's body: one finished video to the profile, on the platforms chosen for it. */
    const publishBody = (videoId: number, platforms: string[]) => {
      const date = new Date().toISOString();
      return {
        title: 'Шортс',
        description: 'Опис',
        tags: ['kadr'],
        accounts: [accountId],
        video: [{ id: videoId, title: 'Шортс', description: 'Опис', tags: ['kadr'], account: accountId, date }],
        inYouTube: false,
        inTikTok: false,
        inInstagram: false,
        profiles: [{ account: accountId, platforms }],
        date,
      };
    };

    it('the publish API refuses a platform no registry lists, naming the field', async () => {
      const req = await seedFinishedRequest(ctx.tdb.db, userId, 1);
      const r = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/${req.idUpload}`,
        token,
        payload: publishBody(req.videos[0]!, [FOURTH, 'fifth']),
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['profiles.0.platforms.1']);
      expect(await ctx.tdb.db.selectFrom('videoPublishes').select('id').execute()).toEqual([]);
    });

    it('publishes a post through the publish API end to end: the row reaches published, the simulator holds the file, stats come back', async () => {
      const req = await seedStoredRequest(ctx.tdb.db, ctx.root.media.storage, userId, [clip.file]);
      const videoId = req.videos[0]!;
      const created = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/${req.idUpload}`,
        token,
        payload: publishBody(videoId, [FOURTH]),
      });
      expect(created.status).toBe(201);
      expect(created.body.skipped).toEqual([]);
      expect(created.body.video[0].platforms.map((p: { platform: string }) => p.platform)).toEqual([FOURTH]);
      const rows = await ctx.tdb.db.selectFrom('videoPublishes').select('id').where('videoId', '=', videoId).execute();
      const [done] = await settle(
        ctx,
        rows.map((r) => r.id),
      );
      expect(done).toMatchObject({ platform: 'fourth', state: 'published', error: null });
      const posts = sim().posts();
      expect(posts).toHaveLength(1);
      expect(done!.remoteId).toBe(posts[0]!.id);
      expect(done!.remoteUrl).toBe(posts[0]!.url);
      expect(posts[0]!.sha256).toBe(await sha256(clip.file));
      const video = await ctx.tdb.db
        .selectFrom('videos')
        .selectAll()
        .where('id', '=', videoId)
        .executeTakeFirstOrThrow();
      expect(video.status).toBe('success');

      Object.assign(posts[0]!, { views: 70, likes: 7, comments: 1 });
      const pass = await ctx.root.publishing.stats.run();
      expect(pass.failed).toBe(0);
      const after = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .selectAll()
        .where('id', '=', done!.id)
        .executeTakeFirstOrThrow();
      expect([after.views, after.likes, after.comments].map(Number)).toEqual([70, 7, 1]);
      expect(after.statsAt).not.toBeNull();
    });

    it('the keep-alive refreshes its grant like any other platform', async () => {
      const before = sim().refreshCount;
      const r = await ctx.root.services.keepAlive.keepGrantsAlive({ marginMs: Number.POSITIVE_INFINITY });
      expect(r).toEqual({ refreshed: 1, failed: 0 });
      expect(sim().refreshCount).toBe(before + 1);
    });
  },
  withFourth,
  { platforms: registry, publishTiming: PUBLISH_TIMING },
);
