import { describeEachDb } from '../helpers/app';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/index';
import { aiLogin, aiProfile, aiSimulators } from './ai.fixtures';

const sims = aiSimulators();
let proxy: LocalProxy;
beforeAll(async () => {
  proxy = await startLocalProxy();
});
afterAll(async () => {
  await sims.close();
  await proxy?.close();
});

/**
 * Sessions are per owner (migration 015): whether another user has a session for an email cannot be told from a
 * login, and nobody reaches another user's session through an email they share. An admin's email names their
 * own session, else the only one; several users' sessions of it need the session id.
 */
describeEachDb(
  'AI sessions are per owner',
  (ctx) => {
    type Token = { authorization: string };
    let anna: Token;
    let ivan: Token;
    let admin: Token;
    let annaProfile: number;
    let ivanProfile: number;
    let annaShared: number;
    let ivanShared: number;
    const shared = 'shared@gpt.test';
    const post = (token: Token, path: string, payload: object, lang = 'uk') =>
      ctx.call({
        method: 'POST',
        url: `/api/ai/setting/${path}`,
        token,
        payload,
        headers: { 'accept-language': lang },
      });
    const row = (id: number) =>
      ctx.tdb.db.selectFrom('aiSessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const ids = async (token: Token) =>
      (await ctx.call({ method: 'GET', url: '/api/ai/info', token })).body.data.map((s: { id: number }) => s.id);
    /** A reply without its session id: what must not differ between a fresh email and someone else's. */
    const answer = (r: { status: number; body: Record<string, unknown> }) => {
      const { id, ...rest } = r.body;
      return { status: r.status, idType: typeof id, ...rest };
    };

    beforeAll(async () => {
      await ctx.createUser('anna', 'anna-pass');
      await ctx.createUser('ivan', 'ivan-pass');
      await ctx.createUser('boss', 'boss-pass', 'admin');
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
      admin = (await ctx.login('boss', 'boss-pass')).headers;
      annaProfile = await aiProfile(ctx, anna, 'anna-1', proxy.url);
      ivanProfile = await aiProfile(ctx, ivan, 'ivan-1', proxy.url);
      const r = await aiLogin(ctx, anna, { email: shared, idAccount: annaProfile });
      expect(r.body).toMatchObject({ success: true, status: 200 });
      annaShared = r.body.id;
    });

    it("a login with an email another user has answers as for a fresh one, and makes the caller's own session", async () => {
      const before = await row(annaShared);
      const fresh = await aiLogin(ctx, ivan, { email: 'fresh@gpt.test', idAccount: ivanProfile });
      const taken = await aiLogin(ctx, ivan, { email: shared, idAccount: ivanProfile });
      expect(fresh.status).toBe(200);
      expect(answer(taken)).toEqual(answer(fresh));
      expect(answer(taken)).toEqual({ status: 200, idType: 'number', success: true, message: 'Вхід виконано' });
      ivanShared = taken.body.id;
      expect(ivanShared).not.toBe(annaShared);
      expect(await row(ivanShared)).toMatchObject({ email: shared, accountId: ivanProfile, isActive: 1 });
      expect(await row(annaShared)).toEqual(before);
      // The same again updates Ivan's session: still one each.
      const again = await aiLogin(ctx, ivan, { email: shared, idAccount: ivanProfile });
      expect(again.body.id).toBe(ivanShared);
      expect(await row(annaShared)).toEqual(before);
    });

    it("Ivan never reaches Anna's session: not in his list, not by id, and the shared email names his own", async () => {
      expect(await ids(ivan)).not.toContain(annaShared);
      expect(await ids(ivan)).toContain(ivanShared);
      expect(await ids(anna)).toEqual([annaShared]);
      for (const method of ['GET', 'DELETE'] as const)
        expect((await ctx.call({ method, url: `/api/ai/info/${annaShared}`, token: ivan })).status).toBe(404);
      // Her id with the shared email is still not his to name.
      expect((await post(ivan, 'stop', { email: shared, sessionId: annaShared })).status).toBe(404);
      expect((await post(ivan, 'type', { email: shared, sessionId: annaShared, text: 'hi' })).status).toBe(404);

      const chat = await post(ivan, 'type', { email: shared, text: 'hello from ivan' });
      expect(chat.body).toMatchObject({ success: true });
      const turns = await ctx.tdb.db.selectFrom('aiMessages').select('sessionId').execute();
      expect(turns.map((t) => t.sessionId)).toEqual([ivanShared]);
      expect((await post(ivan, 'stop', { email: shared })).status).toBe(200);
      expect(await row(ivanShared)).toMatchObject({ isActive: 0, status: 'noactive' });
      expect(await row(annaShared)).toMatchObject({ isActive: 1, status: 'success' });
      const logs = await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: ivan });
      expect(logs.body.data.every((l: any) => l.userSession === null || l.userSession.id !== annaShared)).toBe(true);
      // His own session by its id works too.
      expect((await post(ivan, 'stop', { email: shared, sessionId: ivanShared })).status).toBe(200);
    });

    it("an admin's email names the only session of it; several users' sessions need the id (400 on email)", async () => {
      const solo = await aiLogin(ctx, anna, { email: 'solo@gpt.test', idAccount: annaProfile });
      expect((await post(admin, 'stop', { email: 'solo@gpt.test' })).body).toMatchObject({ success: true });
      expect(await row(solo.body.id)).toMatchObject({ isActive: 0, status: 'noactive' });
      expect((await post(admin, 'stop', { email: 'nobody@gpt.test' })).status).toBe(404);

      for (const lang of ['uk', 'en']) {
        const r = await post(admin, 'stop', { email: shared }, lang);
        expect(r.status).toBe(400);
        expect(Object.keys(r.body.errors)).toEqual(['email']);
        expect(r.body.message).toMatch(/sessionId/);
        expect(r.body.message).toMatch(lang === 'en' ? /Several users/ : /кількох користувачів/);
      }
      for (const [path, payload] of [
        ['type', { email: shared, text: 'x' }],
        ['type-deepseek', { email: shared, text: 'x' }],
        ['screenshot', { email: shared }],
        ['code', { email: shared, code: '1' }],
        ['login-deepseek', { email: shared, password: 'x' }],
        ['video', { email: shared, text: 'x' }],
      ] as const)
        expect((await post(admin, path, payload)).status, path).toBe(400);
      expect(await row(annaShared)).toMatchObject({ isActive: 1 });

      // With the id it acts on that session; an id of another email is a 404.
      expect((await post(admin, 'stop', { email: shared, sessionId: annaShared })).status).toBe(200);
      expect(await row(annaShared)).toMatchObject({ isActive: 0 });
      expect((await post(admin, 'stop', { email: 'solo@gpt.test', sessionId: annaShared })).status).toBe(404);
    });

    it("an admin's own session of an email comes first; a login with a user's profile updates that user's", async () => {
      const mine = await aiProfile(ctx, admin, 'boss-1', proxy.url);
      const own = await aiLogin(ctx, admin, { email: shared, idAccount: mine });
      expect(own.body).toMatchObject({ success: true, status: 200 });
      expect((await post(admin, 'stop', { email: shared })).status).toBe(200);
      expect(await row(own.body.id)).toMatchObject({ isActive: 0 });

      const forAnna = await aiLogin(ctx, admin, { email: shared, idAccount: annaProfile });
      expect(forAnna.body.id).toBe(annaShared);
      expect(await row(annaShared)).toMatchObject({ isActive: 1, status: 'success', accountId: annaProfile });
      const count = await ctx.tdb.db
        .selectFrom('aiSessions')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('email', '=', shared)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(3);
    });
  },
  (kind) => sims.overrides(kind),
);
