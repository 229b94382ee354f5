import type { Config } from '../../server/config';
import type { AiConfig, VideoDialect } from '../../server/config-ai';
import { startAiSimulator, type AiSimulator } from '../../sim/ai/ai-sim';
import { FFMPEG } from '../helpers/media-fixtures';
import type { TestCtx } from '../helpers/app';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/index';

/** The AI config pointing both providers and video generation at one simulator. */
export function aiConfigFor(sim: AiSimulator, dialect: VideoDialect = 'openai-videos'): AiConfig {
  return {
    browser: { chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', maxContexts: 2 },
    providers: {
      gpt: { driver: 'api', baseUrl: `${sim.url}/v1`, model: 'sim-chat' },
      deepseek: { driver: 'api', baseUrl: sim.url, model: 'sim-chat' },
    },
    timeoutMs: 5_000,
    maxRetries: 0,
    historyTurns: 40,
    video: {
      dialect,
      baseUrl: dialect === 'openrouter' ? `${sim.url}/api/v1` : `${sim.url}/v1`,
      apiKey: 'sk-sim-valid',
      model: 'sim-video',
      seconds: 4,
      size: '720x1280',
      budgetMs: 60_000,
      pollMs: 10,
      pollMaxMs: 20,
    },
  };
}

/** One simulator per database run, and the config that points the app at it. */
export function aiSimulators(dialect?: VideoDialect) {
  const sims: Record<string, AiSimulator> = {};
  return {
    sims,
    overrides: async (kind: string): Promise<Partial<Config>> => {
      const sim = await startAiSimulator({ ffmpegPath: FFMPEG });
      sims[kind] = sim;
      return { ai: aiConfigFor(sim, dialect), allowPrivateProxies: true };
    },
    close: () => Promise.all(Object.values(sims).map((s) => s.close())),
  };
}

/**
 * What an AI test file shares, set up before its tests and closed after them: the AI simulators (one per database
 * run, started by `overrides`) and the local proxy sessions go through.
 */
export function aiBench(dialect?: VideoDialect) {
  const sims = aiSimulators(dialect);
  const bench = { sims: sims.sims, overrides: sims.overrides, proxy: undefined as unknown as LocalProxy };
  beforeAll(async () => {
    bench.proxy = await startLocalProxy();
  });
  afterAll(async () => {
    await sims.close();
    await bench.proxy?.close();
  });
  return bench;
}

type Token = { authorization: string };

/** The AI tests' people, created and signed in: anna and ivan (users) and boss (an admin). */
export async function aiPeople(ctx: TestCtx): Promise<{ anna: Token; ivan: Token; admin: Token }> {
  await ctx.createUser('anna', 'anna-pass');
  await ctx.createUser('ivan', 'ivan-pass');
  await ctx.createUser('boss', 'boss-pass', 'admin');
  return {
    anna: (await ctx.login('anna', 'anna-pass')).headers,
    ivan: (await ctx.login('ivan', 'ivan-pass')).headers,
    admin: (await ctx.login('boss', 'boss-pass')).headers,
  };
}

/** A profile of the signed-in user (no platform connected). */
export async function aiProfile(ctx: TestCtx, token: { authorization: string }, name: string, proxy: string) {
  const r = await ctx.call({ method: 'POST', url: '/api/accounts', token, payload: { proxy, comments: name } });
  if (r.status !== 201) throw new Error(`profile: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

/** Logs a session in through the API (GPT, the simulator's key unless given). */
export async function aiLogin(
  ctx: TestCtx,
  token: { authorization: string },
  o: { email: string; idAccount: number; proxy?: string; password?: string },
) {
  return ctx.call({
    method: 'POST',
    url: '/api/ai/setting/login',
    token,
    payload: {
      proxy: o.proxy ?? '',
      user: { email: o.email, password: o.password ?? 'sk-sim-valid', idAccount: o.idAccount },
    },
  });
}

/** Runs the AI video jobs until none is queued. */
export async function settleAiVideos(ctx: TestCtx, maxMs = 30_000) {
  const runner = ctx.root.createJobRunner({
    catalogue: ctx.root.jobs.catalogue.filter((j) => j.name.startsWith('ai.')),
  });
  const deadline = Date.now() + maxMs;
  for (;;) {
    await runner.drain();
    const left = await ctx.tdb.db
      .selectFrom('jobs')
      .select('runAt')
      .where('status', 'in', ['queued', 'running'])
      .where('name', '=', 'ai.video.generate')
      .orderBy('runAt')
      .executeTakeFirst();
    if (!left) return;
    if (Date.now() > deadline) throw new Error('AI video jobs did not settle');
    await new Promise((r) => setTimeout(r, Math.min(500, Math.max(5, left.runAt - Date.now() + 5))));
  }
}
