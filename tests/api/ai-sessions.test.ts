import { describeEachDb } from '../helpers/app';
import { buildAiApp } from '../../server/app';
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

describeEachDb(
  'AI sessions, chat and logs',
  (ctx) => {
    let anna: { authorization: string };
    let ivan: { authorization: string };
    let admin: { authorization: string };
    let profile: number;
    let sessionId: number;
    const sim = () => sims.sims[ctx.tdb.kind]!;

    beforeAll(async () => {
      await ctx.createUser('anna', 'anna-pass');
      await ctx.createUser('ivan', 'ivan-pass');
      await ctx.createUser('boss', 'boss-pass', 'admin');
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
      admin = (await ctx.login('boss', 'boss-pass')).headers;
      profile = await aiProfile(ctx, anna, 'anna-1', proxy.url);
    });

    it('logs in through the session proxy (status 200), lists and reads the session', async () => {
      proxy.reset();
      const r = await aiLogin(ctx, anna, { email: 'anna@gpt.test', idAccount: profile, proxy: proxy.url });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: true, status: 200, message: 'Вхід виконано' });
      sessionId = r.body.id;
      expect(proxy.records.some((x) => x.allowed && x.target === new URL(sim().url).host)).toBe(true);

      const list = await ctx.call({ method: 'GET', url: '/api/ai/info', token: anna });
      expect(list.body).toMatchObject({ total: 1, page: 1, totalPages: 1 });
      expect(list.body.data[0]).toMatchObject({
        id: sessionId,
        email: 'anna@gpt.test',
        isActive: true,
        status: 'success',
        errorText: null,
        account: { id: profile, name: 'anna-1' },
        user: { login: 'anna' },
      });
      const d = await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}`, token: anna });
      expect(d.body).toMatchObject({ provider: 'gpt', password: 'sk-sim-valid', proxy: proxy.url, messages: [] });
      const sealed = await ctx.tdb.db
        .selectFrom('aiSessions')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(sealed.passwordSealed).not.toContain('sk-sim-valid');
      expect(sealed.proxySealed).not.toContain('127.0.0.1');
    });

    it('a bad key and an empty balance are failed logins with readable messages and the session in error', async () => {
      let r = await aiLogin(ctx, anna, { email: 'anna@gpt.test', idAccount: profile, password: 'sk-wrong' });
      expect(r.body).toMatchObject({ success: false, status: 401, id: sessionId });
      expect(r.body.message).toMatch(/^GPT не прийняв ключ/);
      let s = await ctx.call({
        method: 'GET',
        url: `/api/ai/info/${sessionId}`,
        token: anna,
        headers: { 'accept-language': 'en' },
      });
      expect(s.body).toMatchObject({ status: 'error', isActive: false });
      expect(s.body.errorText).toMatch(/^GPT did not accept the key/);

      sim().failNext(402);
      r = await aiLogin(ctx, anna, { email: 'anna@gpt.test', idAccount: profile });
      expect(r.body).toMatchObject({ success: false, status: 402 });
      expect(r.body.message).toContain('недостатньо коштів');

      r = await aiLogin(ctx, anna, { email: 'anna@gpt.test', idAccount: profile, proxy: proxy.url });
      expect(r.body).toMatchObject({ success: true, status: 200, id: sessionId });
      s = await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}`, token: anna });
      expect(s.body).toMatchObject({ status: 'success', isActive: true, errorText: null });
    });

    it('two logins of a new email at once make one session', async () => {
      const both = await Promise.all([
        aiLogin(ctx, anna, { email: 'twice@gpt.test', idAccount: profile }),
        aiLogin(ctx, anna, { email: 'twice@gpt.test', idAccount: profile }),
      ]);
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      expect(both[0]!.body.id).toBe(both[1]!.body.id);
      await ctx.call({ method: 'DELETE', url: `/api/ai/info/${both[0]!.body.id}`, token: anna });
    });

    it('chats: history is stored, sent back, and returned as sanitised HTML', async () => {
      let r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/type',
        token: anna,
        payload: { email: 'anna@gpt.test', text: 'Hello <script>alert(1)</script>', isSora: false },
      });
      expect(r.body.success).toBe(true);
      expect(r.body.messages).toHaveLength(1);
      const [m] = r.body.messages;
      expect(m.message_my).toBe('<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;</p>');
      expect(m.message_ai).toContain('<strong>Sim</strong>');
      expect(m.message_ai).not.toContain('<script>');
      expect(m.message_ai).toContain('&lt;script&gt;');

      r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/type',
        token: anna,
        payload: { email: 'anna@gpt.test', text: 'Second' },
      });
      expect(r.body.messages[0].message_ai).toContain('(history 2)');
      const last = sim().chats.at(-1)!;
      expect(last.messages.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);

      await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/login-deepseek',
        token: anna,
        payload: { email: 'anna@gpt.test', password: 'sk-sim-valid' },
      });
      r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/type-deepseek',
        token: anna,
        payload: { email: 'anna@gpt.test', text: 'DS' },
      });
      expect(r.body.messages[0]).toMatchObject({ provider: 'deepseek' });
      const gpt = await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}?type=gpt`, token: anna });
      const ds = await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}?type=deepseek`, token: anna });
      expect(gpt.body.messages).toHaveLength(2);
      expect(ds.body).toMatchObject({ provider: 'deepseek', passwordDeepSeek: 'sk-sim-valid' });
      expect(ds.body.messages).toHaveLength(1);
    });

    it('a failed chat turn (rate limit) answers success:false with the reason, and the log has it', async () => {
      sim().failNext(429);
      const r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/type',
        token: anna,
        payload: { email: 'anna@gpt.test', text: 'x' },
      });
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(false);
      expect(r.body.message).toContain('забагато запитів');
      const logs = await ctx.call({
        method: 'GET',
        url: '/api/ai/info/logs',
        token: anna,
        headers: { 'accept-language': 'en' },
      });
      expect(logs.body.data[0]).toMatchObject({
        status: 'error',
        userSession: { id: sessionId, email: 'anna@gpt.test' },
      });
      expect(logs.body.data[0].message).toMatch(/^GPT message not sent/);
      expect(logs.body.data.map((l: any) => l.message)).toContain('GPT login: anna@gpt.test');
    });

    it('validation: message, code and email required, bad proxy, bad provider type', async () => {
      const post = (path: string, payload: object) =>
        ctx.call({ method: 'POST', url: `/api/ai/setting/${path}`, token: anna, payload });
      let r = await post('type', { email: 'anna@gpt.test', text: '  ' });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual({ text: "Сообщение обов'язковий" });
      r = await post('code', { email: 'anna@gpt.test', code: '' });
      expect(r.body.errors).toEqual({ code: "Код обов'язковий" });
      r = await post('stop', { email: '' });
      expect(r.body.errors).toEqual({ email: 'Email GPT не задан' });
      r = await aiLogin(ctx, anna, { email: 'anna@gpt.test', idAccount: profile, proxy: 'ftp://x' });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['proxy']);
      r = await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}?type=claude`, token: anna });
      expect(r.status).toBe(400);
      // The api driver has no code step.
      r = await post('code', { email: 'anna@gpt.test', code: '123456' });
      expect(r.body).toMatchObject({ success: false, status: 409 });
    });

    it("another user's session is a 404 by id and by email (and by its id with its email); admins see all", async () => {
      const post = (path: string, payload: object) =>
        ctx.call({ method: 'POST', url: `/api/ai/setting/${path}`, token: ivan, payload });
      expect((await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}`, token: ivan })).status).toBe(404);
      expect((await ctx.call({ method: 'DELETE', url: `/api/ai/info/${sessionId}`, token: ivan })).status).toBe(404);
      for (const [path, payload] of [
        ['type', { email: 'anna@gpt.test', text: 'hi' }],
        ['type-deepseek', { email: 'anna@gpt.test', text: 'hi' }],
        ['stop', { email: 'anna@gpt.test' }],
        ['screenshot', { email: 'anna@gpt.test' }],
        ['code', { email: 'anna@gpt.test', code: '1' }],
        ['login-deepseek', { email: 'anna@gpt.test', password: 'x' }],
        ['video', { email: 'anna@gpt.test', text: 'x' }],
        ['stop', { email: 'anna@gpt.test', sessionId }],
      ] as const)
        expect((await post(path, payload)).status, path).toBe(404);
      // Ivan cannot log in with Anna's profile (his own session of her email: tests/api/ai-session-owners.test.ts).
      expect((await aiLogin(ctx, ivan, { email: 'x@gpt.test', idAccount: profile })).status).toBe(404);
      expect((await ctx.call({ method: 'GET', url: '/api/ai/info', token: ivan })).body.total).toBe(0);
      expect((await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: ivan })).body.total).toBe(0);
      const all = await ctx.call({ method: 'GET', url: '/api/ai/info', token: admin });
      expect(all.body.data.map((s: any) => s.email)).toContain('anna@gpt.test');
      expect((await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}`, token: admin })).status).toBe(200);
    });

    it('the standalone AI service (AI_PORT) shares the database and tokens, and lets the panel origin in', async () => {
      const aiApp = await buildAiApp(ctx.root);
      try {
        const r = await aiApp.inject({ method: 'GET', url: '/api/ai/info', headers: anna });
        expect(r.statusCode).toBe(200);
        expect(r.json().data[0]).toMatchObject({ id: sessionId });
        expect((await aiApp.inject({ method: 'GET', url: '/api/ai/info' })).statusCode).toBe(401);
        expect((await aiApp.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(404);
        const origin = new URL(ctx.root.config.publicUrl).origin;
        const pre = await aiApp.inject({ method: 'OPTIONS', url: '/api/ai/setting/type', headers: { origin } });
        expect(pre.statusCode).toBe(204);
        expect(pre.headers['access-control-allow-origin']).toBe(origin);
      } finally {
        await aiApp.close();
      }
    });

    it("keeps a browser driver's login state sealed per provider", async () => {
      const row = await ctx.root.services.ai.find({ id: 1, login: 'x', role: 'admin' }, { id: sessionId });
      const gpt = ctx.root.services.ai.ctx(row, 'gpt').state!;
      await gpt.save('{"cookies":["secret-cookie"]}');
      const stored = await ctx.tdb.db
        .selectFrom('aiSessions')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(stored.browserStateGptSealed).toBeTruthy();
      expect(stored.browserStateGptSealed).not.toContain('secret-cookie');
      expect(await gpt.load()).toBe('{"cookies":["secret-cookie"]}');
      expect(await ctx.root.services.ai.ctx(row, 'deepseek').state!.load()).toBeNull();
      await gpt.save(null);
      expect(await gpt.load()).toBeNull();
    });

    it('PATCH /api/accounts/gpt stores only a session of the profile owner', async () => {
      let r = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/gpt/${profile}`,
        token: anna,
        payload: { idGPT: sessionId },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ idGPT: String(sessionId), isActiveGPT: true });
      const his = await aiProfile(ctx, ivan, 'ivan-2', proxy.url);
      r = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/gpt/${his}`,
        token: ivan,
        payload: { idGPT: sessionId },
      });
      expect(r.status).toBe(400);
      expect(r.body.errors).toHaveProperty('idGPT');
      r = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/gpt/${profile}`,
        token: ivan,
        payload: { idGPT: sessionId },
      });
      expect(r.status).toBe(404);
    });

    it('screenshot (none with the api driver), stop, then chat is refused; delete frees the profile link', async () => {
      let r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/screenshot',
        token: anna,
        payload: { email: 'anna@gpt.test' },
      });
      expect(r.body).toMatchObject({ success: false, screenshots: [] });
      r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/stop',
        token: anna,
        payload: { email: 'anna@gpt.test' },
      });
      expect(r.body).toEqual({ success: true, message: 'Сесію зупинено' });
      const d = await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}`, token: anna });
      expect(d.body).toMatchObject({ isActive: false, status: 'noactive' });
      r = await ctx.call({
        method: 'POST',
        url: '/api/ai/setting/type',
        token: anna,
        payload: { email: 'anna@gpt.test', text: 'x' },
      });
      expect(r.status).toBe(400);
      r = await ctx.call({ method: 'DELETE', url: `/api/ai/info/${sessionId}`, token: anna });
      expect(r.body).toEqual({ success: true, message: 'ИИ видалено' });
      expect((await ctx.call({ method: 'GET', url: `/api/ai/info/${sessionId}`, token: anna })).status).toBe(404);
      const acc = await ctx.call({ method: 'GET', url: `/api/accounts/${profile}`, token: anna });
      expect(acc.body).toMatchObject({ idGPT: null, isActiveGPT: false });
      const logs = await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: anna });
      expect(logs.body.total).toBeGreaterThan(3);
    });
  },
  (kind) => sims.overrides(kind),
);
