import type { DbKind } from '../../server/db/index';
import { translate } from '../../server/http/i18n';
import { decodeMessage } from '../../src/contract/stored-message';
import { describeEachDb } from '../helpers/app';
import { sha256 } from '../helpers/media-fixtures';
import { startThrottledProxy, type ThrottledProxy } from '../helpers/throttled-proxy';
import { PUBLISH_TIMING, connectedProfile, makePublishClip, publishBench, publisher, settle } from './publish.fixtures';

/**
 * The publish worker's less travelled paths against the three simulators, on both databases: the stats pass,
 * expired TikTok links and YouTube sessions, a partly kept TikTok chunk, Instagram fetch failures, expired
 * containers and its publishing limit, expired access tokens, processing budgets, and edits and deletes that land
 * after scheduling. "Exactly once" is each simulator's own post counter.
 */
const bench = publishBench();
let slow: ThrottledProxy;
let big: Awaited<ReturnType<typeof makePublishClip>>;

beforeAll(async () => {
  slow = await startThrottledProxy(4 * 1024 * 1024);
  big = await makePublishClip({ durationSec: 6, lossless: true }); // ~12 MB: two of TikTok's 5 MB chunks
});
afterAll(async () => {
  await slow?.close();
  await big?.cleanup();
});

const timing = { ...PUBLISH_TIMING, youtubeChunkTimeoutMs: 1_500 };

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

