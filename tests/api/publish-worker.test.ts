import type { Config } from '../../server/config';
import type { DbKind } from '../../server/db/index';
import type { Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { decodeMessage } from '../../src/contract/stored-message';
import { describeEachDb } from '../helpers/app';
import {
  connectedProfile,
  listenForMedia,
  makePublishClip,
  publishSimulators,
  schedule,
  settle,
} from './publish.fixtures';

/**
 * The publish worker against the three simulators, every call through a profile's proxy, with a real MP4 that the
 * pre-flight probe reads. "Exactly once" is each simulator's post counter; faults are the simulators' switches.
 */
let proxy: LocalProxy;
let clip: Awaited<ReturnType<typeof makePublishClip>>;
const sims: Record<string, Simulators> = {};

beforeAll(async () => {
  proxy = await startLocalProxy();
  clip = await makePublishClip();
});
afterAll(async () => {
  await Promise.all(Object.values(sims).map((s) => s.close()));
  await proxy?.close();
  await clip?.cleanup();
});

async function overrides(kind: string): Promise<Partial<Config>> {
  const { sims: s, config } = await publishSimulators();
  sims[kind] = s;
  return config;
}

const timing = {
  pollMs: 10,
  containerPollMs: 20,
  backoffMs: 10,
  processingBudgetMs: 20_000,
  progressEveryMs: 0,
  youtubeChunkSize: 256 * 1024,
  tiktokChunkSize: 5 * 1024 * 1024,
  maxFaults: 6,
};

describeEachDb(
  'publish worker',
  (ctx) => {
    let s: Simulators;
    let userId: number;
    let accountId: number;

    beforeAll(async () => {
      s = sims[ctx.tdb.kind]!;
      await listenForMedia(ctx.app);
      userId = await ctx.createUser('pub', 'pub-pass');
      const token = (await ctx.login('pub', 'pub-pass')).headers;
      accountId = await connectedProfile(ctx, token, proxy.url);
    });

    const counts = () => ({
      youtube: s.google.posts(),
      tiktok: s.tiktok.posts().length,
      instagram: s.instagram.posts().length,
    });

    it('publishes one video to YouTube, TikTok and Instagram, once each, links and status on the video', async () => {
      const before = counts();
      proxy.reset();
      const { videoId, rows } = await schedule(ctx, {
        userId,
        accountId,
        clip: clip.file,
        platforms: ['youtube', 'tiktok', 'instagram'],
      });
      const done = await settle(ctx, Object.values(rows));
      expect(done.map((r) => [r.platform, r.state, r.error])).toEqual(
        expect.arrayContaining([
          ['youtube', 'published', null],
          ['tiktok', 'published', null],
          ['instagram', 'published', null],
        ]),
      );
      expect(counts()).toEqual({
        youtube: before.youtube + 1,
        tiktok: before.tiktok + 1,
        instagram: before.instagram + 1,
      });
      for (const r of done) expect(Number(r.bytesSent) === Number(r.bytesTotal)).toBe(true);
      const v = await ctx.tdb.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
      expect(v.status).toBe('success');
      expect(v.urlYouTube).toMatch(/^https:\/\/www\.youtube\.com\//);
      expect(v.urlInstagram).toMatch(/instagram\.com/);
      // Every platform call went through the profile's proxy.
      for (const host of [s.google.url, s.tiktok.url, s.instagram.url].map((u) => new URL(u).host)) {
        expect(proxy.records.some((r) => r.allowed && r.target === host)).toBe(true);
      }
      // Live updates: each row's states went to the owner's stream, and the bell says each post went live.
      const events = await ctx.tdb.db
        .selectFrom('events')
        .select(['kind', 'payload'])
        .where('userId', '=', userId)
        .where('kind', '=', 'publish')
        .execute();
      const states = events.map((e) => JSON.parse(e.payload)).filter((p) => p.videoId === videoId);
      const seen = (platform: string) => states.filter((p) => p.platform === platform).map((p) => p.state);
      expect(seen('youtube')).toEqual(expect.arrayContaining(['uploading', 'published']));
      expect(seen('tiktok')).toEqual(expect.arrayContaining(['uploading', 'published']));
      expect(seen('instagram')).toEqual(expect.arrayContaining(['processing', 'published']));
      const notes = await ctx.tdb.db
        .selectFrom('notifications')
        .select(['kind', 'params', 'link'])
        .where('userId', '=', userId)
        .where('kind', '=', 'publish_done')
        .execute();
      const mine = notes.filter((n) => JSON.parse(n.params).videoId === videoId);
      expect(mine.map((n) => JSON.parse(n.params).platform).sort()).toEqual(['instagram', 'tiktok', 'youtube']);
      expect(mine[0]!.link).toMatch(/^\/video\/youtube\//);
    });

    it('faults mid-upload and lost replies of the public step end in exactly one post per platform', async () => {
      const before = counts();
      s.google.failNextChunk({ status: 503 });
      s.google.loseNextFinalReply('reset');
      s.tiktok.failChunk(0, { status: 500, times: 1 });
      s.instagram.failAfterNextPublish('error500');
      const { rows } = await schedule(ctx, {
        userId,
        accountId,
        clip: clip.file,
        platforms: ['youtube', 'tiktok', 'instagram'],
      });
      const done = await settle(ctx, Object.values(rows));
      expect(done.every((r) => r.state === 'published')).toBe(true);
      expect(counts()).toEqual({
        youtube: before.youtube + 1,
        tiktok: before.tiktok + 1,
        instagram: before.instagram + 1,
      });
    });

    it('a publication deleted or edited before its time posts nothing', async () => {
      const before = counts();
      const later = new Date(Date.now() + 400);
      const a = await schedule(ctx, {
        userId,
        accountId,
        clip: clip.file,
        platforms: ['tiktok', 'instagram'],
        date: later,
      });
      const b = await schedule(ctx, { userId, accountId, clip: clip.file, platforms: ['youtube'], date: later });
      // a: the video leaves its publication; b: YouTube is switched off on the publication.
      await ctx.tdb.db.updateTable('videos').set({ publicationId: null }).where('id', '=', a.videoId).execute();
      await ctx.tdb.db.updateTable('publications').set({ inYoutube: 0 }).where('id', '=', b.publicationId).execute();
      const done = await settle(ctx, [...Object.values(a.rows), ...Object.values(b.rows)]);
      expect(done.map((r) => r.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(counts()).toEqual(before);
    });

    it('processing failures are refused with the platform reason', async () => {
      s.tiktok.failNextPublish('duration_check_failed');
      s.google.failNextProcessing('codec');
      const { rows, videoId } = await schedule(ctx, {
        userId,
        accountId,
        clip: clip.file,
        platforms: ['youtube', 'tiktok'],
      });
      const done = await settle(ctx, Object.values(rows));
      for (const r of done) {
        expect(r).toMatchObject({ state: 'failed', errorKind: 'refused' });
        expect(decodeMessage(r.error!)?.key).toMatch(/^kadr\.platform_errors\./);
      }
      const v = await ctx.tdb.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
      expect(v.status).toBe('error');
      expect(v.errorTikTok).toBe(done.find((r) => r.platform === 'tiktok')!.error);
    });
  },
  overrides,
  { publishTiming: timing },
);

describeEachDb(
  'publish worker: quota',
  (ctx) => {
    let userId: number;
    let accountId: number;
    beforeAll(async () => {
      await listenForMedia(ctx.app);
      userId = await ctx.createUser('quota', 'quota-pass');
      accountId = await connectedProfile(ctx, (await ctx.login('quota', 'quota-pass')).headers, proxy.url);
    });

    it('a used-up daily quota makes the post wait until the window frees, instead of failing', async () => {
      const s = sims[`q-${ctx.tdb.kind}`]!;
      const before = s.tiktok.posts().length;
      const { rows } = await schedule(ctx, { userId, accountId, clip: clip.file, platforms: ['tiktok', 'youtube'] });
      const done = await settle(ctx, Object.values(rows));
      for (const r of done) {
        expect(r.state).toBe('waiting');
        expect(new Date(r.waitUntil!).getTime()).toBeGreaterThan(Date.now());
        expect(r.errorKind).toBe('retry-later');
      }
      expect(s.tiktok.posts().length).toBe(before);
    });
  },
  (kind: DbKind) => overrides(`q-${kind}`),
  { publishTiming: timing, quotaLimits: { tiktokPostsPer24h: 0, youtubeInsertsPerDay: 0 } },
);
