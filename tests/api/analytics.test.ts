import type { DbKind } from '../../server/db/index';
import { StatsHistoryRepository } from '../../server/analytics/stats-history.repository';
import { dayBefore, dayStartMs, statDay } from '../../server/analytics/stat-day';
import { StatsRollUp } from '../../server/analytics/stats-rollup';
import { AnalyticsService } from '../../server/analytics/analytics.service';
import { AnalyticsRepository } from '../../server/analytics/analytics.repository';
import { describeEachDb } from '../helpers/app';
import { PUBLISH_TIMING, connectedProfile, publishBench, publisher, settle } from './publish.fixtures';

/**
 * Issue 22 on both databases, against the three simulators: each stats read leaves a snapshot and adds what grew
 * to the post's and the profile's day; young posts are not read twice in an hour; YouTube is read 50 ids per unit
 * and never past the upload budget; the roll-up keeps each day's sums and maxima across midnight (a profile's own
 * midnight in its time zone, a 25-hour day whole); the analytics API answers the owner's numbers only, a profile's
 * chart in its own days.
 */
const bench = publishBench();
const HOUR = 3600_000;

describeEachDb(
  'analytics',
  (ctx) => {
    const me = publisher(ctx, bench, 'analyst');
    let videoId = 0;
    let ids: Record<string, number> = {};
    const db = () => ctx.tdb.db;
    const ageReads = (ms: number) =>
      db()
        .updateTable('videoPublishes')
        .set((eb) => ({ statsAt: eb('statsAt', '-', ms) }))
        .where('statsAt', 'is not', null)
        .execute();
    const postDays = (publishId: number) =>
      db().selectFrom('postStatDays').selectAll().where('publishId', '=', publishId).orderBy('day').execute();
    const sum = (rows: Record<string, unknown>[], k: string) => rows.reduce((a, r) => a + Number(r[k]), 0);
    /** Another post like `publishId` (on a copy of its video: one post per video and platform). */
    const clonePost = async (publishId: number, remoteId: string, n: number) => {
      const row = await db()
        .selectFrom('videoPublishes')
        .selectAll()
        .where('id', '=', publishId)
        .executeTakeFirstOrThrow();
      const v = await db().selectFrom('videos').selectAll().where('id', '=', row.videoId).executeTakeFirstOrThrow();
      const { id: _v, ...video } = v;
      const copy = await db()
        .insertInto('videos')
        .values({ ...video, outputIndex: 100 + n })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: _p, ...post } = row;
      const made = await db()
        .insertInto('videoPublishes')
        .values({ ...post, videoId: copy.id, remoteId, statsAt: null, statsAskedMs: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return made.id;
    };
    const ytCalls = () =>
      me.sims.google.log.filter((l) => l.method === 'GET' && l.path === '/youtube/v3/videos').length;

    it('each read stores a snapshot and adds what grew to the post’s and the profile’s day', async () => {
      const posted = await me.post(['youtube', 'tiktok', 'instagram']);
      videoId = posted.videoId;
      const done = await settle(ctx, Object.values(posted.rows));
      ids = Object.fromEntries(done.map((r) => [r.platform, r.id]));
      const remote = (p: string) => done.find((r) => r.platform === p)!.remoteId!;
      const yt = me.sims.google.videos.find((v) => v.id === remote('youtube'))!;
      yt.statistics = { viewCount: 100, likeCount: 10, commentCount: 1 };
      Object.assign(
        me.sims.tiktok.posts().find((p) => p.id === remote('tiktok'))!,
        { views: 200, likes: 20 },
      );
      Object.assign(
        me.sims.instagram.posts().find((m) => m.id === remote('instagram'))!,
        {
          views: 50,
          like_count: 5,
          comments_count: 2,
        },
      );
      expect((await ctx.root.publishing.stats.run()).read).toBe(3);
      const snaps = await db()
        .selectFrom('postStats')
        .selectAll()
        .where('publishId', 'in', Object.values(ids))
        .execute();
      expect(snaps).toHaveLength(3);
      expect(Number((await postDays(ids.youtube!))[0]!.views)).toBe(100);

      // Read a moment ago and young: the next pass leaves them alone.
      expect((await ctx.root.publishing.stats.run()).read).toBe(0);

      // An hour on, they grew: the day gets the growth, not the lifetime count again.
      yt.statistics = { viewCount: 160, likeCount: 12, commentCount: 1 };
      await ageReads(HOUR);
      expect((await ctx.root.publishing.stats.run()).read).toBe(3);
      const days = await postDays(ids.youtube!);
      expect(sum(days, 'views')).toBe(160);
      expect(sum(days, 'likes')).toBe(12);
      expect(Number(days.at(-1)!.viewsTotal)).toBe(160);
      const profile = await db()
        .selectFrom('profileStatDays')
        .selectAll()
        .where('accountId', '=', me.accountId)
        .execute();
      const on = (p: string) => profile.filter((r) => r.platform === p);
      expect(sum(on('youtube'), 'views')).toBe(160);
      expect(sum(on('tiktok'), 'views')).toBe(200);
      expect(sum(on('instagram'), 'views')).toBe(50);
    });

    it('reads YouTube 50 ids for one unit, and never spends the units the day’s uploads need', async () => {
      const row = await db()
        .selectFrom('videoPublishes')
        .selectAll()
        .where('id', '=', ids.youtube!)
        .executeTakeFirstOrThrow();
      const source = me.sims.google.videos.find((v) => v.id === row.remoteId)!;
      for (let i = 0; i < 60; i++) {
        me.sims.google.videos.push({ ...source, id: `${source.id}c${i}` });
        await clonePost(ids.youtube!, `${source.id}c${i}`, i);
      }
      const spentBefore = await ctx.root.publishing.quota.unitsLeft('youtube', me.accountId, new Date());
      const calls = ytCalls();
      await ageReads(HOUR);
      await ctx.root.publishing.stats.run();
      // 61 YouTube posts: two videos.list calls (50 + 11 ids), two units; one call per post would be 61.
      expect(ytCalls() - calls).toBe(2);
      const left = await ctx.root.publishing.quota.unitsLeft('youtube', me.accountId, new Date());
      expect(spentBefore - left).toBe(2);

      // Spend everything reads may spend: the next pass does not read YouTube, the uploads' units stay.
      const forReads = await ctx.root.publishing.quota.unitsForReads('youtube', me.accountId, new Date());
      await ctx.root.publishing.quota.spend('youtube', me.accountId, forReads, new Date());
      await ageReads(HOUR);
      const before = ytCalls();
      await ctx.root.publishing.stats.run();
      expect(ytCalls()).toBe(before);
      expect(await ctx.root.publishing.quota.unitsLeft('youtube', me.accountId, new Date())).toBeGreaterThanOrEqual(99);
    });

    it('the roll-up turns hourly snapshots older than 14 days into daily ones, keeping sums and maxima across midnight', async () => {
      const history = new StatsHistoryRepository(db());
      const publishId = await clonePost(ids.tiktok!, 'rollup-post', 99);
      const post = { publishId, accountId: me.accountId, platform: 'tiktok' };
      const midnight = Date.parse(`${statDay(Date.now() - 20 * 24 * HOUR)}T00:00:00Z`);
      const at = (h: number, views: number, likes: number) =>
        history.record(post, midnight + h * HOUR, { views, likes, comments: 0, shares: 0, saves: 0 });
      await at(-2, 10, 5); // 22:00 the day before
      await at(-1, 30, 4); // 23:00: likes went down (an unlike)
      await at(0, 45, 6); // midnight
      await at(1, 70, 6); // 01:00
      await history.record(post, Date.now() - HOUR, { views: 100, likes: 7, comments: 0, shares: 0, saves: 0 });
      const before = await postDays(publishId);
      expect(before.map((d) => [Number(d.views), Number(d.viewsTotal)])).toEqual([
        [30, 30],
        [40, 70],
        [30, 100],
      ]);

      const r = await ctx.root.rollUp.run();
      expect(r.posts).toBeGreaterThanOrEqual(1);
      const snaps = await db()
        .selectFrom('postStats')
        .selectAll()
        .where('publishId', '=', publishId)
        .orderBy('atMs')
        .execute();
      expect(snaps.map((s) => [s.grain, Number(s.views), Number(s.likes)])).toEqual([
        ['day', 30, 5], // the day's maxima: views at its end, likes before the unlike
        ['day', 70, 6],
        ['hour', 100, 7],
      ]);
      expect(snaps.map((s) => Number(s.atMs))).toEqual([midnight - HOUR, midnight + HOUR, expect.any(Number)]);
      // The days' increments are not touched: they still add up to the latest counters.
      expect(await postDays(publishId)).toEqual(before);
      expect(sum(before, 'views')).toBe(100);
      // A second pass has nothing left to do.
      expect((await ctx.root.rollUp.run()).removed).toBe(0);
    });

    it('the API answers the owner’s numbers: dashboard, curves, variants; others get nothing or a 404', async () => {
      const token = me.token;
      const dash = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=7', token });
      expect(dash.status, JSON.stringify(dash.body)).toBe(200);
      const recent = await db()
        .selectFrom('profileStatDays')
        .selectAll()
        .where('accountId', '=', me.accountId)
        .where('day', '>=', dash.body.from)
        .execute();
      expect(dash.body.totals.views).toBe(sum(recent, 'views'));
      expect(dash.body.series).toHaveLength(7 * 3);
      expect(dash.body.byPlatform.map((p: { platform: string }) => p.platform)).toEqual([
        'youtube',
        'tiktok',
        'instagram',
      ]);
      expect(dash.body.topVideos[0].videoId).toBe(videoId);
      expect(dash.body.topProfiles[0].accountId).toBe(me.accountId);

      await ctx.createUser('bystander', 'bystander-pass');
      const other = (await ctx.login('bystander', 'bystander-pass')).headers;
      const theirs = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=30', token: other });
      expect(theirs.body.totals.views).toBe(0);
      expect(theirs.body.topVideos).toEqual([]);
      await ctx.createUser('boss', 'boss-pass', 'admin');
      const admin = (await ctx.login('boss', 'boss-pass')).headers;
      const all = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=7', token: admin });
      expect(all.body.totals.views).toBe(dash.body.totals.views);

      const bad = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=5', token });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toEqual(['days']);

      const video = await db().selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
      const curve = await ctx.call({ method: 'GET', url: `/api/analytics/publications/${video.publicationId}`, token });
      expect(curve.status).toBe(200);
      const last = (p: string) => curve.body.series.filter((x: { platform: string }) => x.platform === p).at(-1);
      expect(last('instagram').viewsTotal).toBe(50);
      expect(
        (await ctx.call({ method: 'GET', url: `/api/analytics/publications/${video.publicationId}`, token: other }))
          .status,
      ).toBe(404);
      const prof = await ctx.call({ method: 'GET', url: `/api/analytics/profiles/${me.accountId}?days=90`, token });
      expect(prof.status).toBe(200);
      expect(prof.body.series).toHaveLength(90 * 3);

      const variants = await ctx.call({
        method: 'GET',
        url: `/api/analytics/requests/${video.requestId}/variants`,
        token,
      });
      expect(variants.status).toBe(200);
      const [v] = variants.body.variants;
      expect(v).toMatchObject({ videoId, index: 0, background: 'blur', variation: null, views24h: null });
      expect(v.posts.map((p: { platform: string }) => p.platform).sort()).toEqual(['instagram', 'tiktok', 'youtube']);
      expect(
        (await ctx.call({ method: 'GET', url: `/api/analytics/requests/${video.requestId}/variants`, token: other }))
          .status,
      ).toBe(404);

      const doc = await ctx.call({ method: 'GET', url: '/api/openapi.json' });
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining(['/api/analytics/dashboard', '/api/analytics/requests/{id}/variants']),
      );
    });

    /** A profile of mine in `zone` (chosen as the panel does) with a post of its own, cloned from `ids.tiktok`. */
    const zonedPost = async (zone: string, remoteId: string, n: number) => {
      const made = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token: me.token,
        payload: { proxy: bench.proxy.url, comments: `In ${zone}`, timeZone: zone },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const accountId = made.body.id as number;
      const publishId = await clonePost(ids.tiktok!, remoteId, n);
      await db().updateTable('videoPublishes').set({ accountId }).where('id', '=', publishId).execute();
      return { publishId, accountId, platform: 'tiktok' };
    };
    const KYIV = 'Europe/Kyiv';
    const profileDays = (accountId: number) =>
      db().selectFrom('profileStatDays').selectAll().where('accountId', '=', accountId).orderBy('day').execute();
    const snapshots = (publishId: number) =>
      db().selectFrom('postStats').selectAll().where('publishId', '=', publishId).orderBy('atMs').execute();

    it('a profile in Kyiv: reads around its local midnight count on its local days, the roll-up keeps them, its chart shows them', async () => {
      const history = new StatsHistoryRepository(db());
      const post = await zonedPost(KYIV, 'kyiv-post', 98);
      const day = statDay(Date.now() - 20 * 24 * HOUR, KYIV);
      const midnight = dayStartMs(day, KYIV); // 22:00 or 21:00 UTC the day before: all four reads share a UTC day
      const at = (h: number, views: number, likes: number) =>
        history.record(post, midnight + h * HOUR, { views, likes, comments: 0, shares: 0, saves: 0 });
      await at(-2, 10, 5); // 22:00 in Kyiv the day before
      await at(-1, 30, 4); // 23:00: an unlike
      await at(0, 45, 6); // Kyiv's midnight
      await at(1, 70, 6); // 01:00
      await history.record(post, Date.now() - HOUR, { views: 100, likes: 7, comments: 0, shares: 0, saves: 0 });
      const today = statDay(Date.now() - HOUR, KYIV);
      const increments = [
        [dayBefore(day, 1), 30, 30],
        [day, 40, 70],
        [today, 30, 100],
      ];
      expect((await postDays(post.publishId)).map((d) => [d.day, Number(d.views), Number(d.viewsTotal)])).toEqual(
        increments,
      );
      expect((await profileDays(post.accountId)).map((d) => [d.day, Number(d.views)])).toEqual(
        increments.map(([d, v]) => [d, v]),
      );

      await ctx.root.rollUp.run();
      const snaps = await snapshots(post.publishId);
      expect(snaps.map((s) => [s.grain, Number(s.atMs) - midnight, Number(s.views), Number(s.likes)])).toEqual([
        ['day', -HOUR, 30, 5], // Kyiv's day before: its last read, its maxima (likes before the unlike)
        ['day', HOUR, 70, 6], // Kyiv's day: midnight and 01:00 together
        ['hour', expect.any(Number), 100, 7],
      ]);
      expect((await postDays(post.publishId)).map((d) => [d.day, Number(d.views), Number(d.viewsTotal)])).toEqual(
        increments,
      );

      // The profile's chart: its own days, named by its zone, ending on Kyiv's today.
      const curve = await ctx.call({
        method: 'GET',
        url: `/api/analytics/profiles/${post.accountId}?days=30`,
        token: me.token,
      });
      expect(curve.status).toBe(200);
      expect(curve.body).toMatchObject({ zone: KYIV, to: statDay(Date.now(), KYIV) });
      const tiktok = curve.body.series.filter((p: { platform: string }) => p.platform === 'tiktok');
      const on = (d: string) => tiktok.find((p: { day: string }) => p.day === d);
      expect([on(dayBefore(day, 1)).views, on(day).views, on(today).views]).toEqual([30, 40, 30]);
      expect(tiktok.reduce((a: number, p: { views: number }) => a + p.views, 0)).toBe(100);
      expect(tiktok.at(-1).viewsTotal).toBe(100);

      // The overview adds each profile's local days as stored: Kyiv's day and my UTC profile's same-named day.
      const dash = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=30', token: me.token });
      expect(dash.status).toBe(200);
      expect(dash.body.to).toBe(statDay(Date.now(), KYIV)); // the latest today among my profiles' zones
      const mine = await db().selectFrom('accounts').select('id').where('userId', '=', me.userId).execute();
      for (const d of [dayBefore(day, 1), day]) {
        const stored = await db()
          .selectFrom('profileStatDays')
          .selectAll()
          .where('day', '=', d)
          .where('platform', '=', 'tiktok')
          .where(
            'accountId',
            'in',
            mine.map((a) => a.id),
          )
          .execute();
        const point = dash.body.series.find(
          (p: { day: string; platform: string }) => p.day === d && p.platform === 'tiktok',
        );
        expect(point.views).toBe(sum(stored, 'views'));
        expect(point.views).toBeGreaterThanOrEqual(on(d).views);
      }

      // The publication (its posts went to my UTC profile and to Kyiv's): each post's days as stored, to Kyiv's today.
      const { publicationId } = await db()
        .selectFrom('videoPublishes as vp')
        .innerJoin('videos as v', 'v.id', 'vp.videoId')
        .select('v.publicationId')
        .where('vp.id', '=', post.publishId)
        .executeTakeFirstOrThrow();
      const pub = await ctx.call({
        method: 'GET',
        url: `/api/analytics/publications/${publicationId}`,
        token: me.token,
      });
      expect(pub.status).toBe(200);
      expect(pub.body.to).toBe(statDay(Date.now(), KYIV));
      const stored = await db()
        .selectFrom('postStatDays as p')
        .innerJoin('videoPublishes as vp', 'vp.id', 'p.publishId')
        .innerJoin('videos as v', 'v.id', 'vp.videoId')
        .select(['p.views'])
        .where('v.publicationId', '=', publicationId!)
        .where('vp.platform', '=', 'tiktok')
        .where('p.day', '=', day)
        .execute();
      const pubDay = pub.body.series.find(
        (p: { day: string; platform: string }) => p.day === day && p.platform === 'tiktok',
      );
      expect(pubDay.views).toBe(sum(stored, 'views'));
      expect(pubDay.views).toBeGreaterThanOrEqual(40);
    });

    it('a day of 25 hours in Kyiv (the clocks go back) is rolled whole: one row, its sums and maxima', async () => {
      const history = new StatsHistoryRepository(db());
      const post = await zonedPost(KYIV, 'kyiv-dst-post', 97);
      // 25 October 2026 in Kyiv: 04:00 EEST becomes 03:00 EET; the day runs 21:00 UTC on the 24th to 22:00 UTC.
      const start = Date.parse('2026-10-24T20:00:00Z'); // 23:00 on the 24th in Kyiv
      const reads = Array.from({ length: 28 }, (_, h) => ({
        atMs: start + h * HOUR,
        views: 10 * (h + 1),
        likes: h === 12 ? 50 : h, // a peak at 12, then unlikes
      }));
      for (const r of reads)
        await history.record(post, r.atMs, { views: r.views, likes: r.likes, comments: 0, shares: 0, saves: 0 });
      const days = await postDays(post.publishId);
      expect(days.map((d) => [d.day, Number(d.views), Number(d.viewsTotal)])).toEqual([
        ['2026-10-24', 10, 10],
        ['2026-10-25', 250, 260], // 25 hourly reads
        ['2026-10-26', 20, 280],
      ]);

      const now = () => new Date('2026-11-20T12:00:00Z'); // Kyiv's cut: the start of 6 November
      await new StatsRollUp(history, { postsPerBatch: 10, batchesPerRun: 100 }, now).run();
      const snaps = await snapshots(post.publishId);
      expect(
        snaps.map((s) => [s.grain, new Date(Number(s.atMs)).toISOString(), Number(s.views), Number(s.likes)]),
      ).toEqual([
        ['day', '2026-10-24T20:00:00.000Z', 10, 0],
        ['day', '2026-10-25T21:00:00.000Z', 260, 50], // the last of the day's 25 reads, the day's maxima
        ['day', '2026-10-25T23:00:00.000Z', 280, 27],
      ]);
      expect(await postDays(post.publishId)).toEqual(days);

      // The profile's chart on that day (read as of then): Kyiv's days, the long day whole.
      const analytics = new AnalyticsService(new AnalyticsRepository(db()), now);
      const curve = await analytics.profile(
        { id: me.userId, login: 'analyst', role: 'user' } as never,
        post.accountId,
        '30',
      );
      expect(curve.zone).toBe(KYIV);
      const on = (d: string) => curve.series.find((p) => p.day === d && p.platform === 'tiktok')!;
      expect([on('2026-10-24').views, on('2026-10-25').views, on('2026-10-26').views]).toEqual([10, 250, 20]);
      expect(curve.series.filter((p) => p.platform === 'tiktok').at(-1)!.viewsTotal).toBe(280);
    });

    it('a profile with no reads yet still has its axis: every day, zeros', async () => {
      const fresh = await connectedProfile(ctx, me.token, bench.proxy.url);
      const r = await ctx.call({ method: 'GET', url: `/api/analytics/profiles/${fresh}?days=7`, token: me.token });
      expect(r.body.series.every((p: { views: number }) => p.views === 0)).toBe(true);
    });
  },
  (kind: DbKind) => bench.overrides(kind),
  { publishTiming: PUBLISH_TIMING },
);
