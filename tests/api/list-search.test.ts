import { describeEachDb } from '../helpers/app';
import { setPlatformState } from '../helpers/connected-tokens';
import { insertRequest } from '../helpers/db';

/** Issue 11: `?q&sort&order` and filters on every list, owner-scoped, keeping the page envelope. */
describeEachDb('list search, sort and filters', (ctx) => {
  let admin: { authorization: string };
  let anna: { authorization: string };
  let annaId: number;
  let ivanId: number;
  const acc: Record<string, number> = {};
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();

  const account = async (userId: number, v: Record<string, unknown>) =>
    (
      await ctx.tdb.db
        .insertInto('accounts')
        .values({ userId, createdAt: new Date().toISOString(), ...v })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const get = async (url: string, token = anna, lang = 'uk') =>
    ctx.call({ method: 'GET', url, token, headers: { 'accept-language': lang } });
  const ids = (r: { body: { data: { id: number }[] } }) => r.body.data.map((x) => x.id);

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    annaId = await ctx.createUser('anna', 'anna-pass');
    ivanId = await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    acc.kyiv = await account(annaId, { comments: 'Київ новини' });
    acc.lviv = await account(annaId, { titleChannel: 'Львів шортси', status: 'success' });
    await setPlatformState(ctx.tdb.db, acc.lviv, 'youtube', { active: true });
    acc.odesa = await account(annaId, { comments: 'Odesa 100% real_deal' });
    acc.ivanKyiv = await account(ivanId, { comments: 'київ спорт' });
    await setPlatformState(ctx.tdb.db, acc.ivanKyiv, 'youtube', { active: true });
  });

  it('profiles: a case-insensitive substring in any script, only the caller’s own rows, the page envelope', async () => {
    let r = await get('/api/accounts?q=КИЇВ');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, totalPages: 1, total: 1 });
    expect(ids(r)).toEqual([acc.kyiv]);
    r = await get('/api/accounts?q=%20київ%20', admin);
    expect(ids(r)).toEqual([acc.ivanKyiv, acc.kyiv]);
    r = await get('/api/accounts?q=шортси');
    expect(ids(r)).toEqual([acc.lviv]);
    expect(r.body.data[0].name).toBe('Львів шортси');
  });

  it('profiles: LIKE wildcards in the text are literal; a number also finds the id', async () => {
    expect(ids(await get('/api/accounts?q=100%25'))).toEqual([acc.odesa]);
    expect(ids(await get('/api/accounts?q=%25'))).toEqual([acc.odesa]);
    expect(ids(await get('/api/accounts?q=e_l'))).toEqual([]);
    expect(ids(await get('/api/accounts?q=real_deal'))).toEqual([acc.odesa]);
    expect(ids(await get(`/api/accounts?q=${acc.lviv}`))).toContain(acc.lviv);
    expect(ids(await get(`/api/accounts?q=${acc.ivanKyiv}`))).toEqual([]);
  });

  it('profiles: the search follows later edits of names and comments', async () => {
    await ctx.tdb.db.updateTable('accounts').set({ comments: 'Харків нічний' }).where('id', '=', acc.odesa).execute();
    expect(ids(await get('/api/accounts?q=харків'))).toEqual([acc.odesa]);
    expect(ids(await get('/api/accounts?q=odesa'))).toEqual([]);
    await ctx.tdb.db
      .updateTable('accounts')
      .set({ comments: 'Odesa 100% real_deal' })
      .where('id', '=', acc.odesa)
      .execute();
  });

  it('profiles: sort each way, by name and by id, default newest first', async () => {
    expect(ids(await get('/api/accounts'))).toEqual([acc.odesa, acc.lviv, acc.kyiv]);
    expect(ids(await get('/api/accounts?sort=id&order=ASC'))).toEqual([acc.kyiv, acc.lviv, acc.odesa]);
    // name: 'київ новини' < 'львів шортси' < 'odesa …' is not the byte order on both; use Cyrillic only.
    const cyr = (r: Awaited<ReturnType<typeof get>>) => ids(r).filter((id) => id !== acc.odesa);
    expect(cyr(await get('/api/accounts?sort=name&order=ASC'))).toEqual([acc.kyiv, acc.lviv]);
    expect(cyr(await get('/api/accounts?sort=name&order=desc'))).toEqual([acc.lviv, acc.kyiv]);
    const byUser = await get('/api/accounts?sort=user&order=DESC', admin);
    expect(byUser.body.data[0].user.login).toBe('ivan');
  });

  it('profiles: the plain list (compiled once per scope) is each caller’s own, either way, past the end too', async () => {
    const ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    const mine = [acc.odesa!, acc.lviv!, acc.kyiv!];
    // Anna's page first: the statement is then compiled, and Ivan's and the admin's use it with their own values.
    expect((await get('/api/accounts?page=1')).body).toMatchObject({ page: 1, totalPages: 1, total: 3 });
    expect(ids(await get('/api/accounts?page=1'))).toEqual(mine);
    expect(ids(await get('/api/accounts?page=1', ivan))).toEqual([acc.ivanKyiv]);
    const all = await get('/api/accounts?page=1', admin);
    expect(all.body).toMatchObject({ total: 4, totalPages: 1 });
    expect(ids(all)).toEqual([acc.ivanKyiv, ...mine]);
    expect(all.body.data[0]).toMatchObject({ user: { id: ivanId, login: 'ivan' }, name: 'київ спорт' });
    expect(all.body.data[0]).not.toHaveProperty('paginateTotal');
    expect(ids(await get('/api/accounts?order=ASC'))).toEqual([...mine].reverse());
    expect(ids(await get('/api/accounts?order=ASC', ivan))).toEqual([acc.ivanKyiv]);
    // The same rows as the general path's (a sort by id goes through it).
    expect((await get('/api/accounts?page=1', admin)).body).toEqual(
      (await get('/api/accounts?sort=id&order=DESC', admin)).body,
    );
    // A page past the end has no row to carry the total: it is counted on its own, per owner.
    expect((await get('/api/accounts?page=3')).body).toEqual({ data: [], page: 3, totalPages: 1, total: 3 });
    expect((await get('/api/accounts?page=2', ivan)).body).toEqual({ data: [], page: 2, totalPages: 1, total: 1 });
  });

  it('profiles: status, connected platform and (for admins) owner filters', async () => {
    expect(ids(await get('/api/accounts?status=success'))).toEqual([acc.lviv]);
    expect(ids(await get('/api/accounts?platform=youtube', admin))).toEqual([acc.ivanKyiv, acc.lviv]);
    expect(ids(await get(`/api/accounts?userId=${ivanId}`, admin))).toEqual([acc.ivanKyiv]);
    // A user naming another owner still sees only their own rows: none.
    const r = await get(`/api/accounts?userId=${ivanId}&q=київ`);
    expect(r.body).toEqual({ data: [], page: 1, totalPages: 0, total: 0 });
  });

  it('an unknown sort field is a 400 naming it, in the caller’s language; bad order and filters too', async () => {
    let r = await get('/api/accounts?sort=proxySealed');
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('«proxySealed»');
    expect(r.body.errors.sort).toContain('name');
    r = await get('/api/accounts?sort=password&order=ASC', anna, 'en');
    expect(r.body.message).toBe('Unknown sort field "password" (allowed: id, name, user, status, createdAt)');
    r = await get('/api/accounts?order=sideways', anna, 'en');
    expect(r).toMatchObject({ status: 400, body: { message: 'Sort order must be ASC or DESC' } });
    r = await get('/api/accounts?status=wrong');
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors)).toEqual(['status']);
    expect((await get('/api/accounts?userId=abc', admin)).status).toBe(400);
    expect((await get(`/api/accounts?q=${'x'.repeat(101)}`)).status).toBe(400);
    for (const url of [
      '/api/users?sort=x',
      '/api/accounts-group?sort=x',
      '/api/tags?sort=x',
      '/api/folder/photo-bg?sort=x',
    ])
      expect((await get(url, admin)).status).toBe(400);
    for (const url of ['/api/create-video?sort=x', '/api/upload-video?sort=x'])
      expect((await get(url)).status).toBe(400);
  });

  it('users: search by login, role filter, sort by counts; the plain page is unchanged', async () => {
    expect((await get('/api/users?q=ANN', admin)).body.data.map((u: any) => u.login)).toEqual(['anna']);
    expect((await get('/api/users?role=admin', admin)).body.data.map((u: any) => u.login)).toEqual(['boss']);
    const byCount = await get('/api/users?sort=accountsCount&order=DESC', admin);
    expect(byCount.body.data.map((u: any) => [u.login, u.accountsCount])).toEqual([
      ['anna', 3],
      ['ivan', 1],
      ['boss', 0],
    ]);
    expect((await get('/api/users?sort=login&order=DESC', admin)).body.data.map((u: any) => u.login)).toEqual([
      'ivan',
      'boss',
      'anna',
    ]);
    expect((await get('/api/users', admin)).body.data.map((u: any) => u.login)).toEqual(['boss', 'anna', 'ivan']);
    expect((await get('/api/users?q=anna')).status).toBe(403);
  });

  it('groups, tag sets and folders: search, sort each way, owner filter and scoping', async () => {
    const mk = async (token: typeof anna, url: string, payload: object) => {
      const r = await ctx.call({ method: 'POST', url, token, payload });
      expect(r.status).toBe(201);
      return r.body.id as number;
    };
    const g1 = await mk(anna, '/api/accounts-group', { name: 'Кияни', accounts: [acc.kyiv] });
    const g2 = await mk(anna, '/api/accounts-group', { name: 'Усі', accounts: [acc.kyiv, acc.lviv, acc.odesa] });
    const ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    const g3 = await mk(ivan, '/api/accounts-group', { name: 'Кияни Івана', accounts: [acc.ivanKyiv] });
    expect(ids(await get('/api/accounts-group?q=кияни'))).toEqual([g1]);
    expect(ids(await get('/api/accounts-group?q=кияни', admin))).toEqual([g3, g1]);
    const byCount = await get('/api/accounts-group?sort=accountsCount&order=DESC');
    expect(byCount.body.data.map((g: any) => [g.id, g.accountsCount])).toEqual([
      [g2, 3],
      [g1, 1],
    ]);
    expect(ids(await get('/api/accounts-group?sort=accountsCount&order=ASC'))).toEqual([g1, g2]);
    expect(ids(await get(`/api/accounts-group?userId=${ivanId}`, admin))).toEqual([g3]);

    const t1 = await mk(anna, '/api/tags', { name: 'Літо', tags: ['море', 'пляж'] });
    const t2 = await mk(anna, '/api/tags', { name: 'Зима', tags: ['сніг'] });
    expect(ids(await get('/api/tags?q=ПЛЯЖ'))).toEqual([t1]);
    expect(ids(await get('/api/tags?sort=name&order=ASC'))).toEqual([t2, t1]);
    expect(ids(await get('/api/tags?sort=name&order=DESC'))).toEqual([t1, t2]);
    expect(ids(await get('/api/tags?q=пляж', ivan))).toEqual([]);

    const f1 = await mk(anna, '/api/folder/photo-bg', { name: 'Бетон' });
    const f2 = await mk(anna, '/api/folder/photo-bg', { name: 'Асфальт' });
    expect(ids(await get('/api/folder/photo-bg?q=бет'))).toEqual([f1]);
    expect(ids(await get('/api/folder/photo-bg?sort=name&order=ASC'))).toEqual([f2, f1]);
    expect(ids(await get('/api/folder/photo-bg?q=бет', ivan))).toEqual([]);
    expect(ids(await get(`/api/folder/photo-bg?userId=${annaId}`, admin))).toEqual([f2, f1]);
  });

  describe('requests and publications', () => {
    const req: Record<string, number> = {};
    const pub: Record<string, number> = {};
    let folderId: number;
    const request = (userId: number, idUpload: string, v: Parameters<typeof insertRequest>[3], minute: number) =>
      insertRequest(ctx.tdb.db, userId, idUpload, { isPhoto: 1, createdAt: at(minute), updatedAt: at(minute), ...v });

    beforeAll(async () => {
      folderId = (
        await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token: anna, payload: { name: 'Море' } })
      ).body.id;
      req.beach = await request(annaId, 'up-beach', { clipName: 'Пляж.mp4', count: 3, folders: `[${folderId}]` }, 1);
      req.city = await request(annaId, 'up-city', { clipName: 'city.mov', status: 'error' }, 2);
      req.ivan = await request(ivanId, 'up-ivan', { clipName: 'пляж-івана.mp4', count: 5 }, 3);
      // Publications whose videos make each SPEC status (publicationStatus): error wins, then loading, …
      const cases: Record<string, string[]> = {
        error: ['success', 'error'],
        loading: ['loading', 'noactive'],
        publication: ['publication', 'success'],
        success: ['success', 'success'],
        noactive: ['noactive', 'success'],
        empty: [],
      };
      let minute = 10;
      for (const [name, statuses] of Object.entries(cases)) {
        const rid = await request(annaId, `up-pub-${name}`, {}, minute++);
        const p = await ctx.tdb.db
          .insertInto('publications')
          .values({
            userId: annaId,
            requestId: rid,
            title: `Реліз ${name}`,
            createdAt: at(minute),
            updatedAt: at(minute),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        pub[name] = p.id;
        for (const status of statuses)
          await ctx.tdb.db
            .insertInto('videos')
            .values({ userId: annaId, createdAt: at(minute), status, publicationId: p.id, requestId: rid })
            .execute();
      }
    });

    it('requests: clip name and options in the rows; search, status filter, sort, scoping', async () => {
      let r = await get('/api/create-video?q=ПЛЯЖ');
      expect(ids(r)).toEqual([req.beach]);
      expect(r.body.data[0]).toMatchObject({ clipName: 'Пляж.mp4', count: 3, folderNames: ['Море'] });
      expect(r.body.data[0].options).toMatchObject({ isPhoto: true, isVideo: false, folders: [folderId] });
      expect(ids(await get('/api/create-video?q=пляж', admin))).toEqual([req.ivan, req.beach]);
      expect(ids(await get('/api/create-video?q=up-city'))).toEqual([req.city]);
      expect(ids(await get('/api/create-video?status=error'))).toEqual([req.city]);
      r = await get('/api/create-video?sort=count&order=DESC', admin);
      expect(ids(r).slice(0, 2)).toEqual([req.ivan, req.beach]);
      r = await get('/api/create-video?sort=createdAt&order=ASC');
      expect(ids(r).slice(0, 2)).toEqual([req.beach, req.city]);
      expect(ids(await get(`/api/create-video?userId=${ivanId}`))).toEqual([]);
      expect(ids(await get(`/api/create-video?userId=${ivanId}`, admin))).toEqual([req.ivan]);
    });

    it('publications: the status filter agrees with each row’s status; search and sort', async () => {
      const expected: Record<string, number[]> = {
        error: [pub.error!],
        loading: [pub.loading!],
        publication: [pub.publication!],
        success: [pub.success!],
        noactive: [pub.empty!, pub.noactive!],
      };
      for (const [status, want] of Object.entries(expected)) {
        const r = await get(`/api/upload-video?status=${status}`);
        expect(ids(r)).toEqual(want);
        expect(r.body.data.every((x: any) => x.status === status)).toBe(true);
      }
      expect(ids(await get('/api/upload-video?q=реліз%20SUCCESS'))).toEqual([pub.success]);
      expect(ids(await get('/api/upload-video?q=up-pub-loading'))).toEqual([pub.loading]);
      const asc = ids(await get('/api/upload-video?sort=title&order=ASC'));
      expect(asc[0]).toBe(pub.empty);
      expect(ids(await get('/api/upload-video?sort=title&order=DESC'))[0]).toBe(pub.success);
      const ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
      expect((await get('/api/upload-video?q=реліз', ivan)).body.total).toBe(0);
    });
  });
});
