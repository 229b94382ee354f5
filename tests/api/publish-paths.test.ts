import type { Config } from '../../server/config';
import type { DbKind } from '../../server/db/index';
import { translate } from '../../server/http/i18n';
import type { Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { decodeMessage } from '../../src/contract/stored-message';
import { describeEachDb, type TestCtx } from '../helpers/app';
import { sha256 } from '../helpers/media-fixtures';
import { startThrottledProxy, type ThrottledProxy } from '../helpers/throttled-proxy';
import {
  connectedProfile,
  listenForMedia,
  makePublishClip,
  publishSimulators,
  schedule,
  settle,
} from './publish.fixtures';

/**
 * The publish worker's less travelled paths against the three simulators, on both databases: the stats pass,
 * expired TikTok links and YouTube sessions, a partly kept TikTok chunk, Instagram fetch failures, expired
 * containers and its publishing limit, expired access tokens, processing budgets, and edits and deletes that land
 * after scheduling. "Exactly once" is each simulator's own post counter.
 */
let proxy: LocalProxy;
let slow: ThrottledProxy;
let clip: Awaited<ReturnType<typeof makePublishClip>>;
let big: Awaited<ReturnType<typeof makePublishClip>>;
const sims: Record<string, Simulators> = {};

beforeAll(async () => {
  proxy = await startLocalProxy();
  slow = await startThrottledProxy(4 * 1024 * 1024);
  clip = await makePublishClip();
  big = await makePublishClip({ durationSec: 6, lossless: true }); // ~12 MB: two of TikTok's 5 MB chunks
});
afterAll(async () => {
  await Promise.all(Object.values(sims).map((s) => s.close()));
  await proxy?.close();
  await slow?.close();
  await clip?.cleanup();
  await big?.cleanup();
});

async function overrides(name: string): Promise<Partial<Config>> {
  const { sims: s, config } = await publishSimulators();
  sims[name] = s;
  return config;
}

const timing = {
  pollMs: 10,
  containerPollMs: 20,
  backoffMs: 10,
  processingBudgetMs: 20_000,
  progressEveryMs: 0,
  youtubeChunkSize: 256 * 1024,
  youtubeChunkTimeoutMs: 1_500,
  tiktokChunkSize: 5 * 1024 * 1024,
  maxFaults: 6,
};

/** Polls `probe` every 20 ms (no fixed sleep as synchronisation) until it is true. */
async function until(what: string, probe: () => boolean, maxMs = 30_000) {
  const deadline = Date.now() + maxMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const reasonKey = (error: string | null) => decodeMessage(error ?? '')?.key;
/** The stored reason reads as a sentence in both languages: no key is left untranslated. */
function expectReadable(error: string | null) {
  for (const locale of ['uk', 'en'] as const) {
    const text = translate(error ?? '', locale);
    expect(text).not.toMatch(/kadr\.|%\{/);
    expect(text.length).toBeGreaterThan(10);
  }
}

async function setup(ctx: TestCtx) {
  await listenForMedia(ctx.app);
  const userId = await ctx.createUser('paths', 'paths-pass');
  const token = (await ctx.login('paths', 'paths-pass')).headers;
  const fast = await connectedProfile(ctx, token, proxy.url);
  const throttled = await connectedProfile(ctx, token, slow.url);
  const spent = await connectedProfile(ctx, token, proxy.url); // YouTube units spent by the stats test; TikTok inits by the expiring links
  return { userId, fast, throttled, spent };
}

describeEachDb(
  'publish worker paths',
  (ctx) => {
    let s: Simulators;
    let userId: number;
    let fast: number;
    let throttled: number;
    let spent: number;
    beforeAll(async () => {
      s = sims[ctx.tdb.kind]!;
      ({ userId, fast, throttled, spent } = await setup(ctx));
    });
    const counts = () => ({
      youtube: s.google.posts(),
      tiktok: s.tiktok.posts().length,
      instagram: s.instagram.posts().length,
    });
    const video = (id: number) =>
      ctx.tdb.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('the stats pass fills each platform row and sums the main platform and Instagram onto the video', async () => {
      const { videoId, rows } = await schedule(ctx, {
        userId,
        accountId: spent,
        clip: clip.file,
        platforms: ['youtube', 'tiktok', 'instagram'],
      });
      const done = await settle(ctx, Object.values(rows));
      const id = (p: string) => done.find((r) => r.platform === p)!.remoteId!;
      s.google.videos.find((v) => v.id === id('youtube'))!.statistics = {
        viewCount: 120,
        likeCount: 12,
        commentCount: 3,
      };
      Object.assign(
        s.tiktok.posts().find((p) => p.id === id('tiktok'))!,
        { views: 240, likes: 24, comments: 6 },
      );
      Object.assign(
        s.instagram.posts().find((m) => m.id === id('instagram'))!,
        {
          views: 50,
          like_count: 5,
          comments_count: 2,
        },
      );
      const r = await ctx.root.publishing.stats.run();
      expect(r.failed).toBe(0);
      const after = await ctx.tdb.db.selectFrom('videoPublishes').selectAll().where('videoId', '=', videoId).execute();
      const by = (p: string) => after.find((x) => x.platform === p)!;
      expect([by('youtube').views, by('youtube').likes, by('youtube').comments].map(Number)).toEqual([120, 12, 3]);
      expect([by('tiktok').views, by('tiktok').likes, by('tiktok').comments].map(Number)).toEqual([240, 24, 6]);
      expect([by('instagram').views, by('instagram').likes, by('instagram').comments].map(Number)).toEqual([50, 5, 2]);
      for (const x of after) expect(x.statsAt).not.toBeNull();
      const v = await video(videoId);
      // YouTube is the main platform when the video is there; Instagram has columns of its own.
      expect([v.views, v.likes, v.comments].map(Number)).toEqual([120, 12, 3]);
      expect([v.viewsInstagram, v.likesInstagram, v.commentsInstagram].map(Number)).toEqual([50, 5, 2]);

      // YouTube's units for today are spent: the next pass reads TikTok and Instagram only.
      await ctx.root.publishing.quota.spend('youtube', spent, 1_000_000, new Date());
      s.google.videos.find((v) => v.id === id('youtube'))!.statistics = {
        viewCount: 999,
        likeCount: 99,
        commentCount: 9,
      };
      s.tiktok.posts().find((p) => p.id === id('tiktok'))!.views = 300;
      await ctx.root.publishing.stats.run();
      const again = await ctx.tdb.db.selectFrom('videoPublishes').selectAll().where('videoId', '=', videoId).execute();
      expect(Number(again.find((x) => x.platform === 'youtube')!.views)).toBe(120);
      expect(Number(again.find((x) => x.platform === 'tiktok')!.views)).toBe(300);
    });

    it('a TikTok upload link that expires mid-upload gets a new init and still posts once, whole', async () => {
      const before = counts().tiktok;
      const uploads = s.tiktok.uploads().length;
      const { rows } = await schedule(ctx, { userId, accountId: throttled, clip: big.file, platforms: ['tiktok'] });
      const sent = slow.sent;
      const running = settle(ctx, Object.values(rows));
      // The first 5 MB chunk is on its way (its link already checked): the link expires before the second.
      await until('the first chunk under way', () => s.tiktok.uploads().length > uploads && slow.sent - sent > 2 ** 20);
      s.tiktok.expireUploads();
      const [row] = await running;
      expect(row).toMatchObject({ state: 'published', error: null });
      expect(s.tiktok.uploads().length - uploads).toBe(2);
      // The first link kept its first chunk and refused the second; the new one took the file from its start.
      expect(s.tiktok.uploads()[uploads]!.chunks.map((c) => c.outcome)).toEqual(['kept']);
      expect(counts().tiktok).toBe(before + 1);
      expect(s.tiktok.posts().at(-1)!.sha256).toBe(await sha256(big.file));
    });

    it('a TikTok link that keeps expiring ends failed with a reason after a bounded number of inits', async () => {
      const before = counts().tiktok;
      const uploads = s.tiktok.uploads().length;
      const ttl = s.tiktok.publishSettings.uploadTtlSec;
      s.tiktok.publishSettings.uploadTtlSec = -1; // every link is already expired when its first chunk comes
      s.tiktok.publishSettings.rateLimits.init = 100; // the inits are counted here, not TikTok's per-minute cap
      try {
        const { rows } = await schedule(ctx, { userId, accountId: spent, clip: clip.file, platforms: ['tiktok'] });
        const [row] = await settle(ctx, Object.values(rows));
        expect(row).toMatchObject({ state: 'failed', errorKind: 'retry-later' });
        expect(reasonKey(row!.error)).toMatch(/tiktok_upload_expired/);
        expectReadable(row!.error);
        expect(s.tiktok.uploads().length - uploads).toBe(timing.maxFaults + 1);
        expect(counts().tiktok).toBe(before);
      } finally {
        s.tiktok.publishSettings.uploadTtlSec = ttl;
        s.tiktok.publishSettings.rateLimits.init = 6;
      }
    });

    it('a TikTok chunk answered but not kept is sent again: one post', async () => {
      const before = counts().tiktok;
      const uploads = s.tiktok.uploads().length;
      s.tiktok.dropChunk(0);
      const { rows } = await schedule(ctx, { userId, accountId: fast, clip: clip.file, platforms: ['tiktok'] });
      const [row] = await settle(ctx, Object.values(rows));
      expect(row!.state).toBe('published');
      expect(s.tiktok.uploads().length - uploads).toBe(1);
      expect(
        s.tiktok
          .uploads()
          .at(-1)!
          .chunks.map((c) => c.outcome),
      ).toEqual(['dropped', 'kept']);
      expect(counts().tiktok).toBe(before + 1);
    });

    it('an expired YouTube session with no video made starts a new one: one video, the whole file', async () => {
      const before = counts().youtube;
      const known = new Set(s.google.uploadSessions.keys());
      const fresh = () => [...s.google.uploadSessions.values()].filter((x) => !known.has(x.id));
      const { rows } = await schedule(ctx, { userId, accountId: throttled, clip: big.file, platforms: ['youtube'] });
      const running = settle(ctx, Object.values(rows));
      await until('part of the file acknowledged', () => {
        const x = fresh()[0];
        return Boolean(x && x.acknowledged > 0 && x.acknowledged < x.size);
      });
      s.google.expireUploadSessions();
      const [row] = await running;
      expect(row).toMatchObject({ state: 'published', error: null });
      expect(fresh()).toHaveLength(2);
      expect(counts().youtube).toBe(before + 1);
      const made = s.google.videos.find((v) => v.id === row!.remoteId)!;
      expect(made.sha256).toBe(await sha256(big.file));
    });

    it('an expired YouTube session whose video was made finds that video instead of uploading again', async () => {
      const before = counts().youtube;
      const known = new Set(s.google.uploadSessions.keys());
      s.google.loseNextFinalReply('hang');
      const { rows } = await schedule(ctx, { userId, accountId: fast, clip: clip.file, platforms: ['youtube'] });
      const running = settle(ctx, Object.values(rows));
      await until('the video made', () => counts().youtube === before + 1);
      s.google.expireUploadSessions();
      const [row] = await running;
      expect(row!.state).toBe('published');
      expect([...s.google.uploadSessions.keys()].filter((k) => !known.has(k))).toHaveLength(1);
      expect(counts().youtube).toBe(before + 1);
      expect(row!.remoteId).toBe(s.google.videos.at(-1)!.id);
    });

    it('Instagram unable to fetch the file: a few new containers, then failed with the reason, no post', async () => {
      const before = counts().instagram;
      const containers = s.instagram.containers().length;
      const timeout = s.instagram.publishing.fetchTimeoutMs;
      s.instagram.publishing.fetchTimeoutMs = 1;
      try {
        const { rows, videoId } = await schedule(ctx, {
          userId,
          accountId: fast,
          clip: clip.file,
          platforms: ['instagram'],
        });
        const [row] = await settle(ctx, Object.values(rows));
        expect(row).toMatchObject({ state: 'failed' });
        expect(s.instagram.containers().length - containers).toBe(3);
        expect(counts().instagram).toBe(before);
        expectReadable(row!.error);
        expect((await video(videoId)).errorInstagram).toBe(row!.error);
      } finally {
        s.instagram.publishing.fetchTimeoutMs = timeout;
      }
    });

    it('an expired Instagram container is replaced by a new one: one post', async () => {
      const before = counts().instagram;
      const containers = s.instagram.containers().length;
      s.instagram.publishing.finishAfterPolls = 1_000_000;
      const { rows } = await schedule(ctx, { userId, accountId: fast, clip: clip.file, platforms: ['instagram'] });
      await settle(ctx, Object.values(rows), { until: ['processing'] });
      s.instagram.advance(25 * 3600_000);
      s.instagram.publishing.finishAfterPolls = 1;
      const [row] = await settle(ctx, Object.values(rows));
      expect(row!.state).toBe('published');
      expect(s.instagram.containers().length - containers).toBe(2);
      expect(counts().instagram).toBe(before + 1);
    });

    it("Instagram's publishing limit makes the post wait and say until when, without posting", async () => {
      const before = counts().instagram;
      const limit = s.instagram.publishing.limit;
      s.instagram.publishing.limit = 0;
      try {
        const { rows } = await schedule(ctx, { userId, accountId: fast, clip: clip.file, platforms: ['instagram'] });
        const [row] = await settle(ctx, Object.values(rows));
        expect(row).toMatchObject({ state: 'waiting', errorKind: 'retry-later' });
        expect(new Date(row!.waitUntil!).getTime()).toBeGreaterThan(Date.now());
        expect(reasonKey(row!.error)).toMatch(/instagram_publish_limit/);
        expectReadable(row!.error);
        expect(counts().instagram).toBe(before);
      } finally {
        s.instagram.publishing.limit = limit;
      }
    });

    it('access tokens that expire mid-publish are refreshed and the posts go on, once each', async () => {
      const before = counts();
      const refreshed = s.google.refreshCount + s.tiktok.refreshCount;
      s.google.processingMs = 60_000;
      s.tiktok.expireAccessTokens();
      const { rows } = await schedule(ctx, {
        userId,
        accountId: fast,
        clip: clip.file,
        platforms: ['youtube', 'tiktok'],
      });
      try {
        await settle(ctx, [rows.youtube!], { until: ['processing'] });
        s.google.expireAccessTokens();
        s.google.advance(61_000); // processing is over by the platform's clock
      } finally {
        s.google.processingMs = 0;
      }
      const done = await settle(ctx, Object.values(rows));
      expect(done.map((r) => r.state)).toEqual(['published', 'published']);
      expect(s.google.refreshCount + s.tiktok.refreshCount).toBeGreaterThanOrEqual(refreshed + 2);
      expect(counts()).toMatchObject({ youtube: before.youtube + 1, tiktok: before.tiktok + 1 });
    });

    it('a publication edited after scheduling posts the new title everywhere', async () => {
      const later = new Date(Date.now() + 300);
      const { rows, videoId, publicationId } = await schedule(ctx, {
        userId,
        accountId: fast,
        clip: clip.file,
        platforms: ['youtube', 'tiktok', 'instagram'],
        date: later,
      });
      const title = `Нова назва ${videoId}`;
      // What the publications API does on an edit: the video's fields and version, the publication's version.
      await ctx.tdb.db.updateTable('publications').set({ title, version: 2 }).where('id', '=', publicationId).execute();
      await ctx.tdb.db.updateTable('videos').set({ title, version: 2 }).where('id', '=', videoId).execute();
      const done = await settle(ctx, Object.values(rows));
      expect(done.map((r) => [r.state, r.error, r.videoVersion])).toEqual([
        ['published', null, 2],
        ['published', null, 2],
        ['published', null, 2],
      ]);
      const id = (p: string) => done.find((r) => r.platform === p)!.remoteId;
      expect(s.google.videos.find((v) => v.id === id('youtube'))!.title).toBe(title);
      expect(s.tiktok.posts().find((p) => p.id === id('tiktok'))!.title).toContain(title);
      expect(s.instagram.posts().find((m) => m.id === id('instagram'))!.caption).toContain(title);
    });

    it('a publication deleted before its time posts nothing', async () => {
      const before = counts();
      const { rows, publicationId } = await schedule(ctx, {
        userId,
        accountId: fast,
        clip: clip.file,
        platforms: ['youtube', 'tiktok', 'instagram'],
        date: new Date(Date.now() + 300),
      });
      // The delete cancels the rows and removes the publication; its queued jobs are left to find that out.
      await ctx.tdb.db
        .updateTable('videoPublishes')
        .set({ state: 'cancelled' })
        .where('id', 'in', Object.values(rows))
        .execute();
      await ctx.tdb.db.deleteFrom('publications').where('id', '=', publicationId).execute();
      const done = await settle(ctx, Object.values(rows));
      expect(done.map((r) => r.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(counts()).toEqual(before);
    });
  },
  overrides,
  { publishTiming: timing },
);

describeEachDb(
  'publish worker: processing budget',
  (ctx) => {
    let userId: number;
    let fast: number;
    beforeAll(async () => {
      ({ userId, fast } = await setup(ctx));
    });

    it('a platform that keeps processing past the budget ends failed with a reason on every platform', async () => {
      const s = sims[`b-${ctx.tdb.kind}`]!;
      s.google.processingMs = 3600_000;
      s.tiktok.publishSettings.processingPolls = 1_000_000;
      s.instagram.publishing.finishAfterPolls = 1_000_000;
      const { rows, videoId } = await schedule(ctx, {
        userId,
        accountId: fast,
        clip: clip.file,
        platforms: ['youtube', 'tiktok', 'instagram'],
      });
      const done = await settle(ctx, Object.values(rows));
      for (const r of done) {
        expect(r.state).toBe('failed');
        expect(r.errorKind).toBe('refused');
        expect(translate(r.error!, 'en')).toMatch(/process/i);
        expectReadable(r.error);
      }
      const v = await ctx.tdb.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
      expect(v.status).toBe('error');
    });
  },
  (kind: DbKind) => overrides(`b-${kind}`),
  { publishTiming: { ...timing, processingBudgetMs: 150 } },
);
