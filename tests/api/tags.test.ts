import { describeEachDb } from '../helpers/app';

describeEachDb('tag sets API', (ctx) => {
  let admin: { authorization: string };
  let anna: { authorization: string };
  let ivan: { authorization: string };
  let annaId: number;

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    annaId = await ctx.createUser('anna', 'anna-pass');
    await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
  });

  it('needs a signed-in user', async () => {
    expect((await ctx.call({ method: 'GET', url: '/api/tags' })).status).toBe(401);
    expect((await ctx.call({ method: 'POST', url: '/api/tags', payload: { name: 'x', tags: ['a'] } })).status).toBe(
      401,
    );
  });

  it('validates name and tags with the SPEC §5 messages', async () => {
    let r = await ctx.call({ method: 'POST', url: '/api/tags', token: anna, payload: {} });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова", tags: 'Мінімум один тег' });
    // Tags that normalise to nothing count as none.
    r = await ctx.call({ method: 'POST', url: '/api/tags', token: anna, payload: { name: '  ', tags: ['  ', ''] } });
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова", tags: 'Мінімум один тег' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: anna,
      payload: { name: 'N', tags: ['x'.repeat(101)] },
    });
    expect(r.body.errors).toEqual({ tags: 'Занадто довго!' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: anna,
      payload: { name: 'N', tags: Array.from({ length: 201 }, (_, i) => `t${i}`) },
    });
    expect(r.body.errors).toEqual({ tags: 'Забагато тегів' });
    r = await ctx.call({ method: 'POST', url: '/api/tags', token: anna, payload: { name: 'N', tags: 'not-a-list' } });
    expect(r.body.errors).toEqual({ tags: 'Мінімум один тег' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: anna,
      payload: {},
      headers: { 'accept-language': 'en' },
    });
    expect(r.body.errors).toEqual({ name: 'Name is required', tags: 'At least one tag' });
  });

  it('normalises tags on the server: lowercase, trimmed, de-duplicated, no empties', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: anna,
      payload: { name: ' Travel ', tags: [' Sea ', 'SEA', 'sun', '', '  ', 'Сонце', 'СОНЦЕ', 42] },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Travel',
      tags: ['sea', 'sun', 'сонце', '42'],
      user: { id: annaId, login: 'anna' },
    });
    const p = await ctx.call({
      method: 'PATCH',
      url: `/api/tags/${r.body.id}`,
      token: anna,
      payload: { tags: ['B', 'a', 'b '] },
    });
    expect(p.body.tags).toEqual(['b', 'a']);
    await ctx.call({ method: 'DELETE', url: `/api/tags/${r.body.id}`, token: anna });
  });

  it('stores a lone UTF-16 surrogate as U+FFFD on either database, in a tag and in the name', async () => {
    // JSON.stringify writes a lone surrogate as a \\uD800 escape, as a client sending one does.
    const send = (method: 'POST' | 'PATCH', url: string, body: object) =>
      ctx.call({
        method,
        url,
        token: anna,
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    const r = await send('POST', '/api/tags', { name: 'Lone \ud800 high', tags: ['a\udc00b', 'ok\ud83d\ude00'] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ name: 'Lone \ufffd high', tags: ['a\ufffdb', 'ok\ud83d\ude00'] });
    const p = await send('PATCH', `/api/tags/${r.body.id}`, { tags: ['x\ud800'] });
    expect(p.body.tags).toEqual(['x\ufffd']);
    const row = await ctx.tdb.db
      .selectFrom('tagSets')
      .select(['name', 'tags'])
      .where('id', '=', r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Lone \ufffd high');
    expect(JSON.parse(String(row.tags))).toEqual(['x\ufffd']);
    expect(row.name.isWellFormed()).toBe(true);
    const read = await ctx.call({ method: 'GET', url: `/api/tags/${r.body.id}`, token: anna });
    expect(read.body).toMatchObject({ name: 'Lone \ufffd high', tags: ['x\ufffd'] });
    await ctx.call({ method: 'DELETE', url: `/api/tags/${r.body.id}`, token: anna });
  });

  it('creates, lists, reads, updates and deletes a tag set', async () => {
    let r = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: anna,
      payload: { name: 'Cats', tags: ['cat', 'kitten'] },
    });
    const id = r.body.id;
    r = await ctx.call({ method: 'GET', url: '/api/tags?page=1', token: anna });
    expect(r.body).toMatchObject({ page: 1, total: 1, totalPages: 1 });
    expect(r.body.data).toEqual([expect.objectContaining({ id, name: 'Cats', tags: ['cat', 'kitten'] })]);
    r = await ctx.call({ method: 'GET', url: `/api/tags/${id}`, token: anna });
    expect(r.body).toMatchObject({ id, name: 'Cats', tags: ['cat', 'kitten'] });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/tags/${id}`,
      token: anna,
      payload: { name: 'Cats!', tags: ['meow'] },
    });
    expect(r.body).toMatchObject({ id, name: 'Cats!', tags: ['meow'] });
    r = await ctx.call({ method: 'PATCH', url: `/api/tags/${id}`, token: anna, payload: { name: 'Only name' } });
    expect(r.body).toMatchObject({ name: 'Only name', tags: ['meow'] });
    r = await ctx.call({ method: 'PATCH', url: `/api/tags/${id}`, token: anna, payload: { name: '', tags: [' '] } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова", tags: 'Мінімум один тег' });
    r = await ctx.call({ method: 'DELETE', url: `/api/tags/${id}`, token: anna });
    expect(r.status).toBe(200);
    expect((await ctx.call({ method: 'GET', url: `/api/tags/${id}`, token: anna })).status).toBe(404);
    expect((await ctx.call({ method: 'DELETE', url: `/api/tags/${id}`, token: anna })).status).toBe(404);
  });

  it("keeps users apart: another user's tag set by id is a 404, and it stays unchanged", async () => {
    const mine = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: anna,
      payload: { name: 'Private', tags: ['secret'] },
    });
    const id = mine.body.id;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'Hacked', tags: ['x'] }],
      ['DELETE', undefined],
    ] as const) {
      const r = await ctx.call({ method, url: `/api/tags/${id}`, token: ivan, payload });
      expect(r.status, method).toBe(404);
      expect(r.body).toEqual({ message: 'Не знайдено', statusCode: 404 });
    }
    const list = await ctx.call({ method: 'GET', url: '/api/tags', token: ivan });
    expect(list.body.data).toEqual([]);
    const still = await ctx.call({ method: 'GET', url: `/api/tags/${id}`, token: anna });
    expect(still.body).toMatchObject({ name: 'Private', tags: ['secret'] });

    // The admin sees and changes everyone's sets; the user never sees the admin's.
    let r = await ctx.call({ method: 'GET', url: '/api/tags', token: admin });
    expect(r.body.data.map((t: any) => t.id)).toContain(id);
    r = await ctx.call({ method: 'PATCH', url: `/api/tags/${id}`, token: admin, payload: { tags: ['Reviewed'] } });
    expect(r.body).toMatchObject({ tags: ['reviewed'], user: { id: annaId, login: 'anna' } });
    const own = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: admin,
      payload: { name: 'Admin set', tags: ['a'] },
    });
    expect((await ctx.call({ method: 'GET', url: `/api/tags/${own.body.id}`, token: anna })).status).toBe(404);
    r = await ctx.call({ method: 'DELETE', url: `/api/tags/${id}`, token: admin });
    expect(r.status).toBe(200);
  });

  it('rejects bad ids and pages with a 400, and pages the list', async () => {
    let r = await ctx.call({ method: 'GET', url: '/api/tags/1.5', token: anna });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ id: 'Невірний ідентифікатор' });
    r = await ctx.call({ method: 'GET', url: '/api/tags?page=-1', token: anna });
    expect(r.status).toBe(400);
    for (let i = 0; i < 12; i++)
      await ctx.call({ method: 'POST', url: '/api/tags', token: ivan, payload: { name: `S${i}`, tags: ['t'] } });
    r = await ctx.call({ method: 'GET', url: '/api/tags?page=2', token: ivan });
    expect(r.body).toMatchObject({ page: 2, totalPages: 2, total: 12 });
    expect(r.body.data).toHaveLength(2);
  });
});
