import { describeEachDb } from '../helpers/app';
import { SESSION_CACHE_MS, SessionCache } from '../../server/auth/session-cache';

/** Issue 9 item 1: role and session changes take effect on the next request, not when the access token expires. */
describeEachDb('live sessions', (ctx) => {
  let root: { authorization: string };
  beforeAll(async () => {
    await ctx.createUser('root', 'root-pass', 'admin');
    root = (await ctx.login('root', 'root-pass')).headers;
  });
  const me = (token: { authorization: string }) => ctx.call({ method: 'GET', url: '/api/auth/me', token });

  it("a demoted admin's old token is a user's on the next request: creating a user is a 403", async () => {
    const id = await ctx.createUser('deputy', 'deputy-pass', 'admin');
    const deputy = (await ctx.login('deputy', 'deputy-pass')).headers;
    expect(
      (
        await ctx.call({
          method: 'POST',
          url: '/api/users',
          token: deputy,
          payload: { login: 'made-1', password: 'made-pass' },
        })
      ).status,
    ).toBe(201);
    const demote = await ctx.call({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: root,
      payload: { login: 'deputy', password: 'deputy-pass', role: 'user' },
    });
    expect(demote.status).toBe(200);
    const again = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: deputy,
      payload: { login: 'made-2', password: 'made-pass' },
    });
    expect(again.status).toBe(403);
    expect((await me(deputy)).body).toMatchObject({ login: 'deputy', role: 'user' });
    // Promoted back: the same token is an admin's again.
    await ctx.call({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: root,
      payload: { login: 'deputy', password: 'deputy-pass', role: 'admin' },
    });
    expect((await ctx.call({ method: 'GET', url: '/api/users', token: deputy })).status).toBe(200);
  });

  it("a deleted user's token is a 401 on reads and writes, never a 500", async () => {
    const id = await ctx.createUser('leaver', 'leaver-pass');
    const leaver = (await ctx.login('leaver', 'leaver-pass')).headers;
    expect((await me(leaver)).status).toBe(200);
    expect((await ctx.call({ method: 'DELETE', url: `/api/users/${id}`, token: root })).status).toBe(200);
    expect((await me(leaver)).status).toBe(401);
    expect((await ctx.call({ method: 'GET', url: '/api/tags', token: leaver })).status).toBe(401);
    const write = await ctx.call({
      method: 'POST',
      url: '/api/tags',
      token: leaver,
      payload: { name: 'after-delete', tags: ['a'] },
    });
    expect(write.status).toBe(401);
    const group = await ctx.call({ method: 'POST', url: '/api/accounts-group', token: leaver, payload: { name: 'g' } });
    expect(group.status).toBe(401);
  });

  it('a token after logout is a 401', async () => {
    await ctx.createUser('visitor', 'visitor-pass');
    const s = await ctx.login('visitor', 'visitor-pass');
    expect((await me(s.headers)).status).toBe(200);
    expect(
      (await ctx.call({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: s.refreshToken } })).status,
    ).toBe(204);
    expect((await me(s.headers)).status).toBe(401);
  });

  it("a password change ends the user's other sessions at once; the session that changed it goes on", async () => {
    await ctx.createUser('mover', 'mover-pass');
    const here = await ctx.login('mover', 'mover-pass');
    const elsewhere = await ctx.login('mover', 'mover-pass');
    const r = await ctx.call({
      method: 'POST',
      url: '/api/auth/password',
      token: here.headers,
      payload: {
        currentPassword: 'mover-pass',
        newPassword: 'moved-pass',
        repeatPassword: 'moved-pass',
        refreshToken: here.refreshToken,
      },
    });
    expect(r.status).toBe(204);
    expect((await me(elsewhere.headers)).status).toBe(401);
    expect((await me(here.headers)).status).toBe(200);
  });

  it("an admin setting a user's password ends that user's sessions at once", async () => {
    const id = await ctx.createUser('reset-me', 'reset-pass');
    const s = await ctx.login('reset-me', 'reset-pass');
    await ctx.call({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: root,
      payload: { login: 'reset-me', password: 'fresh-pass' },
    });
    expect((await me(s.headers)).status).toBe(401);
  });

  it('a signed token without a session, or of a session of another user, is a 401', async () => {
    const id = await ctx.createUser('plain', 'plain-pass');
    const other = await ctx.login('root', 'root-pass');
    const sid = JSON.parse(Buffer.from(other.accessToken.split('.')[1], 'base64url').toString()).sid as string;
    expect(sid).toEqual(expect.any(String));
    const noSid = ctx.app.jwt.sign({ sub: id, login: 'plain', role: 'admin' } as never);
    expect((await me({ authorization: `Bearer ${noSid}` })).status).toBe(401);
    const borrowed = ctx.app.jwt.sign({ sub: id, login: 'plain', role: 'admin', sid });
    expect((await me({ authorization: `Bearer ${borrowed}` })).status).toBe(401);
  });
});

/** Issue 9 item 8, server side: two tabs refreshing with the same token at the same moment both stay signed in. */
describeEachDb('refresh grace for tabs', (ctx) => {
  beforeAll(async () => {
    await ctx.createUser('tabs', 'tabs-pass');
  });
  const refresh = (refreshToken: string) =>
    ctx.call({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });

  it('the same token refreshed twice at once returns the same successor to both, and the session lives on', async () => {
    const s = await ctx.login('tabs', 'tabs-pass');
    const [a, b] = await Promise.all([refresh(s.refreshToken), refresh(s.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    const late = await refresh(s.refreshToken); // a third tab a moment later
    expect(late.status).toBe(200);
    expect(late.body.refreshToken).toBe(a.body.refreshToken);
    expect(
      (await ctx.call({ method: 'GET', url: '/api/auth/me', token: { authorization: `Bearer ${b.body.accessToken}` } }))
        .status,
    ).toBe(200);
    const next = await refresh(a.body.refreshToken);
    expect(next.status).toBe(200);
    expect(next.body.refreshToken).not.toBe(a.body.refreshToken);
  });

  it('a rotated token presented after the grace is reuse: the whole family is revoked', async () => {
    const s = await ctx.login('tabs', 'tabs-pass');
    const first = await refresh(s.refreshToken);
    expect(first.status).toBe(200);
    // The grace has passed for the first token.
    await ctx.tdb.db
      .updateTable('refreshTokens')
      .set({ replacedAt: new Date(Date.now() - 60_000).toISOString() })
      .where('replacedAt', 'is not', null)
      .execute();
    expect((await refresh(s.refreshToken)).status).toBe(401);
    expect((await refresh(first.body.refreshToken)).status).toBe(401);
    expect(
      (
        await ctx.call({
          method: 'GET',
          url: '/api/auth/me',
          token: { authorization: `Bearer ${first.body.accessToken}` },
        })
      ).status,
    ).toBe(401);
  });
});

describe('session cache', () => {
  it('keeps a checked session for SESSION_CACHE_MS at most, per session and user; clear() forgets all', () => {
    const sessionCache = new SessionCache();
    const user = { id: 7, login: 'seven', role: 'user' as const };
    sessionCache.set('family-a', 7, user, 1_000);
    expect(sessionCache.get('family-a', 7, 1_000 + SESSION_CACHE_MS - 1)).toEqual(user);
    expect(sessionCache.get('family-a', 8, 1_000)).toBeUndefined();
    expect(sessionCache.get('family-a', 7, 1_000 + SESSION_CACHE_MS)).toBeUndefined();
    sessionCache.set('family-b', 7, user, 5_000);
    sessionCache.clear();
    expect(sessionCache.get('family-b', 7, 5_000)).toBeUndefined();
  });
});
