import { describeEachDb } from '../helpers/app';
import { publicationFixtures } from './publications.fixtures';

type Token = { authorization: string };

describeEachDb('publications API: edits, publishing again, deletes', (ctx) => {
  const fx = publicationFixtures(ctx);
  let anna: Token;
  let annaId: number;
  let main: number; // YouTube + TikTok
  let full: number; // all three

  beforeAll(async () => {
    ({ anna, annaId, main, full } = await fx.annaWithProfiles());
  });

  /** A publication of `count` fresh videos on `accounts` (by position), YouTube + TikTok, due in 2030. */
  const published = async (count: number, accounts: number[], over: Record<string, unknown> = {}) => {
    const req = await fx.request(annaId, count);
    const r = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: {
        title: 'Shared',
        description: 'Shared text',
        tags: ['a'],
        accounts,
        inYouTube: true,
        inTikTok: true,
        inInstagram: false,
        date: '2030-01-01T00:00:00Z',
        video: req.videos.map((id, i) => ({
          id,
          title: `Own ${i}`,
          description: `Own text ${i}`,
          tags: ['a', `t${i}`],
          account: accounts[i % accounts.length],
          date: '2030-01-01T10:00:00Z',
        })),
        ...over,
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { req, pub: r.body as { id: number; version: number } };
  };
  const setState = (videoId: number, platform: string, patch: Record<string, unknown>) =>
    ctx.tdb.db
      .updateTable('videoPublishes')
      .set(patch)
      .where('videoId', '=', videoId)
      .where('platform', '=', platform as never)
      .execute();
  const rowOf = async (videoId: number, platform: string) =>
    (await fx.publishes([videoId])).find((r) => r.platform === platform)!;
  const liveJobs = async (publishId: number) =>
    (await fx.jobs(publishId)).filter((j) => j.status === 'queued' || j.status === 'running');

  it('an edit changes the videos not yet started: changed fields, toggles add and cancel rows, versions go up', async () => {
    const { req, pub } = await published(2, [full, full]);
    const [waiting, started] = req.videos as [number, number];
    await setState(started, 'youtube', { state: 'uploading', bytesSent: 1000, bytesTotal: 4000 });
    const startedBefore = await fx.video(started);
    const tiktokRow = await rowOf(waiting, 'tiktok');
    const before = await fx.video(waiting);

    // Only the tags changed (title and description as they were): each video keeps its own title.
    const r = await ctx.call({
      method: 'PATCH',
      url: `/api/upload-video/${pub.id}`,
      token: anna,
      payload: {
        title: 'Shared',
        description: 'Shared text',
        tags: ['b', 'C'],
        inYouTube: true,
        inTikTok: false,
        inInstagram: true,
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ version: pub.version + 1, tags: ['b', 'c'], inTikTok: false, inInstagram: true });
    const after = await fx.video(waiting);
    expect(after).toMatchObject({
      title: 'Own 0',
      description: 'Own text 0',
      tags: '["b","c"]',
      version: before.version + 1,
    });
    // TikTok: cancelled with its job; Instagram: a new row and job at the video's date; YouTube follows the version.
    expect(await rowOf(waiting, 'tiktok')).toMatchObject({ state: 'cancelled' });
    expect(await liveJobs(tiktokRow.id)).toEqual([]);
    const ig = await rowOf(waiting, 'instagram');
    expect(ig).toMatchObject({ state: 'scheduled', dueAt: after.date, videoVersion: after.version, accountId: full });
    expect((await liveJobs(ig.id)).map((j) => j.runAt)).toEqual([after.date]);
    expect(await rowOf(waiting, 'youtube')).toMatchObject({ state: 'scheduled', videoVersion: after.version });
    // The video that has started uploading is left alone.
    expect(await fx.video(started)).toEqual(startedBefore);
    expect((await fx.publishes([started])).map((p) => [p.platform, p.state]).sort()).toEqual([
      ['tiktok', 'scheduled'],
      ['youtube', 'uploading'],
    ]);
    expect(r.body.video.find((v: { id: number }) => v.id === started).platforms).toContainEqual(
      expect.objectContaining({ platform: 'youtube', state: 'uploading', bytesSent: 1000, bytesTotal: 4000 }),
    );

    // A changed title reaches the pending video; TikTok back on revives its row with a job again (the cancelled
    // one was removed from the queue, so its key is free).
    const again = await ctx.call({
      method: 'PATCH',
      url: `/api/upload-video/${pub.id}`,
      token: anna,
      payload: {
        title: 'New shared',
        description: 'Shared text',
        tags: ['b'],
        inYouTube: true,
        inTikTok: true,
        inInstagram: true,
      },
    });
    expect(again.status).toBe(200);
    expect(await fx.video(waiting)).toMatchObject({ title: 'New shared', description: 'Own text 0' });
    const revived = await rowOf(waiting, 'tiktok');
    expect(revived).toMatchObject({ id: tiktokRow.id, state: 'scheduled' });
    expect((await liveJobs(revived.id)).map((j) => [j.key, j.runAt])).toEqual([
      [`publication.publish:${revived.id}:0`, after.date],
    ]);

    // A platform the pending videos' profile lacks is skipped and said, as the publish form does.
    const { pub: onMain } = await published(1, [main]);
    const refused = await ctx.call({
      method: 'PATCH',
      url: `/api/upload-video/${onMain.id}`,
      token: anna,
      payload: { title: 'x', tags: ['a'], inYouTube: true, inTikTok: true, inInstagram: true },
    });
    expect(refused.status).toBe(200);
    expect(refused.body.skipped).toContainEqual(expect.objectContaining({ account: main, platform: 'instagram' }));
    const invalid = await ctx.call({
      method: 'PATCH',
      url: `/api/upload-video/${onMain.id}`,
      token: anna,
      payload: { title: '', tags: [] },
    });
    expect(invalid.body.errors).toMatchObject({ title: "Назва обов'язкова", tags: 'Мінімум один тег' });
  });

  it('publishes a failed video again from the start, and a lost job on its way again from its step', async () => {
    const { req, pub } = await published(2, [main, main]);
    const [failedVideo, loadingVideo] = req.videos as [number, number];
    const yt = await rowOf(failedVideo, 'youtube');
    await setState(failedVideo, 'youtube', {
      state: 'failed',
      error: 'kadr.platform_errors.x',
      errorKind: 'refused',
      remoteId: 'r1',
      bytesSent: 5,
      handleSealed: 'h',
    });
    await ctx.tdb.db
      .updateTable('videos')
      .set({ status: 'error', error: 'kadr.platform_errors.x' })
      .where('id', '=', failedVideo)
      .execute();
    await ctx.tdb.db
      .updateTable('jobs')
      .set({ status: 'done' })
      .where('key', '=', `publication.publish:${yt.id}:0`)
      .execute();

    // Status 'publication' cannot be published again.
    let r = await ctx.call({
      method: 'POST',
      url: '/api/upload-video/upload',
      token: anna,
      payload: { videoId: loadingVideo, youTubeId: pub.id },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.videoId).toBe('Опублікувати знову можна лише відео зі статусом «Помилка» або «В обробці»');

    r = await ctx.call({
      method: 'POST',
      url: '/api/upload-video/upload',
      token: anna,
      payload: { videoId: failedVideo, youTubeId: pub.id },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = await rowOf(failedVideo, 'youtube');
    expect(row).toMatchObject({
      state: 'scheduled',
      error: null,
      errorKind: null,
      remoteId: null,
      handleSealed: null,
      bytesSent: 0,
    });
    expect(Date.parse(row.dueAt)).toBeLessThanOrEqual(Date.now());
    expect((await liveJobs(row.id)).map((j) => j.key)).toEqual([`publication.publish:${row.id}:1`]);
    expect(await fx.video(failedVideo)).toMatchObject({ status: 'publication', error: null });
    // Its TikTok row, still waiting for its date with its job, is left as it was.
    const tt = await rowOf(failedVideo, 'tiktok');
    expect((await liveJobs(tt.id)).map((j) => j.key)).toEqual([`publication.publish:${tt.id}:0`]);

    // Uploading with a live job: nothing new. Its job lost: one new job, the row left at its step.
    const up = await rowOf(loadingVideo, 'youtube');
    await setState(loadingVideo, 'youtube', { state: 'uploading', bytesSent: 7 });
    await ctx.tdb.db.updateTable('videos').set({ status: 'loading' }).where('id', '=', loadingVideo).execute();
    const call = () =>
      ctx.call({
        method: 'POST',
        url: '/api/upload-video/upload',
        token: anna,
        payload: { videoId: loadingVideo, youTubeId: pub.id },
      });
    expect((await call()).status).toBe(200);
    expect((await fx.jobs(up.id)).map((j) => j.key)).toEqual([`publication.publish:${up.id}:0`]);
    await ctx.tdb.db
      .updateTable('jobs')
      .set({ status: 'dead' })
      .where('key', '=', `publication.publish:${up.id}:0`)
      .execute();
    expect((await call()).status).toBe(200);
    expect((await liveJobs(up.id)).map((j) => j.key)).toEqual([`publication.publish:${up.id}:1`]);
    expect(await rowOf(loadingVideo, 'youtube')).toMatchObject({ state: 'uploading', bytesSent: 7 });

    const foreign = await ctx.call({
      method: 'POST',
      url: '/api/upload-video/upload',
      token: anna,
      payload: { videoId: 999999, youTubeId: pub.id },
    });
    expect(foreign.status).toBe(404);
  });

  it('takes one video out before it goes live, and refuses once it has', async () => {
    const { req, pub } = await published(2, [main, main]);
    const [out, live] = req.videos as [number, number];
    const rows = await fx.publishes([out]);
    const r = await ctx.call({ method: 'DELETE', url: `/api/upload-video/video/${out}`, token: anna });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.video.map((v: { id: number }) => v.id)).toEqual([live]);
    expect(r.body.version).toBe(pub.version + 1);
    expect(await fx.video(out)).toMatchObject({ publicationId: null, status: 'noactive' });
    for (const row of rows) {
      expect((await rowOf(out, row.platform)).state).toBe('cancelled');
      expect(await liveJobs(row.id)).toEqual([]);
    }
    await setState(live, 'youtube', { state: 'published', remoteUrl: 'https://youtu.be/x' });
    const refused = await ctx.call({ method: 'DELETE', url: `/api/upload-video/video/${live}`, token: anna });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.videoId).toBe('Відео вже публікується або опубліковано: його не можна прибрати');
    expect((await ctx.call({ method: 'DELETE', url: `/api/upload-video/video/${out}`, token: anna })).status).toBe(404);
  });

  it('deleting a publication cancels all that has not gone live; the request can be published again', async () => {
    const { req, pub } = await published(2, [main, main]);
    const [pending, live] = req.videos as [number, number];
    await setState(live, 'youtube', { state: 'published', remoteUrl: 'https://youtu.be/y' });
    await setState(live, 'tiktok', { state: 'processing' });
    await ctx.tdb.db
      .updateTable('videos')
      .set({ status: 'loading', urlYouTube: 'https://youtu.be/y' })
      .where('id', '=', live)
      .execute();
    const r = await ctx.call({ method: 'DELETE', url: `/api/upload-video/${req.idUpload}`, token: anna });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(pub.id);
    expect((await ctx.call({ method: 'GET', url: `/api/upload-video/${pub.id}`, token: anna })).status).toBe(404);
    const states = (await fx.publishes(req.videos)).map((p) => [p.videoId, p.platform, p.state]);
    expect(states.sort()).toEqual(
      [
        [pending, 'tiktok', 'cancelled'],
        [pending, 'youtube', 'cancelled'],
        [live, 'tiktok', 'cancelled'],
        [live, 'youtube', 'published'],
      ].sort(),
    );
    for (const p of await fx.publishes(req.videos))
      if (p.state === 'cancelled') expect(await liveJobs(p.id)).toEqual([]);
    expect(await fx.video(pending)).toMatchObject({ publicationId: null, status: 'noactive' });
    expect(await fx.video(live)).toMatchObject({ publicationId: null, urlYouTube: 'https://youtu.be/y' });

    // Published again: the pending video's cancelled rows come back with fresh jobs; the live one is refused.
    const payload = {
      title: 'Again',
      tags: ['a'],
      accounts: [main],
      inYouTube: true,
      inTikTok: true,
      date: '2030-02-01T00:00:00Z',
      video: [{ id: pending, title: 'Again', tags: ['a'], account: main, date: '2030-02-01T00:00:00Z' }],
    };
    const again = await ctx.call({ method: 'POST', url: `/api/upload-video/${req.idUpload}`, token: anna, payload });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const yt = await rowOf(pending, 'youtube');
    expect(yt).toMatchObject({ state: 'scheduled', dueAt: '2030-02-01T00:00:00.000Z' });
    expect((await liveJobs(yt.id)).map((j) => [j.key, j.runAt])).toEqual([
      [`publication.publish:${yt.id}:0`, yt.dueAt],
    ]);
    await ctx.call({ method: 'DELETE', url: `/api/upload-video/${again.body.id}`, token: anna });
    const refused = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: { ...payload, video: [{ ...payload.video[0], id: live }] },
    });
    // The same file to the same profile and platform again is a duplicate (issue 21 item 5): a 409 on the
    // video's "allow a repeat" switch, naming the video, the profile and the platform.
    expect(refused.status).toBe(409);
    expect(refused.body.errors['video.0.allowRepeat']).toContain(`Відео #${live} уже заплановано або опубліковано`);
  });

  it("the profile's video list sums each count over the main platform and Instagram", async () => {
    const { req } = await published(1, [full]);
    await ctx.tdb.db
      .updateTable('videos')
      .set({
        status: 'success',
        views: 120,
        viewsInstagram: 30,
        likes: 7,
        likesInstagram: 3,
        comments: 2,
        commentsInstagram: 0,
        urlTikTok: 'https://www.tiktok.com/@x/video/1',
      })
      .where('id', '=', req.videos[0]!)
      .execute();
    const r = await ctx.call({ method: 'GET', url: `/api/accounts/${full}/video`, token: anna });
    expect(r.status).toBe(200);
    expect(r.body.data.find((v: { id: number }) => v.id === req.videos[0])).toMatchObject({
      views: 120,
      viewsInstagram: 30,
      totalViews: 150,
      totalLikes: 10,
      totalComments: 2,
      status: 'success',
      urlTikTok: 'https://www.tiktok.com/@x/video/1',
      title: 'Own 0',
      account: { id: full },
    });
  });
});
