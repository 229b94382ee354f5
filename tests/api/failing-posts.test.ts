import { startLocalProxy } from '../../sim/platforms/local-proxy';
import { publishJob, publishJobKey } from '../../server/publishing/publishing.jobs';
import { decodeMessage } from '../../src/contract/stored-message';
import { describeEachDb, type TestCtx } from '../helpers/app';
import { PUBLISH_TIMING, nextPublishStep, publishBench, publishRunner, publisher } from './publish.fixtures';

/**
 * A failing post shows as failing, and the operator acts on it (issue 18 item 2), against the three simulators on
 * both databases: a post whose profile's proxy is dead is "retrying" with its attempt, next try and reason (and
 * the profile is not "Active"); "retry now" moves the one queued step (never a second one), so after the proxy
 * is fixed the post goes out exactly once; an unknown outcome of the public step reconciles on "retry now";
 * "cancel" stops one post; a published post's stats refresh on demand within a cooldown. "Exactly once" is each
 * simulator's own post counter.
 */
const bench = publishBench();
let deadProxyUrl: string;
beforeAll(async () => {
  const dead = await startLocalProxy();
  deadProxyUrl = dead.url;
  await dead.close(); // its port now refuses connections: a dead proxy
});

/** Polls fast, backs off for a minute: a faulted post stays "retrying" until the test says otherwise. */
const timing = { ...PUBLISH_TIMING, backoffMs: 60_000 };

/**
 * Runs the publish steps until none is due within a few seconds: polls (tens of ms apart) go on, a backoff
 * (a minute) ends the run. Waits on the queue's own run_at, never a fixed sleep.
 */
async function runDue(ctx: TestCtx, maxMs = 30_000) {
  const runner = publishRunner(ctx);
  const deadline = Date.now() + maxMs;
  for (;;) {
    await runner.drain();
    const next = await nextPublishStep(ctx);
    const wait = next === undefined ? Infinity : next - Date.now();
    if (wait > 5_000) return;
    if (Date.now() > deadline) throw new Error('publish steps kept coming');
    await new Promise((r) => setTimeout(r, Math.max(0, wait) + 5));
  }
}

/** Every queued or running publish job of the post (found by payload, so a second one beside its chain shows). */
const jobsOf = async (ctx: TestCtx, publishId: number) =>
  (
    await ctx.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', publishJob.name)
      .where('status', 'in', ['queued', 'running'])
      .execute()
  ).filter((j) => (JSON.parse(j.payload) as { publishId: number }).publishId === publishId);

/** The job of the post's chain step as its row records it (video_publishes.step). */
const stepKeyOf = async (ctx: TestCtx, publishId: number) => {
  const row = await ctx.tdb.db
    .selectFrom('videoPublishes')
    .select('step')
    .where('id', '=', publishId)
    .executeTakeFirstOrThrow();
  return publishJobKey(publishId, row.step);
};

