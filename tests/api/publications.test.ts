import { describeEachDb } from '../helpers/app';
import { publicationFixtures } from './publications.fixtures';

type Token = { authorization: string };

describeEachDb('publications API: create, list, detail', (ctx) => {
  const fx = publicationFixtures(ctx);
  let admin: Token;
  let anna: Token;
  let ivan: Token;
  let annaId: number;
  let ivanId: number;
  let annaMain: number; // YouTube + TikTok connected
  let annaSecond: number; // YouTube + TikTok connected
  let ivanAccount: number;

  beforeAll(async () => {
    await ctx.createUser('root', 'root-pass', 'admin');
    annaId = await ctx.createUser('anna', 'anna-pass');
    ivanId = await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('root', 'root-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    annaMain = await fx.account(anna, 'Main', { youtube: true, tiktok: true });
    annaSecond = await fx.account(anna, 'Second', { youtube: true, tiktok: true });
    ivanAccount = await fx.account(ivan, 'Ivan', { youtube: true, tiktok: true, instagram: true });
  });

  const body = (videos: number[], accounts: number[], over: Record<string, unknown> = {}) => ({
    title: 'Shared title',
    description: 'Shared description',
    tags: ['cats', 'Funny '],
    accounts,
    inYouTube: true,
    inTikTok: true,
    inInstagram: false,
    date: '2030-03-30T12:00:00+03:00',
    video: videos.map((id, i) => ({
      id,
      title: `Video ${i + 1}`,
      description: `About ${i + 1}`,
      tags: ['cats', `v${i + 1}`],
      account: accounts[i % accounts.length],
      date: `2030-03-30T1${i}:30:00+03:00`,
    })),
    ...over,
  });
  const publish = (token: Token, ref: string | number, payload: object) =>
    ctx.call({ method: 'POST', url: `/api/upload-video/${ref}`, token, payload });

  it('publishes each video to its profile on every chosen platform, in one go, with a job at its date', async () => {
    // The detail names each video's profile's zone (issue 21 item 2); a profile without one is planned in UTC.
    await ctx.tdb.db.updateTable('accounts').set({ timeZone: 'Europe/Kyiv' }).where('id', '=', annaMain).execute();
    await ctx.tdb.db.updateTable('accounts').set({ timeZone: null }).where('id', '=', annaSecond).execute();
    const req = await fx.request(annaId, 3);
    const r = await publish(anna, req.idUpload, body(req.videos.slice(0, 2), [annaMain, annaSecond]));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      idUpload: req.idUpload,
      title: 'Shared title',
      description: 'Shared description',
      tags: ['cats', 'funny'],
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      status: 'publication',
      version: 1,
      user: { id: annaId, login: 'anna' },
    });
    expect(r.body.video).toHaveLength(2);
    const [v1, v2] = r.body.video;
    expect(v1).toMatchObject({
      id: req.videos[0],
      index: 0,
      account: { id: annaMain, name: 'Main', timeZone: 'Europe/Kyiv' },
      title: 'Video 1',
      description: 'About 1',
      tags: ['cats', 'v1'],
      status: 'publication',
      date: '2030-03-30T07:30:00.000Z',
    });
    expect(v2).toMatchObject({
      id: req.videos[1],
      account: { id: annaSecond, name: 'Second', timeZone: 'UTC' },
      date: '2030-03-30T08:30:00.000Z',
    });
    expect(v1.mediaUrl).toMatch(/^\/api\/media\/videos\/.+\?exp=\d+&sig=/);
    expect(v1.platforms.map((p: { platform: string; state: string }) => [p.platform, p.state]).sort()).toEqual([
      ['tiktok', 'scheduled'],
      ['youtube', 'scheduled'],
    ]);

    const rows = await fx.publishes(req.videos);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const video = await fx.video(row.videoId);
      expect(row).toMatchObject({
        state: 'scheduled',
        dueAt: video.date,
        videoVersion: video.version,
        accountId: video.accountId,
      });
      const jobs = await fx.jobs(row.id);
      expect(jobs.map((j) => [j.key, j.status, j.runAt])).toEqual([
        [`publication.publish:${row.id}:0`, 'queued', video.date],
      ]);
      expect(JSON.parse(jobs[0]!.payload)).toEqual({ publishId: row.id, step: 0 });
    }
    // The third output was left out of the publication.
    const third = await fx.video(req.videos[2]!);
    expect(third).toMatchObject({ publicationId: null, status: 'noactive', accountId: null });
    const first = await fx.video(req.videos[0]!);
    expect(first).toMatchObject({
      publicationId: r.body.id,
      status: 'publication',
      title: 'Video 1',
      tags: '["cats","v1"]',
    });

    // The detail answers by publication id and by idUpload; the list shows it with its title and status.
    const byId = await ctx.call({ method: 'GET', url: `/api/upload-video/${r.body.id}`, token: anna });
    const byUpload = await ctx.call({ method: 'GET', url: `/api/upload-video/${req.idUpload}`, token: anna });
    expect(byId.status).toBe(200);
    expect(byUpload.body).toEqual(byId.body);
    const sealed = await ctx.tdb.db
      .selectFrom('accountPlatforms')
      .select('tokensSealed')
      .where('accountId', '=', annaMain)
      .where('platform', '=', 'youtube')
      .executeTakeFirstOrThrow();
    expect(byId.body).not.toHaveProperty('video.0.account.tokensYouTubeSealed');
    expect(JSON.stringify(byId.body)).not.toContain(sealed.tokensSealed);
    const list = await ctx.call({ method: 'GET', url: '/api/upload-video?page=1', token: anna });
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({
        id: r.body.id,
        idUpload: req.idUpload,
        title: 'Shared title',
        status: 'publication',
        user: { id: annaId, login: 'anna' },
      }),
    );
    expect(list.body).toMatchObject({ page: 1, total: expect.any(Number), totalPages: expect.any(Number) });
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const req = await fx.request(annaId, 2);
    const other = await fx.request(annaId, 1);
    const before = await Promise.all([fx.count('publications'), fx.count('videoPublishes'), fx.count('jobs')]);
    const ok = body(req.videos, [annaMain, annaSecond]);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: '  ' }, 'title', "Назва обов'язкова"],
      [{ tags: [] }, 'tags', 'Мінімум один тег'],
      [{ accounts: [] }, 'accounts', 'Мінімум один профіль'],
      [{ video: [] }, 'video', 'Мінімум одне відео'],
      [
        { inYouTube: false, inTikTok: false },
        'inYouTube',
        'Виберіть хоча б одну платформу: YouTube, TikTok або Instagram',
      ],
      [{ date: '2030-03-30T12:00:00' }, 'date', 'Невірна дата: потрібні дата й час із часовим поясом (Z або зсув)'],
      [{ date: 'tomorrow' }, 'date', 'Невірна дата: потрібні дата й час із часовим поясом (Z або зсув)'],
      [{ title: 'a<b>' }, 'title', 'Опис не може містити символи < або >'],
      [{ video: [{ ...ok.video[0], title: '' }] }, 'video.0.title', "Назва обов'язкова"],
      [{ video: [{ ...ok.video[0], tags: [] }] }, 'video.0.tags', 'Мінімум один тег'],
      [
        { video: [{ ...ok.video[0], date: 'x' }] },
        'video.0.date',
        'Невірна дата: потрібні дата й час із часовим поясом (Z або зсув)',
      ],
      [
        { video: [{ ...ok.video[0], id: other.videos[0] }] },
        'video.0.id',
        `Відео #${other.videos[0]} не належить цьому запиту`,
      ],
      [{ video: [ok.video[0], ok.video[0]] }, 'video.1.id', `Відео #${req.videos[0]} вказано двічі`],
      [{ accounts: [ivanAccount] }, 'accounts.0', 'Профіль не знайдено або він вам недоступний'],
      [
        { video: [{ ...ok.video[0], account: ivanAccount }] },
        'video.0.account',
        'Профіль не знайдено або він вам недоступний',
      ],
      // A profile not connected to a chosen platform is skipped (publish-partial.test.ts); only a form that would
      // publish nothing at all is refused.
      [
        { inYouTube: false, inTikTok: false, inInstagram: true },
        'inYouTube',
        'Нічого публікувати: жоден вибраний профіль не підключено до вибраних для нього платформ',
      ],
    ];
    for (const [over, field, message] of cases) {
      const r = await publish(anna, req.idUpload, { ...ok, ...over });
      expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.errors?.[field], `${field}: ${JSON.stringify(r.body)}`).toBe(message);
    }
    const en = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: { ...ok, inYouTube: false, inTikTok: false, inInstagram: true },
      headers: { 'accept-language': 'en' },
    });
    expect(en.body.errors.inYouTube).toBe(
      'Nothing to publish: no chosen profile is connected to the platforms chosen for it',
    );
    expect(await Promise.all([fx.count('publications'), fx.count('videoPublishes'), fx.count('jobs')])).toEqual(before);
  });

  it('publishes only finished requests, once, and only the caller’s own (an admin any)', async () => {
    const loading = await fx.request(annaId, 1, 'loading');
    let r = await publish(anna, loading.idUpload, body(loading.videos, [annaMain]));
    expect(r.status).toBe(400);
    expect(r.body.errors.idUpload).toBe('Запит ще не готовий: опублікувати можна лише готові відео');

    const req = await fx.request(annaId, 1);
    r = await publish(ivan, req.idUpload, body(req.videos, [ivanAccount]));
    expect(r.status).toBe(404);
    r = await publish(anna, 'no-such-request', body(req.videos, [annaMain]));
    expect(r.status).toBe(404);

    // An admin publishes anna's request to anna's profile; the publication stays anna's.
    r = await publish(admin, req.id, body(req.videos, [annaMain]));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.user).toEqual({ id: annaId, login: 'anna' });
    const again = await publish(anna, req.idUpload, body(req.videos, [annaMain]));
    expect(again.status).toBe(400);
    expect(again.body.errors.idUpload).toBe('Цей запит уже надіслано на публікацію');

    // Ivan sees none of it.
    for (const [method, url] of [
      ['GET', `/api/upload-video/${r.body.id}`],
      ['GET', `/api/upload-video/${req.idUpload}`],
      ['DELETE', `/api/upload-video/${r.body.id}`],
      ['DELETE', `/api/upload-video/video/${req.videos[0]}`],
    ] as const) {
      expect((await ctx.call({ method, url, token: ivan })).status, url).toBe(404);
    }
    const patch = await ctx.call({
      method: 'PATCH',
      url: `/api/upload-video/${r.body.id}`,
      token: ivan,
      payload: { title: 'x', tags: ['x'], inYouTube: true },
    });
    expect(patch.status).toBe(404);
    const list = await ctx.call({ method: 'GET', url: '/api/upload-video', token: ivan });
    expect(list.body.data.map((i: { user: { id: number } }) => i.user.id).every((id: number) => id === ivanId)).toBe(
      true,
    );
    const all = await ctx.call({ method: 'GET', url: '/api/upload-video', token: admin });
    expect(all.body.data.some((i: { id: number }) => i.id === r.body.id)).toBe(true);

    // Bad ids and pages are 400s naming them.
    expect(
      (await ctx.call({ method: 'GET', url: '/api/upload-video?page=0', token: anna })).body.errors.page,
    ).toBeDefined();
    const bad = await ctx.call({ method: 'DELETE', url: '/api/upload-video/video/abc', token: anna });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.videoId).toBeDefined();
    expect((await ctx.call({ method: 'GET', url: '/api/upload-video/1' })).status).toBe(401);
  });
});
