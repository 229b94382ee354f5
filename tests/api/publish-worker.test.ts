import type { DbKind } from '../../server/db/index';
import { decodeMessage } from '../../src/contract/stored-message';
import { describeEachDb } from '../helpers/app';
import { PUBLISH_TIMING as timing, publishBench, publisher, settle, withLimits } from './publish.fixtures';

/**
 * The publish worker against the three simulators, every call through a profile's proxy, with a real MP4 that the
 * pre-flight probe reads. "Exactly once" is each simulator's post counter; faults are the simulators' switches.
 */
const bench = publishBench();

describeEachDb(
  'publish worker',
  (ctx) => {
    const me = publisher(ctx, bench, 'pub');

    it('publishes one video to YouTube, TikTok and Instagram, once each, links and status on the video', async () => {
      const before = me.counts();
      bench.proxy.reset();
      const { videoId, rows } = await me.post(['youtube', 'tiktok', 'instagram']);
      const done = await settle(ctx, Object.values(rows));
      expect(done.map((r) => [r.platform, r.state, r.error])).toEqual(
        expect.arrayContaining([
          ['youtube', 'published', null],
          ['tiktok', 'published', null],
          ['instagram', 'published', null],
        ]),
      );
      expect(me.counts()).toEqual({
        youtube: before.youtube + 1,
        tiktok: before.tiktok + 1,
        instagram: before.instagram + 1,
      });
      for (const r of done) expect(Number(r.bytesSent) === Number(r.bytesTotal)).toBe(true);
      const v = await ctx.tdb.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
      expect(v.status).toBe('success');
      expect(v.urlYouTube).toMatch(/^https:\/\/www\.youtube\.com\//);
      expect(v.urlInstagram).toMatch(/instagram\.com/);
      // Every platform call went through the profile's bench.proxy.
      for (const host of [me.sims.google.url, me.sims.tiktok.url, me.sims.instagram.url].map((u) => new URL(u).host)) {
        expect(bench.proxy.records.some((r) => r.allowed && r.target === host)).toBe(true);
      }
      // Events: each row's states were recorded for the owner (their stream shows them), and the bell says each
      // post went live (its subscriber writes the notification once the event is delivered).
      const events = await ctx.tdb.db
        .selectFrom('events')
        .select(['kind', 'payload'])
        .where('userId', '=', me.userId)
        .where('kind', 'in', ['post.changed', 'post.published', 'post.failed'])
        .execute();
      const states = events.map((e) => JSON.parse(e.payload)).filter((p) => p.videoId === videoId);
      const seen = (platform: string) => states.filter((p) => p.platform === platform).map((p) => p.state);
      expect(seen('youtube')).toEqual(expect.arrayContaining(['uploading', 'published']));
      expect(seen('tiktok')).toEqual(expect.arrayContaining(['uploading', 'published']));
      expect(seen('instagram')).toEqual(expect.arrayContaining(['processing', 'published']));
      await ctx.root.events.drain();
      const notes = await ctx.tdb.db
        .selectFrom('notifications')
        .select(['kind', 'params', 'link'])
        .where('userId', '=', me.userId)
        .where('kind', '=', 'publish_done')
        .execute();
      const mine = notes.filter((n) => JSON.parse(n.params).videoId === videoId);
      expect(mine.map((n) => JSON.parse(n.params).platform).sort()).toEqual(['instagram', 'tiktok', 'youtube']);
      expect(mine[0]!.link).toMatch(/^\/video\/youtube\//);
    });

    it('faults mid-upload and lost replies of the public step end in exactly one post per platform', async () => {
      const before = me.counts();
      me.sims.google.failNextChunk({ status: 503 });
      me.sims.google.loseNextFinalReply('reset');
      me.sims.tiktok.failChunk(0, { status: 500, times: 1 });
      me.sims.instagram.failAfterNextPublish('error500');
      const { rows } = await me.post(['youtube', 'tiktok', 'instagram']);
      const done = await settle(ctx, Object.values(rows));
      expect(done.every((r) => r.state === 'published')).toBe(true);
      expect(me.counts()).toEqual({
        youtube: before.youtube + 1,
        tiktok: before.tiktok + 1,
        instagram: before.instagram + 1,
      });
    });

    it('a publication deleted or edited before its time posts nothing', async () => {
      const before = me.counts();
      const later = new Date(Date.now() + 400);
      const a = await me.post(['tiktok', 'instagram'], { date: later });
      const b = await me.post(['youtube'], { date: later });
      // a: the video leaves its publication; b: YouTube is switched off on the publication.
      await ctx.tdb.db.updateTable('videos').set({ publicationId: null }).where('id', '=', a.videoId).execute();
      await ctx.tdb.db.deleteFrom('publicationPlatforms').where('publicationId', '=', b.publicationId).execute();
      const done = await settle(ctx, [...Object.values(a.rows), ...Object.values(b.rows)]);
      expect(done.map((r) => r.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(me.counts()).toEqual(before);
    });

    it('processing failures are refused with the platform reason', async () => {
      me.sims.tiktok.failNextPublish('duration_check_failed');
      me.sims.google.failNextProcessing('codec');
      const { rows, videoId } = await me.post(['youtube', 'tiktok']);
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
  bench.overrides,
  { publishTiming: timing },
);

describeEachDb(
  'publish worker: quota',
  (ctx) => {
    const me = publisher(ctx, bench, 'quota', 'q-');

    it('a used-up daily quota makes the post wait until the window frees, instead of failing', async () => {
      const before = me.sims.tiktok.posts().length;
      const { rows } = await me.post(['tiktok', 'youtube']);
      const done = await settle(ctx, Object.values(rows));
      for (const r of done) {
        expect(r.state).toBe('waiting');
        expect(new Date(r.waitUntil!).getTime()).toBeGreaterThan(Date.now());
        expect(r.errorKind).toBe('retry-later');
      }
      expect(me.sims.tiktok.posts().length).toBe(before);
    });
  },
  (kind: DbKind) => bench.overrides(`q-${kind}`),
  { publishTiming: timing, platforms: withLimits({ tiktok: { posts: 0 }, youtube: { posts: 0 } }) },
);
