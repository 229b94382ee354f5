import { describeEachDb } from '../helpers/app';
import { publicationFixtures } from './publications.fixtures';

type Token = { authorization: string };

/**
 * The publish form is not all-or-nothing (issue 18 item 4): platforms are chosen per profile, a profile not
 * connected to a chosen platform is skipped and reported (never a refusal of the whole form), the form's starting
 * point reads without a 404, a file Kadr's own check refused is not published again, and a video taken out of
 * its publication leaves its profile's video list.
 */
describeEachDb('publish form: per-profile platforms, skipped profile × platform', (ctx) => {
  const fx = publicationFixtures(ctx);
  let anna: Token;
  let ivan: Token;
  let annaId: number;
  let both: number; // YouTube + TikTok
  let ytOnly: number; // YouTube
  let ivanAccount: number;

  beforeAll(async () => {
    annaId = await ctx.createUser('anna', 'anna-pass');
    await ctx.createUser('ivan', 'ivan-pass');
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    both = await fx.account(anna, 'Both', { youtube: true, tiktok: true });
    ytOnly = await fx.account(anna, 'YT only', { youtube: true });
    ivanAccount = await fx.account(ivan, 'Ivan', { youtube: true, tiktok: true, instagram: true });
  });

  const body = (videos: number[], accounts: number[], over: Record<string, unknown> = {}) => ({
    title: 'Shared',
    description: '',
    tags: ['cats'],
    accounts,
    inYouTube: true,
    inTikTok: true,
    inInstagram: false,
    date: '2030-03-30T12:00:00Z',
    video: videos.map((id, i) => ({
      id,
      title: `Video ${i + 1}`,
      description: '',
      tags: ['cats'],
      account: accounts[i % accounts.length],
      date: '2030-03-30T12:00:00Z',
    })),
    ...over,
  });
  const publish = (ref: string, payload: object, token = anna) =>
    ctx.call({ method: 'POST', url: `/api/upload-video/${ref}`, token, payload });
  const rowsOf = async (videos: number[]) =>
    (await fx.publishes(videos)).map((r) => [r.videoId, r.platform, r.accountId, r.state]);

  it("SPEC's toggles alone: what a profile is not connected to is skipped and reported, the rest is published", async () => {
    const req = await fx.request(annaId, 2);
    const r = await publish(req.idUpload, body(req.videos, [both, ytOnly]));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.skipped).toEqual([
      { video: req.videos[1], account: ytOnly, platform: 'tiktok', reason: 'not_connected' },
    ]);
    expect(r.body).toMatchObject({ inYouTube: true, inTikTok: true, inInstagram: false });
    expect(await rowsOf(req.videos)).toEqual([
      [req.videos[0], 'tiktok', both, 'scheduled'],
      [req.videos[0], 'youtube', both, 'scheduled'],
      [req.videos[1], 'youtube', ytOnly, 'scheduled'],
    ]);
    // Every row has its job at the video's date.
    for (const row of await fx.publishes(req.videos)) expect(await fx.jobs(row.id)).toHaveLength(1);
  });

  it('platforms per profile: each profile gets its own; a video with nothing left stays out; toggles = union', async () => {
    const req = await fx.request(annaId, 3);
    const r = await publish(
      req.idUpload,
      body(req.videos, [both, ytOnly], {
        inYouTube: false,
        inTikTok: false,
        profiles: [
          { account: both, platforms: ['tiktok'] },
          { account: ytOnly, platforms: ['youtube', 'instagram'] },
        ],
        video: req.videos.map((id, i) => ({
          id,
          title: `V${i}`,
          description: '',
          tags: ['cats'],
          account: [both, ytOnly, ytOnly][i],
          date: '2030-03-30T12:00:00Z',
        })),
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ inYouTube: true, inTikTok: true, inInstagram: false });
    expect(r.body.skipped).toEqual([
      { video: req.videos[1], account: ytOnly, platform: 'instagram', reason: 'not_connected' },
      { video: req.videos[2], account: ytOnly, platform: 'instagram', reason: 'not_connected' },
    ]);
    expect(await rowsOf(req.videos)).toEqual([
      [req.videos[0], 'tiktok', both, 'scheduled'],
      [req.videos[1], 'youtube', ytOnly, 'scheduled'],
      [req.videos[2], 'youtube', ytOnly, 'scheduled'],
    ]);

    // A profile chosen only for a platform it lacks: its video is reported and stays out of the publication.
    const req2 = await fx.request(annaId, 2);
    const r2 = await publish(
      req2.idUpload,
      body(req2.videos, [both, ytOnly], { profiles: [{ account: ytOnly, platforms: ['instagram'] }] }),
    );
    expect(r2.status, JSON.stringify(r2.body)).toBe(201);
    expect(r2.body.video.map((v: { id: number }) => v.id)).toEqual([req2.videos[0]]);
    expect(r2.body.skipped).toEqual([
      { video: req2.videos[1], account: ytOnly, platform: 'instagram', reason: 'not_connected' },
    ]);
    expect(await fx.video(req2.videos[1]!)).toMatchObject({ publicationId: null, status: 'noactive' });
    expect(await rowsOf([req2.videos[1]!])).toEqual([]);
  });

  it('refuses only a form that would publish nothing, a bad platform or another’s profile, and writes nothing', async () => {
    const req = await fx.request(annaId, 1);
    const before = await Promise.all([fx.count('publications'), fx.count('videoPublishes'), fx.count('jobs')]);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { profiles: [{ account: both, platforms: ['instagram'] }] },
        'inYouTube',
        'Нічого публікувати: жоден вибраний профіль не підключено до вибраних для нього платформ',
      ],
      [
        { inYouTube: false, inTikTok: false, profiles: [{ account: both, platforms: [] }] },
        'inYouTube',
        'Виберіть хоча б одну платформу: YouTube, TikTok або Instagram',
      ],
      [{ profiles: [{ account: both, platforms: ['vimeo'] }] }, 'profiles.0.platforms.0', ''],
      [{ profiles: [{ account: 'x', platforms: [] }] }, 'profiles.0.account', ''],
      [
        { video: [{ id: req.videos[0], title: 'x', tags: ['x'], account: ivanAccount, date: '2030-03-30T12:00:00Z' }] },
        'video.0.account',
        'Профіль не знайдено або він вам недоступний',
      ],
    ];
    for (const [over, field, message] of cases) {
      const r = await publish(req.idUpload, body(req.videos, [both], over));
      expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.errors?.[field], `${field}: ${JSON.stringify(r.body)}`).toBeTypeOf('string');
      if (message) expect(r.body.errors[field]).toBe(message);
    }
    expect(await Promise.all([fx.count('publications'), fx.count('videoPublishes'), fx.count('jobs')])).toEqual(before);
  });

  it("the form's starting point and the profiles' connections read without a 404; another user's are not shown", async () => {
    const req = await fx.request(annaId, 2);
    let src = await ctx.call({ method: 'GET', url: `/api/upload-video/form/${req.idUpload}`, token: anna });
    expect(src.status).toBe(200);
    expect(src.body).toMatchObject({ kind: 'request', id: req.id, ready: true, publicationId: null, account: null });
    expect(src.body.video.map((v: { id: number; index: number }) => [v.id, v.index])).toEqual([
      [req.videos[0], 0],
      [req.videos[1], 1],
    ]);
    const created = await publish(req.idUpload, body(req.videos, [both]));
    src = await ctx.call({ method: 'GET', url: `/api/upload-video/form/${req.idUpload}`, token: anna });
    expect(src.body.publicationId).toBe(created.body.id);
    expect((await ctx.call({ method: 'GET', url: `/api/upload-video/form/${req.idUpload}`, token: ivan })).status).toBe(
      404,
    );

    const c = await ctx.call({
      method: 'GET',
      url: `/api/upload-video/connections?accounts=${both},${ytOnly},${ivanAccount}`,
      token: anna,
    });
    expect(c.status).toBe(200);
    expect(c.body).toEqual([
      { account: both, connected: ['youtube', 'tiktok'] },
      { account: ytOnly, connected: ['youtube'] },
    ]);
    const bad = await ctx.call({ method: 'GET', url: '/api/upload-video/connections?accounts=1,x', token: anna });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {})).toContain('accounts');
  });

  it("a file Kadr's own pre-upload check refused is not published again; a removed video leaves its profile's list", async () => {
    const req = await fx.request(annaId, 2);
    const pub = (await publish(req.idUpload, body(req.videos, [ytOnly], { inTikTok: false }))).body;
    const [refused, other] = await fx.publishes(req.videos);
    const gate = 'kadr.platform_errors.instagram_file_duration {"min":3,"max":900,"duration":"2.96"}';
    await ctx.tdb.db
      .updateTable('videoPublishes')
      .where('id', '=', refused!.id)
      .set({ state: 'failed', error: gate, errorKind: 'bad-request' })
      .execute();
    await ctx.tdb.db
      .updateTable('videos')
      .where('id', '=', req.videos[0]!)
      .set({ status: 'error', error: gate })
      .execute();
    const again = await ctx.call({
      method: 'POST',
      url: '/api/upload-video/upload',
      token: anna,
      payload: { videoId: req.videos[0], youTubeId: pub.id },
    });
    expect(again.status).toBe(400);
    expect(again.body.errors.videoId).toBe(
      'Перевірка Kadr перед завантаженням відхилила файл: повторна публікація закінчиться так само',
    );
    expect((await fx.publishes([req.videos[0]!]))[0]!.state).toBe('failed');
    // A failure of another kind is published again as before.
    await ctx.tdb.db
      .updateTable('videoPublishes')
      .where('id', '=', other!.id)
      .set({ state: 'failed', error: 'kadr.publish.stalled', errorKind: 'retry-later' })
      .execute();
    await ctx.tdb.db.updateTable('videos').where('id', '=', req.videos[1]!).set({ status: 'error' }).execute();
    const ok = await ctx.call({
      method: 'POST',
      url: '/api/upload-video/upload',
      token: anna,
      payload: { videoId: req.videos[1], youTubeId: pub.id },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await fx.publishes([req.videos[1]!]))[0]!.state).toBe('scheduled');

    // Taken out before going live: the video is no longer the profile's, nor dated.
    const listed = async () =>
      (await ctx.call({ method: 'GET', url: `/api/accounts/${ytOnly}/video`, token: anna })).body.data.map(
        (v: { id: number }) => v.id,
      );
    expect(await listed()).toEqual(expect.arrayContaining(req.videos));
    const removed = await ctx.call({ method: 'DELETE', url: `/api/upload-video/video/${req.videos[1]}`, token: anna });
    expect(removed.status).toBe(200);
    expect(await listed()).not.toContain(req.videos[1]);
    expect(await listed()).toContain(req.videos[0]);
    expect(await fx.video(req.videos[1]!)).toMatchObject({ accountId: null, date: null, status: 'noactive' });
    // A row detached by an older release (profile and date still set) is not listed either.
    await ctx.tdb.db
      .updateTable('videos')
      .where('id', '=', req.videos[1]!)
      .set({ accountId: ytOnly, date: '2030-03-30T12:00:00.000Z' })
      .execute();
    expect(await listed()).not.toContain(req.videos[1]);
  });
});