describeEachDb(
  'publish worker paths',
  (ctx) => {
    const me = publisher(ctx, bench, 'paths');
    let throttled: number;
    let spent: number;
    beforeAll(async () => {
      throttled = await connectedProfile(ctx, me.token, slow.url);
      spent = await connectedProfile(ctx, me.token, bench.proxy.url); // YouTube units spent by the stats test; TikTok inits by the expiring links
    });
    const video = (id: number) =>
      ctx.tdb.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('the stats pass fills each platform row and sums the main platform and Instagram onto the video', async () => {
      const { videoId, rows } = await me.post(['youtube', 'tiktok', 'instagram'], { accountId: spent });
      const done = await settle(ctx, Object.values(rows));
      const id = (p: string) => done.find((r) => r.platform === p)!.remoteId!;
      me.sims.google.videos.find((v) => v.id === id('youtube'))!.statistics = {
        viewCount: 120,
        likeCount: 12,
        commentCount: 3,
      };
      Object.assign(
        me.sims.tiktok.posts().find((p) => p.id === id('tiktok'))!,
        { views: 240, likes: 24, comments: 6 },
      );
      Object.assign(
        me.sims.instagram.posts().find((m) => m.id === id('instagram'))!,
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
      me.sims.google.videos.find((v) => v.id === id('youtube'))!.statistics = {
        viewCount: 999,
        likeCount: 99,
        commentCount: 9,
      };
      me.sims.tiktok.posts().find((p) => p.id === id('tiktok'))!.views = 300;
      // The posts were read a moment ago and young posts are read hourly: their last read is made an hour old.
      await ctx.tdb.db
        .updateTable('videoPublishes')
        .set({ statsAt: Date.now() - 3600_000 })
        .where('videoId', '=', videoId)
        .execute();
      await ctx.root.publishing.stats.run();
      const again = await ctx.tdb.db.selectFrom('videoPublishes').selectAll().where('videoId', '=', videoId).execute();
      expect(Number(again.find((x) => x.platform === 'youtube')!.views)).toBe(120);
      expect(Number(again.find((x) => x.platform === 'tiktok')!.views)).toBe(300);
    });

    it('a TikTok upload link that expires mid-upload gets a new init and still posts once, whole', async () => {
      const before = me.counts().tiktok;
      const uploads = me.sims.tiktok.uploads().length;
      const { rows } = await me.post(['tiktok'], { accountId: throttled, clip: big.file });
      const sent = slow.sent;
      const running = settle(ctx, Object.values(rows));
      // The first 5 MB chunk is on its way (its link already checked): the link expires before the second.
      await until(
        'the first chunk under way',
        () => me.sims.tiktok.uploads().length > uploads && slow.sent - sent > 2 ** 20,
      );
      me.sims.tiktok.expireUploads();
      const [row] = await running;
      expect(row).toMatchObject({ state: 'published', error: null });
      expect(me.sims.tiktok.uploads().length - uploads).toBe(2);
      // The first link kept its first chunk and refused the second; the new one took the file from its start.
      expect(me.sims.tiktok.uploads()[uploads]!.chunks.map((c) => c.outcome)).toEqual(['kept']);
      expect(me.counts().tiktok).toBe(before + 1);
      expect(me.sims.tiktok.posts().at(-1)!.sha256).toBe(await sha256(big.file));
    });

    it('a TikTok link that keeps expiring ends failed with a reason after a bounded number of inits', async () => {
      const before = me.counts().tiktok;
      const uploads = me.sims.tiktok.uploads().length;
      const ttl = me.sims.tiktok.publishSettings.uploadTtlSec;
      me.sims.tiktok.publishSettings.uploadTtlSec = -1; // every link is already expired when its first chunk comes
      me.sims.tiktok.publishSettings.rateLimits.init = 100; // the inits are counted here, not TikTok's per-minute cap
      try {
        const { rows } = await me.post(['tiktok'], { accountId: spent });
        const [row] = await settle(ctx, Object.values(rows));
        expect(row).toMatchObject({ state: 'failed', errorKind: 'retry-later' });
        expect(reasonKey(row!.error)).toMatch(/tiktok_upload_expired/);
        expectReadable(row!.error);
        expect(me.sims.tiktok.uploads().length - uploads).toBe(timing.maxFaults + 1);
        expect(me.counts().tiktok).toBe(before);
      } finally {
        me.sims.tiktok.publishSettings.uploadTtlSec = ttl;
        me.sims.tiktok.publishSettings.rateLimits.init = 6;
      }
    });

    it('a TikTok chunk answered but not kept is sent again: one post', async () => {
      const before = me.counts().tiktok;
      const uploads = me.sims.tiktok.uploads().length;
      me.sims.tiktok.dropChunk(0);
      const { rows } = await me.post(['tiktok']);
      const [row] = await settle(ctx, Object.values(rows));
      expect(row!.state).toBe('published');
      expect(me.sims.tiktok.uploads().length - uploads).toBe(1);
      expect(
        me.sims.tiktok
          .uploads()
          .at(-1)!
          .chunks.map((c) => c.outcome),
      ).toEqual(['dropped', 'kept']);
      expect(me.counts().tiktok).toBe(before + 1);
    });

    it('an expired YouTube session with no video made starts a new one: one video, the whole file', async () => {
      const before = me.counts().youtube;
      const known = new Set(me.sims.google.uploadSessions.keys());
      const fresh = () => [...me.sims.google.uploadSessions.values()].filter((x) => !known.has(x.id));
      const { rows } = await me.post(['youtube'], { accountId: throttled, clip: big.file });
      const running = settle(ctx, Object.values(rows));
      await until('part of the file acknowledged', () => {
        const x = fresh()[0];
        return Boolean(x && x.acknowledged > 0 && x.acknowledged < x.size);
      });
      me.sims.google.expireUploadSessions();
      const [row] = await running;
      expect(row).toMatchObject({ state: 'published', error: null });
      expect(fresh()).toHaveLength(2);
      expect(me.counts().youtube).toBe(before + 1);
      const made = me.sims.google.videos.find((v) => v.id === row!.remoteId)!;
      expect(made.sha256).toBe(await sha256(big.file));
    });

    it('an expired YouTube session whose video was made finds that video instead of uploading again', async () => {
      const before = me.counts().youtube;
      const known = new Set(me.sims.google.uploadSessions.keys());
      me.sims.google.loseNextFinalReply('hang');
      const { rows } = await me.post(['youtube']);
      const running = settle(ctx, Object.values(rows));
      await until('the video made', () => me.counts().youtube === before + 1);
      me.sims.google.expireUploadSessions();
      const [row] = await running;
      expect(row!.state).toBe('published');
      expect([...me.sims.google.uploadSessions.keys()].filter((k) => !known.has(k))).toHaveLength(1);
      expect(me.counts().youtube).toBe(before + 1);
      expect(row!.remoteId).toBe(me.sims.google.videos.at(-1)!.id);
    });

    it('Instagram unable to fetch the file: a few new containers, then failed with the reason, no post', async () => {
      const before = me.counts().instagram;
      const containers = me.sims.instagram.containers().length;
      const timeout = me.sims.instagram.publishing.fetchTimeoutMs;
      me.sims.instagram.publishing.fetchTimeoutMs = 1;
      try {
        const { rows, videoId } = await me.post(['instagram']);
        const [row] = await settle(ctx, Object.values(rows));
        expect(row).toMatchObject({ state: 'failed' });
        expect(me.sims.instagram.containers().length - containers).toBe(3);
        expect(me.counts().instagram).toBe(before);
        expectReadable(row!.error);
        expect((await video(videoId)).errorInstagram).toBe(row!.error);
      } finally {
        me.sims.instagram.publishing.fetchTimeoutMs = timeout;
      }
    });

    it('an expired Instagram container is replaced by a new one: one post', async () => {
      const before = me.counts().instagram;
      const containers = me.sims.instagram.containers().length;
      me.sims.instagram.publishing.finishAfterPolls = 1_000_000;
      const { rows } = await me.post(['instagram']);
      await settle(ctx, Object.values(rows), { until: ['processing'] });
      me.sims.instagram.advance(25 * 3600_000);
      me.sims.instagram.publishing.finishAfterPolls = 1;
      const [row] = await settle(ctx, Object.values(rows));
      expect(row!.state).toBe('published');
      expect(me.sims.instagram.containers().length - containers).toBe(2);
      expect(me.counts().instagram).toBe(before + 1);
    });

    it("Instagram's publishing limit makes the post wait and say until when, without posting", async () => {
      const before = me.counts().instagram;
      const limit = me.sims.instagram.publishing.limit;
      me.sims.instagram.publishing.limit = 0;
      try {
        const { rows } = await me.post(['instagram']);
        const [row] = await settle(ctx, Object.values(rows));
        expect(row).toMatchObject({ state: 'waiting', errorKind: 'retry-later' });
        expect(new Date(row!.waitUntil!).getTime()).toBeGreaterThan(Date.now());
        expect(reasonKey(row!.error)).toMatch(/instagram_publish_limit/);
        expectReadable(row!.error);
        expect(me.counts().instagram).toBe(before);
      } finally {
        me.sims.instagram.publishing.limit = limit;
      }
    });

    it('access tokens that expire mid-publish are refreshed and the posts go on, once each', async () => {
      const before = me.counts();
      const refreshed = me.sims.google.refreshCount + me.sims.tiktok.refreshCount;
      me.sims.google.processingMs = 60_000;
      me.sims.tiktok.expireAccessTokens();
      const { rows } = await me.post(['youtube', 'tiktok']);
      try {
        await settle(ctx, [rows.youtube!], { until: ['processing'] });
        me.sims.google.expireAccessTokens();
        me.sims.google.advance(61_000); // processing is over by the platform's clock
      } finally {
        me.sims.google.processingMs = 0;
      }
      const done = await settle(ctx, Object.values(rows));
      expect(done.map((r) => r.state)).toEqual(['published', 'published']);
      expect(me.sims.google.refreshCount + me.sims.tiktok.refreshCount).toBeGreaterThanOrEqual(refreshed + 2);
      expect(me.counts()).toMatchObject({ youtube: before.youtube + 1, tiktok: before.tiktok + 1 });
    });

    it('a publication edited after scheduling posts the new title everywhere', async () => {
      const later = new Date(Date.now() + 300);
      const { rows, videoId, publicationId } = await me.post(['youtube', 'tiktok', 'instagram'], { date: later });
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
      expect(me.sims.google.videos.find((v) => v.id === id('youtube'))!.title).toBe(title);
      expect(me.sims.tiktok.posts().find((p) => p.id === id('tiktok'))!.title).toContain(title);
      expect(me.sims.instagram.posts().find((m) => m.id === id('instagram'))!.caption).toContain(title);
    });

    it('a publication deleted before its time posts nothing', async () => {
      const before = me.counts();
      const { rows, publicationId } = await me.post(['youtube', 'tiktok', 'instagram'], {
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
      expect(me.counts()).toEqual(before);
    });
  },
  bench.overrides,
  { publishTiming: timing },
);

describeEachDb(
  'publish worker: processing budget',
  (ctx) => {
    const me = publisher(ctx, bench, 'paths', 'b-');

    it('a platform that keeps processing past the budget ends failed with a reason on every platform', async () => {
      me.sims.google.processingMs = 3600_000;
      me.sims.tiktok.publishSettings.processingPolls = 1_000_000;
      me.sims.instagram.publishing.finishAfterPolls = 1_000_000;
      const { rows, videoId } = await me.post(['youtube', 'tiktok', 'instagram']);
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
  (kind: DbKind) => bench.overrides(`b-${kind}`),
  { publishTiming: { ...timing, processingBudgetMs: 150 } },
);
