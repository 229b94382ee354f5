import { parsePublicationCsv } from '../../src/contract/publication-csv';
import { describeEachDb } from '../helpers/app';
import { publicationFixtures } from './publications.fixtures';

type Token = { authorization: string };

/**
 * Issue 21 items 4 and 5: publications from CSV (a dry run naming rows and fields, then all rows or none), the
 * export in the same columns, and the duplicate guard: the same rendered file to the same profile and platform
 * twice refused by the form, the import and the database's own index; an allowed repeat and a failed post
 * published again are not duplicates.
 */
describeEachDb('imports API and the duplicate guard', (ctx) => {
  const fx = publicationFixtures(ctx);
  let anna: Token;
  let annaId: number;
  let kitchen: number; // YouTube + TikTok
  let garden: number; // all three
  const HEADER = 'video;profile;group;platforms;title;description;tags;date;repeat';
  const csv = (...lines: string[]) => `\uFEFF${[HEADER, ...lines].join('\r\n')}\r\n`;
  const dryRun = (text: string, token = anna) =>
    ctx.call({ method: 'POST', url: '/api/imports/publications/dry-run', token, payload: { csv: text } });
  const commit = (text: string, token = anna) =>
    ctx.call({ method: 'POST', url: '/api/imports/publications', token, payload: { csv: text } });
  const live = (videoIds: number[]) =>
    ctx.tdb.db
      .selectFrom('videoPublishes')
      .selectAll()
      .where('videoId', 'in', videoIds)
      .where('state', '!=', 'cancelled')
      .orderBy('id')
      .execute();
  const postsOfFile = (key: string) =>
    ctx.tdb.db.selectFrom('videoPublishes').selectAll().where('fileKey', '=', key).orderBy('id').execute();

  beforeAll(async () => {
    annaId = await ctx.createUser('anna', 'anna-pass');
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    kitchen = await fx.account(anna, 'Кухня', { youtube: true, tiktok: true });
    garden = await fx.account(anna, 'Сад', { youtube: true, tiktok: true, instagram: true });
  });

  it('a dry run shows every row with its errors (row number, field) and warnings, and writes nothing', async () => {
    const req = await fx.request(annaId, 2);
    const r = await dryRun(
      csv(
        `${req.videos[0]};Кухня;;youtube,instagram;"Борщ; крок 1";Опис;їжа,борщ;2030-01-10 18:00;`,
        `999999;Нема;;youtube;;;;вчора;`,
        `${req.videos[1]};;;tiktok;Друге;;;next slot;`,
      ),
    );
    expect(r.status).toBe(200);
    const at = (r.body.issues as { row: number; field: string; level: string; message: string }[]).map((i) => [
      i.row,
      i.field,
      i.level,
      i.message,
    ]);
    expect(at).toEqual(
      expect.arrayContaining([
        [2, 'platforms', 'warning', 'kadr.imports.warnings.not_connected'],
        [3, 'video', 'error', 'kadr.imports.errors.video_not_found'],
        [3, 'profile', 'error', 'kadr.imports.errors.profile_not_found'],
        [3, 'title', 'error', 'kadr.imports.errors.required'],
        [3, 'date', 'error', 'kadr.imports.errors.bad_date'],
        [4, 'profile', 'error', 'kadr.imports.errors.profile_or_group'],
      ]),
    );
    expect(
      r.body.issues.filter((i: { row: number }) => i.row === 2).every((i: { level: string }) => i.level === 'warning'),
    ).toBe(true);
    expect(r.body.rows[0]).toMatchObject({ row: 2, videoId: req.videos[0], accounts: [kitchen], posts: 1 });
    expect(r.body.issues[0].text).toBeTruthy();
    expect(await live(req.videos)).toEqual([]);
  });

  it('"next slot" is the profile\'s next free posting slot; without slots on that platform it is a row error', async () => {
    const req = await fx.request(annaId, 1);
    const none = await dryRun(csv(`${req.videos[0]};${garden};;youtube;Слот;;;next slot;`));
    expect(none.body.issues).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'date',
        level: 'error',
        message: 'kadr.imports.errors.slots_not_available',
      }),
    ]);
    // Every day at 07:00 in the profile's zone (UTC when it has none): the post is placed there.
    const slots = await ctx.call({
      method: 'PUT',
      url: `/api/slots/${garden}/youtube`,
      token: anna,
      payload: { days: [1, 2, 3, 4, 5, 6, 7], times: ['07:00'] },
    });
    expect(slots.status).toBe(200);
    const done = await commit(csv(`${req.videos[0]};${garden};;youtube;Слот;;;next slot;`));
    expect(done.status).toBe(200);
    const [post] = await live(req.videos);
    expect(post!.dueAt).toMatch(/T07:00:00\.000Z$/);
    expect(Date.parse(post!.dueAt)).toBeGreaterThan(Date.now());
    expect(Date.parse(post!.dueAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('"next slot" rows of one profile in one file take successive slots; each platform its own slot', async () => {
    const req = await fx.request(annaId, 2);
    // TikTok at 08:00 and YouTube (set above) at 07:00, every day in UTC.
    const slots = await ctx.call({
      method: 'PUT',
      url: `/api/slots/${garden}/tiktok`,
      token: anna,
      payload: { days: [1, 2, 3, 4, 5, 6, 7], times: ['08:00'] },
    });
    expect(slots.status).toBe(200);
    const done = await commit(
      csv(
        `${req.videos[0]};${garden};;youtube,tiktok;Перший;;;next slot;`,
        `${req.videos[1]};${garden};;youtube;Другий;;;next slot;`,
      ),
    );
    expect(done.status).toBe(200);
    const posts = await ctx.tdb.db
      .selectFrom('videoPublishes')
      .select(['videoId', 'platform', 'dueAt'])
      .where('videoId', 'in', req.videos)
      .where('state', '=', 'scheduled')
      .execute();
    const at = (video: number, platform: string) =>
      posts.find((p) => p.videoId === video && p.platform === platform)!.dueAt;
    expect(at(req.videos[0]!, 'tiktok')).toMatch(/T08:00:00\.000Z$/);
    expect(at(req.videos[0]!, 'youtube')).toMatch(/T07:00:00\.000Z$/);
    // The second row's YouTube post takes the next 07:00 slot after the first row's (and the earlier test's).
    const youtube = posts.filter((p) => p.platform === 'youtube').map((p) => p.dueAt);
    expect(new Set(youtube).size).toBe(2);
    expect(Date.parse(at(req.videos[1]!, 'youtube'))).toBeGreaterThan(Date.parse(at(req.videos[0]!, 'youtube')));
  });

  it('each imported post gets its publish job at its date; an owner who needs approval has it looked at now', async () => {
    const req = await fx.request(annaId, 2);
    const done = await commit(
      csv(
        `${req.videos[0]};Кухня;;youtube,tiktok;Джоби;;;2030-04-01 10:00;`,
        `${req.videos[1]};Кухня;;youtube;Другий;;;2030-04-01 11:00;`,
      ),
    );
    expect(done.status).toBe(200);
    const rows = await live(req.videos);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(Number(r.step)).toBe(0);
      expect((await fx.jobs(r.id)).map((j) => [j.key, j.status, j.runAt])).toEqual([
        [`publication.publish:${r.id}:0`, 'queued', r.dueAt],
      ]);
    }
    // An owner whose posts need an admin's approval: the job runs now, so the gate stops the post at once.
    await ctx.tdb.db.updateTable('users').set({ needsApproval: 1 }).where('id', '=', annaId).execute();
    try {
      const req2 = await fx.request(annaId, 1);
      const before = Date.now();
      expect((await commit(csv(`${req2.videos[0]};Кухня;;youtube;Погодження;;;2030-04-02 10:00;`))).status).toBe(200);
      const [row] = await live(req2.videos);
      expect(row!.dueAt).toBe('2030-04-02T10:00:00.000Z');
      const [job] = await fx.jobs(row!.id);
      expect(Date.parse(job!.runAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(job!.runAt)).toBeLessThanOrEqual(Date.now());
    } finally {
      await ctx.tdb.db.updateTable('users').set({ needsApproval: 0 }).where('id', '=', annaId).execute();
    }
  });

  it("a date written without a zone is each profile's wall time (a group across zones); one with a zone is that instant", async () => {
    const kyiv = await fx.account(anna, 'Київ', { youtube: true });
    const york = await fx.account(anna, 'Нью-Йорк', { youtube: true });
    for (const [id, timeZone] of [
      [kyiv, 'Europe/Kyiv'],
      [york, 'America/New_York'],
    ] as const)
      await ctx.tdb.db.updateTable('accounts').set({ timeZone }).where('id', '=', id).execute();
    const at = new Date().toISOString();
    const group = await ctx.tdb.db
      .insertInto('accountGroups')
      .values({ userId: annaId, name: 'Дві столиці', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.tdb.db
      .insertInto('groupAccounts')
      .values([kyiv, york].map((accountId) => ({ groupId: group.id, accountId })))
      .execute();
    const req = await fx.request(annaId, 2);
    const file = csv(
      `${req.videos[0]};;Дві столиці;youtube;Вечір;;;10.01.2030 18:00;`,
      `${req.videos[1]};Київ;;youtube;Точно;;;2030-07-10T18:00:00Z;`,
    );
    const dry = await dryRun(file);
    expect(dry.status).toBe(200);
    expect(dry.body.rows.map((r: { date: string; timeZone: string }) => [r.date, r.timeZone])).toEqual([
      ['2030-01-10T16:00:00.000Z', 'Europe/Kyiv'], // the first profile's post: 18:00 in Kyiv (EET)
      ['2030-07-10T18:00:00.000Z', 'Europe/Kyiv'],
    ]);
    expect((await commit(file)).status).toBe(200);
    // The group's second profile gets a placement of the same file (a video row of its own).
    const posts = [...(await postsOfFile(req.storageKeys[0]!)), ...(await postsOfFile(req.storageKeys[1]!))];
    expect(posts.map((r) => [r.fileKey, r.accountId, r.dueAt])).toEqual([
      [req.storageKeys[0], kyiv, '2030-01-10T16:00:00.000Z'],
      [req.storageKeys[0], york, '2030-01-10T23:00:00.000Z'], // 18:00 in New York (EST)
      [req.storageKeys[1], kyiv, '2030-07-10T18:00:00.000Z'],
    ]);
  });

  it('commit writes all rows or none: one bad row keeps the others out (a 400 keyed rows.N.field)', async () => {
    const req = await fx.request(annaId, 2);
    const bad = await commit(
      csv(
        `${req.videos[0]};Кухня;;youtube;Добрий;;;2030-01-10 18:00;`,
        `${req.videos[1]};Кухня;;youtube;;;;2030-01-11 18:00;`,
      ),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['rows.3.title']);
    expect(await live(req.videos)).toEqual([]);

    const ok = await commit(
      csv(
        `${req.videos[0]};Кухня;;youtube,tiktok;Перший;Опис;їжа;2030-01-10 18:00;`,
        `${req.storageKeys[1]!.split('/').slice(-2).join('/')};Сад;;instagram;Другий;;;10.01.2030 19:00;`,
      ),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.posts).toBe(3);
    const rows = await live(req.videos);
    expect(rows.map((r) => [r.videoId, r.platform, r.accountId, r.state, r.dueAt])).toEqual([
      [req.videos[0], 'youtube', kitchen, 'scheduled', '2030-01-10T18:00:00.000Z'],
      [req.videos[0], 'tiktok', kitchen, 'scheduled', '2030-01-10T18:00:00.000Z'],
      [req.videos[1], 'instagram', garden, 'scheduled', '2030-01-10T19:00:00.000Z'],
    ]);
    const detail = await ctx.call({ method: 'GET', url: `/api/upload-video/${req.idUpload}`, token: anna });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ inYouTube: true, inTikTok: true, inInstagram: true });
  });

  it('the same file to the same profile and platform again is refused in the import; a repeat allowed goes in', async () => {
    const req = await fx.request(annaId, 1);
    const v = req.videos[0]!;
    expect((await commit(csv(`${v};Кухня;;youtube;Раз;;;2030-02-01 10:00;`))).status).toBe(200);
    const again = await dryRun(
      csv(`${v};Кухня;;youtube;Два;;;2030-02-02 10:00;`, `${v};Сад;;youtube;Інший профіль;;;2030-02-02 10:00;`),
    );
    expect(again.body.issues).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'video',
        level: 'error',
        message: 'kadr.publications.errors.duplicate_post',
      }),
    ]);
    expect(again.body.issues[0].text).toContain(`#${v}`);
    // Twice in one file is a duplicate too.
    const twice = await dryRun(csv(`${v};Сад;;tiktok;А;;;2030-02-02 10:00;`, `${v};Сад;;tiktok;Б;;;2030-02-03 10:00;`));
    expect(twice.body.issues).toEqual([
      expect.objectContaining({ row: 3, field: 'video', message: 'kadr.imports.errors.repeat_in_file' }),
    ]);

    const repeat = await commit(csv(`${v};Кухня;;youtube;Два;;;2030-02-02 10:00;yes`));
    expect(repeat.status).toBe(200);
    const posts = await postsOfFile(req.storageKeys[0]!);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.repeatOf).toBe(posts[0]!.id);
    expect(posts[1]!.videoId).not.toBe(v); // a new placement of the same file
  });

  it('the database index refuses a duplicate even when the check is bypassed; a 409 through the API', async () => {
    const req = await fx.request(annaId, 1);
    const v = req.videos[0]!;
    expect((await commit(csv(`${v};Кухня;;tiktok;Раз;;;2030-03-01 10:00;`))).status).toBe(200);
    const repo = ctx.root.repos.posts;
    const at = new Date().toISOString();
    // Another placement of the same file (as a repeat or a second profile makes one), posted with no check.
    const copy = await ctx.tdb.db
      .insertInto('videos')
      .values({
        userId: annaId,
        accountId: kitchen,
        createdAt: at,
        status: 'publication',
        storageKey: req.storageKeys[0]!,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = {
      videoId: copy.id,
      platform: 'tiktok' as const,
      accountId: kitchen,
      dueAt: at,
      videoVersion: 1,
      createdAt: at,
      updatedAt: at,
    };
    const bypass = (trx: Parameters<typeof repo.insertMany>[0]) =>
      repo.insertMany(trx, [{ ...row, fileKey: req.storageKeys[0]! }]);
    await expect(ctx.tdb.db.transaction().execute(bypass)).rejects.toMatchObject({
      statusCode: 409,
      message: 'kadr.publications.errors.duplicate_post',
    });
    // Straight SQL, no repository at all: the index itself.
    await expect(
      ctx.tdb.db
        .insertInto('videoPublishes')
        .values({ ...row, fileKey: req.storageKeys[0]! })
        .execute(),
    ).rejects.toThrow();
    // A cancelled post is out of the index: the same key again is fine.
    await ctx.tdb.db
      .updateTable('videoPublishes')
      .set({ state: 'cancelled' })
      .where('fileKey', '=', req.storageKeys[0]!)
      .execute();
    await ctx.tdb.db
      .insertInto('videoPublishes')
      .values({ ...row, fileKey: req.storageKeys[0]! })
      .execute();
    // Two imports racing past the check: the second transaction is refused whole, with a 409.
    const req2 = await fx.request(annaId, 1);
    const text = csv(`${req2.videos[0]};Кухня;;youtube;Гонка;;;2030-03-02 10:00;`);
    const [a, b] = await Promise.all([commit(text), commit(text)]);
    // The loser is refused whole: by the check when it runs after the winner, by the index (a 409) when alongside.
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
    expect((await postsOfFile(req2.storageKeys[0]!)).filter((p) => p.state !== 'cancelled')).toHaveLength(1);
  });

  it('the publish form refuses the same file on the same profile and platform (409), allows a marked repeat', async () => {
    const req = await fx.request(annaId, 1);
    const v = req.videos[0]!;
    const body = (allowRepeat?: boolean) => ({
      title: 'Форма',
      description: '',
      tags: ['kadr'],
      accounts: [kitchen],
      inYouTube: true,
      inTikTok: false,
      inInstagram: false,
      date: '2030-04-01T10:00:00Z',
      video: [
        {
          id: v,
          title: 'Форма',
          description: '',
          tags: ['kadr'],
          account: kitchen,
          date: '2030-04-01T10:00:00Z',
          ...(allowRepeat === undefined ? {} : { allowRepeat }),
        },
      ],
    });
    expect(
      (await ctx.call({ method: 'POST', url: `/api/upload-video/${req.idUpload}`, token: anna, payload: body() }))
        .status,
    ).toBe(201);
    // It goes live; the publication is deleted (a live post stays); the form is filled in again.
    await ctx.tdb.db.updateTable('videoPublishes').set({ state: 'published' }).where('videoId', '=', v).execute();
    expect((await ctx.call({ method: 'DELETE', url: `/api/upload-video/${req.idUpload}`, token: anna })).status).toBe(
      200,
    );
    const dup = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: body(),
    });
    expect(dup.status).toBe(409);
    expect(Object.keys(dup.body.errors)).toEqual(['video.0.allowRepeat']);
    expect(dup.body.message).toContain(`#${v}`);
    expect(dup.body.message).toContain('YouTube');
    const rep = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: body(true),
    });
    expect(rep.status).toBe(201);
    const posts = await postsOfFile(req.storageKeys[0]!);
    expect(posts.map((p) => p.state)).toEqual(['published', 'scheduled']);
    expect(posts[1]!.repeatOf).toBe(posts[0]!.id);
  });

  it('publishing a failed post again is the same row, not a repeat', async () => {
    const req = await fx.request(annaId, 1);
    const v = req.videos[0]!;
    const done = await commit(csv(`${v};Сад;;youtube;Знову;;;2030-05-01 10:00;`));
    const pub = done.body.publications[0];
    const [row] = await live([v]);
    await ctx.tdb.db.updateTable('videoPublishes').set({ state: 'failed' }).where('id', '=', row!.id).execute();
    await ctx.tdb.db.updateTable('videos').set({ status: 'error' }).where('id', '=', v).execute();
    const again = await ctx.call({
      method: 'POST',
      url: '/api/upload-video/upload',
      token: anna,
      payload: { videoId: v, youTubeId: pub },
    });
    expect(again.status).toBe(200);
    const posts = await postsOfFile(req.storageKeys[0]!);
    expect(posts.map((p) => [p.id, p.state, p.repeatOf])).toEqual([[row!.id, 'scheduled', 0]]);
  });

  it('exports publications in the import’s columns; the file reads back into the same rows', async () => {
    const ivanId = await ctx.createUser('ivan-x', 'ivan-x-pass');
    const ivan = (await ctx.login('ivan-x', 'ivan-x-pass')).headers;
    const ivanProfile = await fx.account(ivan, 'Ivan', { youtube: true, tiktok: true });
    const req = await fx.request(ivanId, 2);
    const text = csv(
      `${req.videos[0]};${ivanProfile};;youtube,tiktok;"Борщ; ""крок"" 1";"Два\nрядки";їжа,борщ;2030-06-01T18:00:00.000Z;`,
      `${req.videos[1]};${ivanProfile};;tiktok;Друге;;kadr;2030-06-02T18:00:00.000Z;`,
    );
    expect((await commit(text, ivan)).status).toBe(200);
    const r = await ctx.call({ method: 'GET', url: '/api/imports/publications/export', token: ivan });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('text/csv');
    const back = parsePublicationCsv(r.body as string);
    expect(back.issues).toEqual([]);
    expect(back.rows).toEqual(parsePublicationCsv(text).rows);
    // Re-importing the export is a duplicate of every post.
    const again = await dryRun(r.body as string, ivan);
    expect(again.body.issues.map((i: { row: number; message: string }) => [i.row, i.message])).toEqual([
      [2, 'kadr.publications.errors.duplicate_post'],
      [2, 'kadr.publications.errors.duplicate_post'],
      [3, 'kadr.publications.errors.duplicate_post'],
    ]);
  });
});