describeEachDb(
  'failing posts',
  (ctx) => {
    const me = publisher(ctx, bench, 'failing');
    let other: { authorization: string };
    // The profile form asks for the Instagram login once Instagram is on.
    const IG = { InstagramLogin: 'kadr.ig', InstagramPassword: 'ig-pass' };
    const setProxy = async (url: string) => {
      const r = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${me.accountId}`,
        token: me.token,
        payload: { proxy: url, ...IG },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const detail = async (publicationId: number) =>
      (await ctx.call({ method: 'GET', url: `/api/upload-video/${publicationId}`, token: me.token })).body;
    const act = (videoId: number, platform: string, action: string, as = me.token) =>
      ctx.call({ method: 'POST', url: `/api/upload-video/video/${videoId}/${platform}/${action}`, token: as });

    beforeAll(async () => {
      await ctx.createUser('stranger', 'stranger-pass');
      other = (await ctx.login('stranger', 'stranger-pass')).headers;
    });
    afterEach(async () => setProxy(bench.proxy.url));

    it('a post failing through a dead proxy is retrying (attempt, next try, reason), the profile is failing, and retry now after the fix publishes once', async () => {
      const before = me.counts();
      await setProxy(deadProxyUrl);
      const { videoId, publicationId, rows } = await me.post(['youtube']);
      await runDue(ctx);

      // Retrying, not scheduled: the attempt, the next try a backoff ahead, the proxy's reason as a stored key.
      let pub = await detail(publicationId);
      let post = pub.video[0].platforms[0];
      expect(post.state).toBe('scheduled');
      expect(post.retry).toMatchObject({ reason: 'fault', attempt: 1 });
      expect(Date.parse(post.retry.nextTryAt)).toBeGreaterThan(Date.now() + 30_000);
      expect(decodeMessage(post.error)?.key).toMatch(/^kadr\.platform_errors\.proxy_/);
      expect(pub.video[0].retrying).toBe(true);
      const list = await ctx.call({ method: 'GET', url: '/api/upload-video', token: me.token });
      expect(list.body.data.find((p: { id: number }) => p.id === publicationId).retrying).toBe(true);
      const videos = await ctx.call({ method: 'GET', url: `/api/accounts/${me.accountId}/video`, token: me.token });
      expect(videos.body.data.find((v: { id: number }) => v.id === videoId).retrying).toBe(true);

      // The profile is not "Active": it fails, with the proxy's reason.
      const accounts = await ctx.call({ method: 'GET', url: '/api/accounts', token: me.token });
      const profile = accounts.body.data.find((a: { id: number }) => a.id === me.accountId);
      expect(profile.status).toBe('error');
      expect(decodeMessage(profile.error)?.key).toMatch(/^kadr\.platform_errors\.proxy_/);

      // Someone else's post: not found, nothing moved.
      const job = (await jobsOf(ctx, rows.youtube!))[0]!;
      expect(job.key).toBe(await stepKeyOf(ctx, rows.youtube!));
      expect((await act(videoId, 'youtube', 'retry', other)).status).toBe(404);
      expect((await act(videoId, 'youtube', 'cancel', other)).status).toBe(404);
      expect((await jobsOf(ctx, rows.youtube!))[0]!.runAt).toBe(job.runAt);

      // Retry now while the proxy is still dead: the same queued step moves to now, no second one; attempt 2.
      const again = await act(videoId, 'youtube', 'retry');
      expect(again.status).toBe(200);
      const moved = await jobsOf(ctx, rows.youtube!);
      expect(moved.map((j) => [j.key, j.status])).toEqual([[job.key, 'queued']]);
      expect(Number(moved[0]!.runAt)).toBeLessThanOrEqual(Date.now());
      await runDue(ctx);
      pub = await detail(publicationId);
      expect(pub.video[0].platforms[0].retry).toMatchObject({ reason: 'fault', attempt: 2 });
      expect(me.counts()).toEqual(before);

      // A step a worker holds right now is left to it: "already trying", nothing added.
      await ctx.tdb.db
        .updateTable('jobs')
        .set({ status: 'running' })
        .where('status', '=', 'queued')
        .where('key', '=', await stepKeyOf(ctx, rows.youtube!))
        .execute();
      const busy = await act(videoId, 'youtube', 'retry');
      expect(busy.status).toBe(400);
      expect(busy.body.errors.platform).toBeTruthy();
      expect((await jobsOf(ctx, rows.youtube!)).length).toBe(1);
      await ctx.tdb.db
        .updateTable('jobs')
        .set({ status: 'queued' })
        .where('status', '=', 'running')
        .where('key', '=', await stepKeyOf(ctx, rows.youtube!))
        .execute();

      // The proxy fixed, retry now: published once, and the profile is active again.
      await setProxy(bench.proxy.url);
      expect((await act(videoId, 'youtube', 'retry')).status).toBe(200);
      await runDue(ctx);
      pub = await detail(publicationId);
      post = pub.video[0].platforms[0];
      expect(post).toMatchObject({ state: 'published', retry: null, error: null });
      expect(pub.video[0].retrying).toBe(false);
      expect(me.counts()).toEqual({ ...before, youtube: before.youtube + 1 });
      const after = await ctx.call({ method: 'GET', url: `/api/accounts/${me.accountId}`, token: me.token });
      expect(after.body.status).toBe('success');
      expect(after.body.error).toBeNull();

      // Done: nothing to retry (a clear 400 naming the field), and a second retry posts nothing.
      const done = await act(videoId, 'youtube', 'retry', me.token);
      expect(done.status).toBe(400);
      expect(done.body.errors.platform).toMatch(/\S/);
      await runDue(ctx);
      expect(me.counts()).toEqual({ ...before, youtube: before.youtube + 1 });
    });

    it('retry now on a public step whose outcome is unknown reconciles: the post is not made twice', async () => {
      const before = me.counts();
      me.sims.instagram.failAfterNextPublish('error500'); // media_publish works, its answer is a 500
      const { videoId, publicationId, rows } = await me.post(['instagram']);
      await runDue(ctx);
      const post = (await detail(publicationId)).video[0].platforms[0];
      expect(post.state).toBe('reconcile');
      expect(post.retry).toMatchObject({ reason: 'reconcile', attempt: 1 });
      expect(me.counts().instagram).toBe(before.instagram + 1); // live on the platform, not yet known to Kadr

      expect((await act(videoId, 'instagram', 'retry')).status).toBe(200);
      expect((await jobsOf(ctx, rows.instagram!)).length).toBe(1);
      await runDue(ctx);
      const done = (await detail(publicationId)).video[0].platforms[0];
      expect(done).toMatchObject({ state: 'published', retry: null });
      expect(me.counts().instagram).toBe(before.instagram + 1);
    });

    it('a post waiting for a quota is retrying with the wait as its next try; retry now lifts the wait', async () => {
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const { videoId, publicationId, rows } = await me.post(['tiktok'], { date: new Date(Date.now() + 3_600_000) });
      await ctx.tdb.db
        .updateTable('videoPublishes')
        .set({ state: 'waiting', waitUntil: later, error: 'kadr.platform_errors.rate_limited' })
        .where('id', '=', rows.tiktok!)
        .execute();
      const post = (await detail(publicationId)).video[0].platforms[0];
      expect(post.retry).toEqual({ reason: 'quota', attempt: 0, nextTryAt: later });
      expect((await act(videoId, 'tiktok', 'retry')).status).toBe(200);
      const row = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .selectAll()
        .where('id', '=', rows.tiktok!)
        .executeTakeFirstOrThrow();
      expect(row.waitUntil).toBeNull();
      expect(Number((await jobsOf(ctx, rows.tiktok!))[0]!.runAt)).toBeLessThanOrEqual(Date.now());
      // Cancel it before it runs: this test is about the wait, not the post.
      expect((await act(videoId, 'tiktok', 'cancel')).status).toBe(200);
    });

    it('cancel stops that one post with its jobs; a published post cannot be cancelled', async () => {
      const before = me.counts();
      await setProxy(deadProxyUrl);
      const { videoId, publicationId, rows } = await me.post(['youtube', 'tiktok']);
      await runDue(ctx);
      const r = await act(videoId, 'youtube', 'cancel');
      expect(r.status).toBe(200);
      expect(r.body.video[0].platforms.map((p: { platform: string }) => p.platform)).toEqual(['tiktok']);
      expect(await jobsOf(ctx, rows.youtube!)).toEqual([]);
      expect((await jobsOf(ctx, rows.tiktok!)).length).toBe(1);
      expect((await act(videoId, 'youtube', 'cancel')).status).toBe(404);
      expect((await act(videoId, 'youtube', 'retry')).status).toBe(404);

      await setProxy(bench.proxy.url);
      expect((await act(videoId, 'tiktok', 'retry')).status).toBe(200);
      await runDue(ctx);
      const pub = await detail(publicationId);
      expect(pub.video[0].platforms.map((p: { state: string }) => p.state)).toEqual(['published']);
      expect(me.counts()).toEqual({ ...before, tiktok: before.tiktok + 1 });
      const live = await act(videoId, 'tiktok', 'cancel');
      expect(live.status).toBe(400);
      expect(live.body.errors.platform).toMatch(/\S/);
      expect((await act(videoId, 'nowhere', 'cancel')).status).toBe(400);
    });

    it("a published post's stats refresh on demand, once per cooldown, with when they were read", async () => {
      const { videoId, publicationId, rows } = await me.post(['tiktok']);
      await runDue(ctx);
      const row = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .selectAll()
        .where('id', '=', rows.tiktok!)
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('published');
      Object.assign(
        me.sims.tiktok.posts().find((p) => p.id === row.remoteId)!,
        { views: 77, likes: 7, comments: 1 },
      );
      expect((await detail(publicationId)).video[0].platforms[0].statsAt).toBeNull();

      // A failing read gives its turn back: the dead proxy first, then the fixed one reads at once.
      await setProxy(deadProxyUrl);
      expect((await act(videoId, 'tiktok', 'stats')).status).toBe(502);
      await setProxy(bench.proxy.url);
      const r = await act(videoId, 'tiktok', 'stats');
      expect(r.status).toBe(200);
      const post = r.body.video[0].platforms[0];
      expect(post).toMatchObject({ views: 77, likes: 7, comments: 1 });
      expect(Date.parse(post.statsAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(post.statsRefreshAt)).toBeGreaterThan(Date.now());

      const soon = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/video/${videoId}/tiktok/stats`,
        token: me.token,
        headers: { 'accept-language': 'en' },
      });
      expect(soon.status).toBe(429);
      expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
      expect(soon.body.message).toMatch(/once in 5 minutes/);
      expect((await act(videoId, 'tiktok', 'stats', other)).status).toBe(404);
      // A post that is not published has no stats to read.
      const pending = await me.post(['youtube'], { date: new Date(Date.now() + 3_600_000) });
      expect((await act(pending.videoId, 'youtube', 'stats')).status).toBe(400);
      expect((await act(pending.videoId, 'youtube', 'retry')).status).toBe(400);
      expect((await act(pending.videoId, 'youtube', 'cancel')).status).toBe(200);
    });
  },
  bench.overrides,
  { publishTiming: timing },
);
