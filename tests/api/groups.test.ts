import { describeEachDb } from '../helpers/app';

describeEachDb('account groups API', (ctx) => {
  let admin: { authorization: string };
  let anna: { authorization: string };
  let ivan: { authorization: string };
  let annaId: number;
  let ivanId: number;
  const acc: Record<string, number> = {};

  /** A profile straight in the database (the groups domain only needs id, owner and comment). */
  const account = async (userId: number, comments: string | null) => {
    const r = await ctx.tdb.db
      .insertInto('accounts')
      .values({ userId, comments, createdAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  };

  beforeAll(async () => {
    const bossId = await ctx.createUser('boss', 'boss-pass', 'admin');
    annaId = await ctx.createUser('anna', 'anna-pass');
    ivanId = await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    acc.a1 = await account(annaId, 'Anna cats');
    acc.a2 = await account(annaId, '  ');
    acc.a3 = await account(annaId, 'Anna dogs 100%');
    acc.i1 = await account(ivanId, 'Ivan main');
    acc.b1 = await account(bossId, 'Boss own');
  });

  it('needs a signed-in user', async () => {
    const r = await ctx.call({ method: 'GET', url: '/api/accounts-group' });
    expect(r.status).toBe(401);
    expect((await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0' })).status).toBe(401);
  });

  it('validates name and accounts with the SPEC §5 messages', async () => {
    let r = await ctx.call({ method: 'POST', url: '/api/accounts-group', token: anna, payload: {} });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова", accounts: 'Мінімум один профіль' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: '   ', accounts: [] },
    });
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова", accounts: 'Мінімум один профіль' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'x'.repeat(101), accounts: [acc.a1] },
    });
    expect(r.body.errors).toEqual({ name: 'Занадто довго!' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'G', accounts: ['abc', -1] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ accounts: 'Невірний ідентифікатор' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'G', accounts: 'nope' },
    });
    expect(r.body.errors).toEqual({ accounts: 'Мінімум один профіль' });
    // English on request.
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: {},
      headers: { 'accept-language': 'en' },
    });
    expect(r.body.errors).toEqual({ name: 'Name is required', accounts: 'At least one profile' });
  });

  it('creates, lists, reads, updates and deletes a group', async () => {
    let r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: ' Cats ', accounts: [acc.a3, acc.a1, String(acc.a1)] },
    });
    expect(r.status).toBe(201);
    const id = r.body.id;
    expect(r.body).toMatchObject({
      id,
      name: 'Cats',
      accounts: [
        { id: acc.a1, title: 'Anna cats', value: acc.a1 },
        { id: acc.a3, title: 'Anna dogs 100%', value: acc.a3 },
      ],
      user: { id: annaId, login: 'anna' },
    });

    r = await ctx.call({ method: 'GET', url: '/api/accounts-group?page=1', token: anna });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, total: 1, totalPages: 1 });
    expect(r.body.data).toEqual([{ id, name: 'Cats', accountsCount: 2, user: { id: annaId, login: 'anna' } }]);

    r = await ctx.call({ method: 'GET', url: `/api/accounts-group/${id}`, token: anna });
    expect(r.body.accounts.map((a: any) => a.value)).toEqual([acc.a1, acc.a3]);

    // PATCH with both fields, then with just the name (the members stay).
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts-group/${id}`,
      token: anna,
      payload: { name: 'Cats 2', accounts: [{ id: acc.a2, title: 'x', value: acc.a2 }] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Cats 2', accounts: [{ id: acc.a2, title: `#${acc.a2}`, value: acc.a2 }] });
    r = await ctx.call({ method: 'PATCH', url: `/api/accounts-group/${id}`, token: anna, payload: { name: 'Cats 3' } });
    expect(r.body).toMatchObject({ name: 'Cats 3', accounts: [{ id: acc.a2 }] });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts-group/${id}`,
      token: anna,
      payload: { name: '', accounts: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова", accounts: 'Мінімум один профіль' });

    r = await ctx.call({ method: 'DELETE', url: `/api/accounts-group/${id}`, token: anna });
    expect(r.status).toBe(200);
    expect((await ctx.call({ method: 'GET', url: `/api/accounts-group/${id}`, token: anna })).status).toBe(404);
    // The profiles themselves stay.
    const left = await ctx.tdb.db.selectFrom('accounts').select('id').where('id', 'in', [acc.a2, acc.a3]).execute();
    expect(left).toHaveLength(2);
  });

  it("keeps users apart: another user's group by id is a 404 and their profiles cannot be added", async () => {
    const mine = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'Anna G', accounts: [acc.a1] },
    });
    const id = mine.body.id;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'Hacked' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await ctx.call({ method, url: `/api/accounts-group/${id}`, token: ivan, payload });
      expect(r.status, method).toBe(404);
      expect(r.body).toEqual({ message: 'Не знайдено', statusCode: 404 });
    }
    expect((await ctx.call({ method: 'GET', url: `/api/accounts/search?groupId=${id}`, token: ivan })).status).toBe(
      404,
    );
    const list = await ctx.call({ method: 'GET', url: '/api/accounts-group', token: ivan });
    expect(list.body.data.map((g: any) => g.id)).not.toContain(id);

    // Ivan cannot put Anna's profile (or a missing one) in his group; nor Anna Ivan's, even by PATCH.
    let r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: ivan,
      payload: { name: 'Steal', accounts: [acc.i1, acc.a1] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ accounts: 'Профіль не знайдено або він вам недоступний' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: ivan,
      payload: { name: 'Ghost', accounts: [999999] },
    });
    expect(r.body.errors).toEqual({ accounts: 'Профіль не знайдено або він вам недоступний' });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts-group/${id}`,
      token: anna,
      payload: { accounts: [acc.i1] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ accounts: 'Профіль не знайдено або він вам недоступний' });
    expect(
      (await ctx.call({ method: 'GET', url: `/api/accounts-group/${id}`, token: anna })).body.accounts.map(
        (a: any) => a.id,
      ),
    ).toEqual([acc.a1]);

    // The name stayed too.
    expect((await ctx.call({ method: 'GET', url: `/api/accounts-group/${id}`, token: anna })).body.name).toBe('Anna G');
    await ctx.call({ method: 'DELETE', url: `/api/accounts-group/${id}`, token: anna });
  });

  it('lets an admin see and change every group, keeping a user group to its owner profiles', async () => {
    const g = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'For admin', accounts: [acc.a1] },
    });
    let r = await ctx.call({ method: 'GET', url: '/api/accounts-group', token: admin });
    expect(r.body.data.map((x: any) => x.id)).toContain(g.body.id);
    r = await ctx.call({ method: 'GET', url: `/api/accounts-group/${g.body.id}`, token: admin });
    expect(r.status).toBe(200);
    // Anna's group may only hold Anna's profiles, even when an admin edits it.
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts-group/${g.body.id}`,
      token: admin,
      payload: { accounts: [acc.b1] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ accounts: 'Профіль не знайдено або він вам недоступний' });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts-group/${g.body.id}`,
      token: admin,
      payload: { accounts: [acc.a1, acc.a3] },
    });
    expect(r.status).toBe(200);
    // The admin's own group may hold anyone's profiles.
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: admin,
      payload: { name: 'Mixed', accounts: [acc.b1, acc.i1, acc.a2] },
    });
    expect(r.status).toBe(201);
    expect(r.body.user).toEqual({ id: expect.any(Number), login: 'boss' });
    // Anna never sees the admin's group.
    expect((await ctx.call({ method: 'GET', url: `/api/accounts-group/${r.body.id}`, token: anna })).status).toBe(404);
    r = await ctx.call({ method: 'DELETE', url: `/api/accounts-group/${g.body.id}`, token: admin });
    expect(r.status).toBe(200);
  });

  it('offers select options through /api/accounts/search?groupId', async () => {
    let r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0', token: anna });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: acc.a1, title: 'Anna cats', value: acc.a1, comments: 'Anna cats', handles: [], failing: false },
      { id: acc.a2, title: `#${acc.a2}`, value: acc.a2, comments: '  ', handles: [], failing: false },
      { id: acc.a3, title: 'Anna dogs 100%', value: acc.a3, comments: 'Anna dogs 100%', handles: [], failing: false },
    ]);
    r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0', token: ivan });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.i1]);
    // The admin gets every profile.
    r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0', token: admin });
    expect(r.body.map((o: any) => o.id)).toEqual(expect.arrayContaining([acc.a1, acc.a2, acc.a3, acc.i1, acc.b1]));

    // Text filter: part of the comment (case-insensitive, % taken literally) or the id.
    r = await ctx.call({
      method: 'GET',
      url: `/api/accounts/search?groupId=0&q=${encodeURIComponent('DOGS')}`,
      token: anna,
    });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.a3]);
    r = await ctx.call({
      method: 'GET',
      url: `/api/accounts/search?groupId=0&q=${encodeURIComponent('100%')}`,
      token: anna,
    });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.a3]);
    r = await ctx.call({
      method: 'GET',
      url: `/api/accounts/search?groupId=0&q=${encodeURIComponent('%')}`,
      token: anna,
    });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.a3]);
    r = await ctx.call({
      method: 'GET',
      url: `/api/accounts/search?groupId=0&q=${encodeURIComponent('#' + acc.a2)}`,
      token: anna,
    });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.a2]);
    r = await ctx.call({
      method: 'GET',
      url: `/api/accounts/search?groupId=0&q=${encodeURIComponent('Ivan')}`,
      token: anna,
    });
    expect(r.body).toEqual([]);

    // An existing group: its owner's profiles, members always included even when filtered out.
    const g = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'Search', accounts: [acc.a2] },
    });
    r = await ctx.call({ method: 'GET', url: `/api/accounts/search?groupId=${g.body.id}&q=cats`, token: anna });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.a1, acc.a2]);
    // An admin editing Anna's group is offered Anna's profiles only.
    r = await ctx.call({ method: 'GET', url: `/api/accounts/search?groupId=${g.body.id}`, token: admin });
    expect(r.body.map((o: any) => o.id)).toEqual([acc.a1, acc.a2, acc.a3]);

    // Bad input is a 400, never a 500.
    r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=abc', token: anna });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ groupId: 'Невірний ідентифікатор' });
    r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=999999', token: anna });
    expect(r.status).toBe(404);
    r = await ctx.call({ method: 'GET', url: `/api/accounts/search?groupId=0&q=${'x'.repeat(101)}`, token: anna });
    expect(r.status).toBe(400);
  });

  it('drops a deleted profile from its groups (cascade)', async () => {
    const extra = await account(annaId, 'Temp');
    const g = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: anna,
      payload: { name: 'Cascade', accounts: [acc.a1, extra] },
    });
    expect(g.body.accounts).toHaveLength(2);
    await ctx.tdb.db.deleteFrom('accounts').where('id', '=', extra).execute();
    const r = await ctx.call({ method: 'GET', url: `/api/accounts-group/${g.body.id}`, token: anna });
    expect(r.body.accounts.map((a: any) => a.id)).toEqual([acc.a1]);
    const list = await ctx.call({ method: 'GET', url: '/api/accounts-group', token: anna });
    expect(list.body.data.find((x: any) => x.id === g.body.id).accountsCount).toBe(1);
  });

  it('rejects bad ids and pages with a 400', async () => {
    let r = await ctx.call({ method: 'GET', url: '/api/accounts-group/abc', token: anna });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ id: 'Невірний ідентифікатор' });
    r = await ctx.call({ method: 'GET', url: '/api/accounts-group?page=0', token: anna });
    expect(r.status).toBe(400);
    r = await ctx.call({ method: 'PATCH', url: '/api/accounts-group/999999', token: anna, payload: { name: 'x' } });
    expect(r.status).toBe(404);
  });

  it('pages the list', async () => {
    for (let i = 0; i < 11; i++)
      await ctx.call({
        method: 'POST',
        url: '/api/accounts-group',
        token: ivan,
        payload: { name: `P${i}`, accounts: [acc.i1] },
      });
    let r = await ctx.call({ method: 'GET', url: '/api/accounts-group', token: ivan });
    expect(r.body).toMatchObject({ page: 1, totalPages: 2, total: 11 });
    expect(r.body.data).toHaveLength(10);
    r = await ctx.call({ method: 'GET', url: '/api/accounts-group?page=2', token: ivan });
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].user).toEqual({ id: ivanId, login: 'ivan' });
  });

  it('finds profiles by a Cyrillic comment in any letter case, and refuses out-of-range ids as input', async () => {
    const kyiv = await account(ivanId, 'Київ Ранок');
    for (const q of ['київ', 'КИЇВ', 'ранок']) {
      const r = await ctx.call({
        method: 'GET',
        url: `/api/accounts/search?groupId=0&q=${encodeURIComponent(q)}`,
        token: ivan,
      });
      expect(
        r.body.map((o: any) => o.id),
        q,
      ).toEqual([kyiv]);
    }
    // A connected profile is titled and found by its channel name, as in the profile list.
    const channel = await account(ivanId, null);
    await ctx.tdb.db.updateTable('accounts').set({ titleChannel: 'Шортси Кадру' }).where('id', '=', channel).execute();
    const found = await ctx.call({
      method: 'GET',
      url: `/api/accounts/search?groupId=0&q=${encodeURIComponent('кадру')}`,
      token: ivan,
    });
    expect(found.body).toEqual([expect.objectContaining({ id: channel, title: 'Шортси Кадру', value: channel })]);
    const listed = await ctx.call({ method: 'GET', url: '/api/accounts', token: ivan });
    expect(listed.body.data.find((a: any) => a.id === channel).name).toBe('Шортси Кадру');
    // Past PostgreSQL's 32-bit ids: names nothing; a 400 naming the field, not a 500.
    const big = '3000000000';
    let r = await ctx.call({ method: 'GET', url: `/api/accounts/search?groupId=0&q=%23${big}`, token: ivan });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    r = await ctx.call({ method: 'GET', url: `/api/accounts/search?groupId=${big}`, token: ivan });
    expect(r.status).toBe(400);
    r = await ctx.call({ method: 'GET', url: `/api/accounts-group/${big}`, token: ivan });
    expect(r).toMatchObject({ status: 400, body: { errors: { id: expect.any(String) } } });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: ivan,
      payload: { name: 'Big', accounts: [Number(big)] },
    });
    expect(r).toMatchObject({ status: 400, body: { errors: { accounts: expect.any(String) } } });
    r = await ctx.call({ method: 'GET', url: `/api/accounts/${big}`, token: ivan });
    expect(r).toMatchObject({ status: 400, body: { errors: { id: expect.any(String) } } });
  });
});
