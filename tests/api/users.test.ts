import { describeEachDb } from '../helpers/app';

describeEachDb('users API', (ctx) => {
  let admin: { authorization: string };
  let adminId: number;
  let user: { authorization: string };
  let userId: number;

  beforeAll(async () => {
    adminId = await ctx.createUser('root', 'root-pass', 'admin');
    userId = await ctx.createUser('worker', 'worker-pass');
    admin = (await ctx.login('root', 'root-pass')).headers;
    user = (await ctx.login('worker', 'worker-pass')).headers;
  });

  it('lists users in the page envelope with their counts', async () => {
    // A user of its own, so the counts do not depend on what other tests did to theirs.
    const countedId = await ctx.createUser('counted', 'counted-pass');
    const at = new Date().toISOString();
    const acc = await ctx.tdb.db
      .insertInto('accounts')
      .values({ userId: countedId, createdAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.tdb.db
      .insertInto('videos')
      .values([
        { userId: countedId, accountId: acc.id, createdAt: at },
        { userId: countedId, accountId: null, createdAt: at },
      ])
      .execute();
    const logins = (await ctx.tdb.db.selectFrom('users').select('login').execute()).map((u) => u.login);
    const r = await ctx.call({ method: 'GET', url: '/api/users?page=1', token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, totalPages: 1, total: logins.length });
    expect(r.body.data.map((u: any) => u.login).sort()).toEqual(logins.sort());
    const counted = r.body.data.find((u: any) => u.login === 'counted');
    expect(counted).toMatchObject({ id: countedId, role: 'user', videosCount: 2, accountsCount: 1 });
    expect(counted.passwordHash).toBeUndefined();
    const accounts = await ctx.call({ method: 'GET', url: `/api/users/${countedId}/account?page=1`, token: admin });
    expect(accounts.body).toMatchObject({ total: 1, totalPages: 1, page: 1 });
    const videos = await ctx.call({ method: 'GET', url: `/api/users/${countedId}/video?page=1`, token: admin });
    expect(videos.body.total).toBe(2);
    const empty = await ctx.call({ method: 'GET', url: `/api/users/${adminId}/video?page=1`, token: admin });
    expect(empty.body).toEqual({ data: [], page: 1, totalPages: 0, total: 0 });
  });

  it('is admin-only: a user gets 403 everywhere, a stranger 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', `/api/users/${adminId}`],
      ['POST', '/api/users'],
      ['PATCH', `/api/users/${adminId}`],
      ['DELETE', `/api/users/${adminId}`],
      ['GET', `/api/users/${userId}/video`],
    ] as const) {
      const r = await ctx.call({
        method,
        url,
        token: user,
        payload: method === 'POST' || method === 'PATCH' ? { login: 'hack', password: 'hacked-1' } : undefined,
      });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.message).toBe('Недостатньо прав');
      expect((await ctx.call({ method, url })).status).toBe(401);
    }
  });

  it('creates, reads, updates and deletes a user', async () => {
    const c = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'newbie', password: 'newbie-pass' },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ login: 'newbie', role: 'user', videosCount: 0, accountsCount: 0 });
    const id = c.body.id;
    expect((await ctx.call({ method: 'GET', url: `/api/users/${id}`, token: admin })).body.login).toBe('newbie');
    const session = await ctx.login('newbie', 'newbie-pass');
    const refresh = (refreshToken: string) =>
      ctx.call({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    // The form sends the password on every save: the same password keeps the user's sessions.
    expect(
      (
        await ctx.call({
          method: 'PATCH',
          url: `/api/users/${id}`,
          token: admin,
          payload: { login: 'newbie', password: 'newbie-pass' },
        })
      ).status,
    ).toBe(200);
    const kept = await refresh(session.refreshToken);
    expect(kept.status).toBe(200);
    // A new password ends them.
    const u = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: admin,
      payload: { login: 'renamed', password: 'other-pass' },
    });
    expect(u.status).toBe(200);
    expect(u.body.login).toBe('renamed');
    expect((await refresh(kept.body.refreshToken)).status).toBe(401);
    await ctx.login('renamed', 'other-pass');
    const d = await ctx.call({ method: 'DELETE', url: `/api/users/${id}`, token: admin });
    expect(d.status).toBe(200);
    expect((await ctx.call({ method: 'GET', url: `/api/users/${id}`, token: admin })).status).toBe(404);
  });

  it('validates every field with the spec messages', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: '', password: '12345' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ login: 'Обовʼязкове до заповнення', password: 'Занадто коротко!' });
    const long = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'x'.repeat(51), password: 'y'.repeat(51) },
    });
    expect(long.body.errors).toEqual({ login: 'Занадто довго!', password: 'Занадто довго!' });
    const role = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'good', password: 'good-pass', role: 'god' },
    });
    expect(role.status).toBe(400);
    expect(Object.keys(role.body.errors)).toEqual(['role']);
    // Editing: a password that is sent is checked as on create.
    const edit = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${userId}`,
      token: admin,
      payload: { login: 'worker', password: 'abc' },
    });
    expect(edit.body.errors).toEqual({ password: 'Занадто коротко!' });
  });

  it('renames a user without a password (issue 18): missing or empty keeps the password and the sessions', async () => {
    const id = await ctx.createUser('keeper', 'keeper-pass');
    const session = await ctx.login('keeper', 'keeper-pass');
    for (const [login, payload] of [
      ['keeper2', { login: 'keeper2' }],
      ['keeper3', { login: 'keeper3', password: '' }],
    ] as const) {
      const r = await ctx.call({ method: 'PATCH', url: `/api/users/${id}`, token: admin, payload });
      expect(r.status).toBe(200);
      expect(r.body.login).toBe(login);
    }
    expect((await ctx.call({ method: 'GET', url: '/api/auth/me', token: session.headers })).status).toBe(200);
    expect((await ctx.login('keeper3', 'keeper-pass')).userId).toBe(id);
    // A new password still replaces the old one and ends the user's sessions.
    const changed = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: admin,
      payload: { login: 'keeper3', password: 'fresh-pass' },
    });
    expect(changed.status).toBe(200);
    expect((await ctx.call({ method: 'GET', url: '/api/auth/me', token: session.headers })).status).toBe(401);
    expect((await ctx.login('keeper3', 'fresh-pass')).userId).toBe(id);
  });

  it('refuses a multipart body (only upload routes take one) with 415 and stores nothing', async () => {
    const boundary = 'kadrUsers';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="login"\r\n\r\nformuser\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nform-pass\r\n--${boundary}--\r\n`;
    const r = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ statusCode: 415, message: expect.any(String) });
    expect(await ctx.tdb.db.selectFrom('users').select('id').where('login', '=', 'formuser').execute()).toEqual([]);
  });

  it('refuses a NUL character in any field with a 400 naming it (PostgreSQL cannot store one)', async () => {
    let r = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'a\u0000b', password: 'secret-pass' },
    });
    expect(r).toMatchObject({ status: 400, body: { errors: { login: 'Невірне значення' } } });
    r = await ctx.call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'root', password: 'root\u0000pass' },
    });
    expect(r).toMatchObject({ status: 400, body: { errors: { password: 'Невірне значення' } } });
    r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0&q=a%00b', token: admin });
    expect(r).toMatchObject({ status: 400, body: { errors: { q: 'Невірне значення' } } });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: admin,
      payload: { proxy: 'http://127.0.0.1:3128', comments: 'x\u0000' },
    });
    expect(r).toMatchObject({ status: 400, body: { errors: { comments: 'Невірне значення' } } });
  });

  it('keeps logins unique', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'worker', password: 'whatever-1' },
    });
    expect(r.status).toBe(409);
    expect(r.body.errors.login).toBe('Такий логін уже існує');
    const rename = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${adminId}`,
      token: admin,
      payload: { login: 'worker', password: 'root-pass', role: 'admin' },
    });
    expect(rename.status).toBe(409);
  });
});

describeEachDb('users API: the last admin', (ctx) => {
  it('refuses to delete yourself or the last admin, with a clear message', async () => {
    // A database of its own: this test deletes an admin.
    const adminId = await ctx.createUser('root', 'root-pass', 'admin');
    const admin = (await ctx.login('root', 'root-pass')).headers;
    const self = await ctx.call({ method: 'DELETE', url: `/api/users/${adminId}`, token: admin });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('Не можна видалити самого себе');
    const second = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'admin2', password: 'admin2-pass', role: 'admin' },
    });
    const admin2 = (await ctx.login('admin2', 'admin2-pass')).headers;
    // root can be deleted by admin2 while two admins exist; afterwards admin2 is the last one.
    const demote = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${second.body.id}`,
      token: admin2,
      payload: { login: 'admin2', password: 'admin2-pass', role: 'user' },
    });
    expect(demote.status).toBe(409);
    expect((await ctx.call({ method: 'DELETE', url: `/api/users/${adminId}`, token: admin2 })).status).toBe(200);
    const last = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${second.body.id}`,
      token: admin2,
      payload: { login: 'admin2', password: 'admin2-pass', role: 'user' },
    });
    expect(last.body.message).toBe('Не можна зняти роль з останнього адміністратора');
  });
});

describeEachDb('users API input edges', (ctx) => {
  it('answers bad ids and pages with 400 naming the field, unknown ids with 404', async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    const admin = (await ctx.login('boss', 'boss-pass')).headers;
    const badId = await ctx.call({ method: 'GET', url: '/api/users/abc', token: admin });
    expect(badId.status).toBe(400);
    expect(Object.keys(badId.body.errors)).toEqual(['id']);
    const badPage = await ctx.call({ method: 'GET', url: '/api/users?page=-1', token: admin });
    expect(badPage.status).toBe(400);
    expect(Object.keys(badPage.body.errors)).toEqual(['page']);
    expect((await ctx.call({ method: 'GET', url: '/api/users/99999', token: admin })).status).toBe(404);
    const beyond = await ctx.call({ method: 'GET', url: '/api/users?page=50', token: admin });
    expect(beyond.body).toMatchObject({ data: [], page: 50, total: 1, totalPages: 1 });
  });
});
