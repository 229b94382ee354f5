import { describeEachDb } from '../helpers/app';

describeEachDb('auth API', (ctx) => {
  beforeAll(async () => {
    await ctx.createUser('boss', 'secret-1', 'admin');
    await ctx.createUser('olena', 'secret-2');
  });

  it('signs in and returns the user with both tokens', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'olena', password: 'secret-2' },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ id: expect.any(Number), login: 'olena', role: 'user' });
    expect(r.body.accessToken).toMatch(/^ey/);
    expect(r.body.refreshToken.length).toBeGreaterThan(30);
    const me = await ctx.call({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${r.body.accessToken}` },
    });
    expect(me.body.login).toBe('olena');
  });

  it('refuses a wrong password with 401 and a message', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'boss', password: 'wrong-pass' },
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ statusCode: 401, message: 'Невірний логін або пароль' });
  });

  it('names each bad field, in the language asked for', async () => {
    const r = await ctx.call({ method: 'POST', url: '/api/auth/login', payload: { login: 'a', password: '' } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ login: 'Занадто коротко!', password: 'Обовʼязкове до заповнення' });
    const en = await ctx.call({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'en' },
      payload: { login: 'x'.repeat(51) },
    });
    expect(en.body.errors).toEqual({ login: 'Too long!', password: 'Required' });
  });

  it('rejects a body that is not JSON or not an object without a 500', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(r.status).toBe(400);
    const arr = await ctx.call({ method: 'POST', url: '/api/auth/login', payload: [1, 2] as any });
    expect(arr.status).toBe(400);
  });

  it('rotates the refresh token; reusing a rotated one revokes the whole family', async () => {
    const first = await ctx.login('olena', 'secret-2');
    const r1 = await ctx.call({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: first.refreshToken },
    });
    expect(r1.status).toBe(200);
    expect(r1.body.accessToken).toMatch(/^ey/);
    expect(r1.body.refreshToken).not.toBe(first.refreshToken);
    // The old token again once the tabs' grace has passed: refused, and the new one dies with it.
    await ctx.tdb.db
      .updateTable('refreshTokens')
      .set({ replacedAt: new Date(Date.now() - 60_000).toISOString() })
      .where('replacedAt', 'is not', null)
      .execute();
    const reuse = await ctx.call({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: first.refreshToken },
    });
    expect(reuse.status).toBe(401);
    const after = await ctx.call({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: r1.body.refreshToken },
    });
    expect(after.status).toBe(401);
  });

  it('logout revokes the refresh token', async () => {
    const s = await ctx.login('olena', 'secret-2');
    const out = await ctx.call({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: s.refreshToken } });
    expect(out.status).toBe(204);
    const r = await ctx.call({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: s.refreshToken } });
    expect(r.status).toBe(401);
  });

  it('refuses an unknown refresh token and a missing one', async () => {
    expect(
      (await ctx.call({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: 'nope' } })).status,
    ).toBe(401);
    const missing = await ctx.call({ method: 'POST', url: '/api/auth/refresh', payload: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.refreshToken).toBe('Обовʼязкове до заповнення');
  });

  it('requires a valid bearer token', async () => {
    expect((await ctx.call({ method: 'GET', url: '/api/auth/me' })).status).toBe(401);
    expect(
      (await ctx.call({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer garbage' } })).status,
    ).toBe(401);
  });

  it('changes your own password after checking the current one', async () => {
    await ctx.createUser('petro', 'old-pass');
    const s = await ctx.login('petro', 'old-pass');
    const wrong = await ctx.call({
      method: 'POST',
      url: '/api/auth/password',
      token: s.headers,
      payload: { currentPassword: 'nope-nope', newPassword: 'new-pass', repeatPassword: 'new-pass' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.currentPassword).toBe('Невірний поточний пароль');
    const mismatch = await ctx.call({
      method: 'POST',
      url: '/api/auth/password',
      token: s.headers,
      payload: { currentPassword: 'old-pass', newPassword: 'new-pass', repeatPassword: 'other' },
    });
    expect(mismatch.body.errors.repeatPassword).toBe('Паролі не збігаються');
    const elsewhere = await ctx.login('petro', 'old-pass'); // the same person signed in on another device
    const ok = await ctx.call({
      method: 'POST',
      url: '/api/auth/password',
      token: s.headers,
      payload: {
        currentPassword: 'old-pass',
        newPassword: 'new-pass',
        repeatPassword: 'new-pass',
        refreshToken: s.refreshToken,
      },
    });
    expect(ok.status).toBe(204);
    await expect(ctx.login('petro', 'old-pass')).rejects.toThrow();
    await ctx.login('petro', 'new-pass');
    // The other session ends; the one that changed the password goes on.
    const refresh = (refreshToken: string) =>
      ctx.call({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    expect((await refresh(elsewhere.refreshToken)).status).toBe(401);
    expect((await refresh(s.refreshToken)).status).toBe(200);
  });

  it('locks a login after repeated failures with a clear message', async () => {
    await ctx.createUser('target', 'right-pass');
    for (let i = 0; i < 5; i++) {
      const r = await ctx.call({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: 'target', password: `wrong-${i}` },
      });
      expect(r.status).toBe(401);
    }
    const locked = await ctx.call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'target', password: 'right-pass' },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Забагато невдалих спроб входу. Спробуйте знову через \d+ хв\./);
  });

  it('locks an address after ten times as many failures across logins; X-Forwarded-For does not move it by default', async () => {
    await ctx.createUser('office', 'office-pass');
    const from = (remoteAddress: string, login: string, password: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, headers, payload: { login, password } });
    // 50 failures from one address, each login only 2 times (below its own limit of 5); a spoofed header changes nothing.
    for (let i = 0; i < 50; i++) {
      const r = await from('203.0.113.7', `guess-${Math.floor(i / 2)}`, 'wrong-pass', {
        'x-forwarded-for': `198.51.100.${i}`,
      });
      expect(r.statusCode).toBe(401);
    }
    const locked = await from('203.0.113.7', 'office', 'office-pass', { 'x-forwarded-for': '198.51.100.200' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Спробуйте знову через \d+ хв\./);
    // Another address of the same office login is not locked.
    expect((await from('203.0.113.8', 'office', 'office-pass')).statusCode).toBe(200);
  });
});
