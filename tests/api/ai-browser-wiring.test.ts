import { describeEachDb } from '../helpers/app';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/index';
import { startAiSimulator, type AiSimulator } from '../../sim/ai/ai-sim';
import { startChatSim, type ChatSim } from '../../sim/ai/chat-sim';
import { FFMPEG } from '../helpers/media-fixtures';
import { aiConfigFor, aiLogin, aiProfile } from './ai.fixtures';

/**
 * AI_GPT_DRIVER=browser, wired through the composition root: the GPT connect flow with its code step (status
 * 300 → /code), chat, Stop keeping the sealed login state, and a later login reusing it without the form.
 */
const chats: ChatSim[] = [];
const sims: AiSimulator[] = [];
let proxy: LocalProxy;
beforeAll(async () => {
  proxy = await startLocalProxy();
});
afterAll(async () => {
  await Promise.all([...chats, ...sims].map((s) => s.close()));
  await proxy?.close();
});

describeEachDb(
  'AI sessions through the browser driver',
  (ctx) => {
    let anna: { authorization: string };
    let profile: number;
    const email = 'kate@gpt.test';
    const post = (path: string, payload: object) =>
      ctx.call({ method: 'POST', url: `/api/ai/setting/${path}`, token: anna, payload });

    beforeAll(async () => {
      await ctx.createUser('anna', 'anna-pass');
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      profile = await aiProfile(ctx, anna, 'anna-1', proxy.url);
    });

    it('asks for the code (300), takes it, chats, and a login after Stop reuses the sealed state', async () => {
      const sim = chats.find((c) => ctx.root.config.ai.providers.gpt.siteUrl === c.url)!;
      sim.setAccount(email, { password: 'site-pass', needsCode: true });
      let r = await aiLogin(ctx, anna, { email, idAccount: profile, proxy: proxy.url, password: 'site-pass' });
      expect(r.body).toMatchObject({ status: 300 });
      const id = r.body.id as number;

      r = await post('code', { email, code: '000000' });
      expect(r.body).toMatchObject({ success: false });
      r = await post('code', { email, code: sim.outbox(email)! });
      expect(r.body).toMatchObject({ success: true, status: 200, id });

      r = await post('type', { email, text: 'Привіт, як справи?' });
      expect(r.body.success).toBe(true);
      expect(r.body.messages[0].message_ai).toMatch(/\S/);

      r = await post('stop', { email });
      expect(r.body.success).toBe(true);
      const row = await ctx.tdb.db
        .selectFrom('aiSessions')
        .select(['browserStateGptSealed', 'isActive'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(row.isActive)).toBe(0);
      expect(row.browserStateGptSealed).toBeTruthy();
      expect(row.browserStateGptSealed).not.toContain('sim_sid');

      sim.requests.length = 0;
      r = await aiLogin(ctx, anna, { email, idAccount: profile, proxy: proxy.url, password: 'site-pass' });
      expect(r.body).toMatchObject({ success: true, status: 200, id });
      expect(sim.requests.some((q) => q.path.startsWith('/auth/'))).toBe(false);
      await post('stop', { email });
    });

    it('a bot challenge ends the login with a readable error and the session in error', async () => {
      const sim = chats.find((c) => ctx.root.config.ai.providers.gpt.siteUrl === c.url)!;
      sim.setMode('challenge');
      const other = await aiProfile(ctx, anna, 'anna-2', proxy.url);
      const r = await aiLogin(ctx, anna, { email: 'lee@gpt.test', idAccount: other, proxy: proxy.url });
      sim.setMode('normal');
      expect(r.body.success).toBe(false);
      expect(r.body.status).not.toBe(200);
      const s = await ctx.call({ method: 'GET', url: `/api/ai/info/${r.body.id}`, token: anna });
      expect(s.body).toMatchObject({ status: 'error' });
      expect(s.body.errorText).toMatch(/\S/);
    });
  },
  async () => {
    const sim = await startAiSimulator({ ffmpegPath: FFMPEG });
    sims.push(sim);
    const chat = await startChatSim({ chunkDelayMs: 5 });
    chats.push(chat);
    const ai = aiConfigFor(sim);
    ai.providers.gpt = { ...ai.providers.gpt, driver: 'browser', siteUrl: chat.url };
    return { ai, allowPrivateProxies: true };
  },
);
