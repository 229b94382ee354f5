import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Server as ProxyServer } from 'proxy-chain';
import { AiVideoMetaSchema } from '../../src/contract/ai';
import { ApiChatDriver } from '../../server/ai/drivers/api-driver';
import { AiDriverError, type SessionCtx } from '../../server/ai/drivers/chat-driver';
import { AI_SIM_KEY, SIM_FAIL_WORD, startAiSimulator, type AiSimulator } from '../../sim/ai/ai-sim';
import { OpenAiVideos } from '../../server/ai/video/openai-videos';
import { OpenRouterVideos } from '../../server/ai/video/openrouter';
import type { VideoGenerator } from '../../server/ai/video/video-generator';
import { FFMPEG } from '../helpers/media-fixtures';

/** A proxy-chain proxy on 127.0.0.1 with credentials that records the hosts it is asked for. */
async function recordingProxy(user: string, pass: string) {
  const hosts: string[] = [];
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username, password, hostname, port }) => {
      if (username !== user || password !== pass) return { requestAuthentication: true };
      hosts.push(`${hostname}:${port}`);
      return {};
    },
  });
  await server.listen();
  return { url: `http://${user}:${pass}@127.0.0.1:${server.port}`, hosts, close: () => server.close(true) };
}

let sim: AiSimulator;
let driver: ApiChatDriver;
/** A port nobody listens on (a fetch to a forbidden port such as 9 fails before connecting). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ctx = (over: Partial<SessionCtx> = {}): SessionCtx => ({
  sessionId: 1,
  provider: 'gpt',
  email: 'a@b.c',
  password: AI_SIM_KEY,
  proxy: '',
  ...over,
});

beforeAll(async () => {
  sim = await startAiSimulator({ ffmpegPath: FFMPEG });
  driver = new ApiChatDriver({
    provider: { driver: 'api', baseUrl: `${sim.url}/v1`, model: 'sim-chat' },
    timeoutMs: 5_000,
    maxRetries: 0,
    allowPrivateProxy: true,
  });
});
afterAll(async () => {
  await driver?.close();
  await sim?.close();
});

describe('api chat driver', () => {
  it('logs in with a good key; a bad key is a credentials failure with the provider words', async () => {
    expect(await driver.login(ctx())).toEqual({ kind: 'ready' });
    const bad = await driver.login(ctx({ password: 'sk-wrong' }));
    expect(bad.kind).toBe('failed');
    if (bad.kind !== 'failed') return;
    expect(bad.error).toBeInstanceOf(AiDriverError);
    expect(bad.error.kind).toBe('credentials');
    expect(bad.error.detail).toBe('Incorrect API key provided');
  });

  it.each([
    [401, 'credentials'],
    [402, 'billing'],
    [429, 'rate_limit'],
    [503, 'unavailable'],
    [400, 'bad_request'],
  ] as const)('maps HTTP %i to %s', async (status, kind) => {
    sim.failNext(status);
    await expect(driver.send(ctx(), [], 'hi')).rejects.toMatchObject({ kind });
  });

  it('maps a quota 429 to billing and a refused connection to network', async () => {
    sim.failNext(429, { code: 'insufficient_quota' });
    await expect(driver.send(ctx(), [], 'hi')).rejects.toMatchObject({ kind: 'billing' });
    const dead = new ApiChatDriver({
      provider: { driver: 'api', baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, model: 'x' },
      timeoutMs: 2_000,
      maxRetries: 0,
      allowPrivateProxy: true,
    });
    // No proxy set: the sentence does not blame one, and the reason is a stored message, not a library's text.
    const err = await dead.send(ctx(), [], 'hi').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'network', message: 'kadr.ai_errors.network_direct' });
    expect((err as { detail: string }).detail).toMatch(/^kadr\.platform_errors\.host_unreachable /);
    expect((err as { detail: string }).detail).toContain('kadr.platform_errors.net_refused');
    expect((err as { detail: string }).detail).not.toMatch(/fetch failed|Connection error/);
    await dead.close();
  });

  it('sends the history and answers sanitised HTML', async () => {
    const r = await driver.send(
      ctx(),
      [
        { role: 'user', text: 'one' },
        { role: 'assistant', text: 'two' },
      ],
      '<img src=x onerror=1>',
    );
    expect(r.text).toContain('(history 2)');
    expect(r.html).toContain('<strong>Sim</strong>');
    expect(r.html).not.toContain('<img');
  });

  it('extracts with JSON schema, and falls back to JSON mode (with "json" in the prompt) where the server has none', async () => {
    const meta = await driver.extract(ctx(), 'cats', AiVideoMetaSchema, 'video_meta');
    expect(meta.prompt).toContain('cats');
    expect(sim.chats.at(-1)!.response_format?.type).toBe('json_schema');
    sim.jsonSchema = false;
    try {
      const again = await driver.extract(ctx(), 'dogs', AiVideoMetaSchema, 'video_meta');
      expect(again.title).toContain('dogs');
      const last = sim.chats.at(-1)!;
      expect(last.response_format?.type).toBe('json_object');
      expect(last.messages.some((m) => /json/.test(m.content))).toBe(true);
    } finally {
      sim.jsonSchema = true;
    }
  });

  it('the simulator streams SSE ending in [DONE], and its control surface scripts errors', async () => {
    const res = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AI_SIM_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: 'stream me' }] }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const text = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice('data: '.length)).choices[0].delta.content ?? '')
      .join('');
    expect(text).toContain('stream me');
    await fetch(`${sim.url}/__sim/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503 }),
    });
    expect(await driver.login(ctx())).toMatchObject({ kind: 'failed', error: { kind: 'unavailable' } });
  });

  it('has no code step and no screen', async () => {
    const r = await driver.submitCode();
    expect(r).toMatchObject({ kind: 'failed', error: { kind: 'no_code_pending' } });
    expect(await driver.screenshot()).toEqual([]);
  });

  it("sends each session's traffic through its own proxy (two sessions, two proxies)", async () => {
    const p1 = await recordingProxy('u1', 'p1');
    const p2 = await recordingProxy('u2', 'p2');
    try {
      const simHost = new URL(sim.url).host;
      expect(await driver.login(ctx({ sessionId: 11, proxy: p1.url }))).toEqual({ kind: 'ready' });
      await driver.send(ctx({ sessionId: 12, proxy: p2.url }), [], 'via two');
      await driver.send(ctx({ sessionId: 11, proxy: p1.url }), [], 'via one');
      expect(p1.hosts.length).toBeGreaterThan(0);
      expect(p2.hosts.length).toBeGreaterThan(0);
      expect(new Set([...p1.hosts, ...p2.hosts])).toEqual(new Set([simHost]));
      // Wrong proxy credentials: the call fails, nothing goes around the proxy.
      const before = sim.chats.length;
      const bad = await driver.login(ctx({ sessionId: 13, proxy: p1.url.replace('p1@', 'nope@') }));
      expect(bad).toMatchObject({ kind: 'failed', error: { kind: 'network', message: 'kadr.ai_errors.network' } });
      expect((bad as { error: { detail: string } }).error.detail).toMatch(/^kadr\.platform_errors\.proxy_auth /);
      expect(sim.chats.length).toBe(before);
      await driver.stop(ctx({ sessionId: 11 }));
      await driver.stop(ctx({ sessionId: 12 }));
    } finally {
      await p1.close();
      await p2.close();
    }
  });

  it('a proxy on a private address is refused unless allowed (SSRF guard)', async () => {
    const guarded = new ApiChatDriver({
      provider: { driver: 'api', baseUrl: `${sim.url}/v1`, model: 'x' },
      timeoutMs: 2_000,
      maxRetries: 0,
      allowPrivateProxy: false,
    });
    const r = await guarded.login(ctx({ proxy: 'http://127.0.0.1:1' }));
    expect(r).toMatchObject({ kind: 'failed', error: { kind: 'network' } });
    await guarded.close();
  });
});

describe.each([
  [
    'openai-videos',
    (s: AiSimulator, apiKey = AI_SIM_KEY) => new OpenAiVideos({ baseUrl: `${s.url}/v1`, apiKey, timeoutMs: 5_000 }),
  ],
  [
    'openrouter',
    (s: AiSimulator, apiKey = AI_SIM_KEY) =>
      new OpenRouterVideos({ baseUrl: `${s.url}/api/v1`, apiKey, timeoutMs: 5_000 }),
  ],
] as const)('video generator %s', (_name, make) => {
  let gen: VideoGenerator;
  beforeAll(() => {
    gen = make(sim);
  });
  const until = async (id: string) => {
    for (let i = 0; i < 10; i++) {
      const s = await gen.get(id);
      if (s.status === 'completed' || s.status === 'failed') return s;
    }
    throw new Error('never finished');
  };

  it('creates, polls through progress, downloads a real MP4', async () => {
    const { jobId } = await gen.create({ prompt: 'waves', seconds: 4, size: '720x1280', model: 'sim-video' });
    const first = await gen.get(jobId);
    expect(first.status).toBe('queued');
    const done = await until(jobId);
    expect(done.status).toBe('completed');
    const chunks: Buffer[] = [];
    for await (const c of await gen.download(jobId)) chunks.push(c as Buffer);
    const mp4 = Buffer.concat(chunks);
    expect(mp4.subarray(4, 8).toString()).toBe('ftyp');
    expect(mp4.length).toBeGreaterThan(1000);
  });

  it('reports a failed generation with its reason, and a bad key as credentials', async () => {
    const { jobId } = await gen.create({ prompt: `${SIM_FAIL_WORD}`, seconds: 4, size: '720x1280', model: 'm' });
    const s = await until(jobId);
    expect(s).toMatchObject({ status: 'failed', error: expect.stringContaining('simulated') });
    const bad = make(sim, 'wrong');
    await expect(bad.create({ prompt: 'x', seconds: 4, size: '720x1280', model: 'm' })).rejects.toMatchObject({
      kind: 'credentials',
    });
  });

  it('remixes where the dialect has it', async () => {
    if (!gen.remix) return;
    const { jobId } = await gen.create({ prompt: 'a', seconds: 4, size: '720x1280', model: 'm' });
    await until(jobId);
    const remix = await gen.remix(jobId, 'a, at night');
    expect(remix.jobId).not.toBe(jobId);
    expect(await until(remix.jobId)).toMatchObject({ status: 'completed' });
  });
});
