import { Server as ProxyChainServer, RequestError } from 'proxy-chain';
import { z } from 'zod';
import { AiDriverError, type LoginOutcome, type SessionCtx } from '../../server/ai/drivers/chat-driver';
import { createBrowserChatDriver, siteAdapter, type BrowserChatDriver } from '../../server/ai/drivers/browser';
import { startChatSim, type ChatSim } from '../../sim/ai/chat-sim';
import { startLocalProxy } from '../../sim/platforms/local-proxy';
import { CHROMIUM } from '../helpers/browser';

/**
 * The opt-in browser chat driver against the chat simulator in Debian's Chromium: one driver (one Chromium)
 * for the whole file, a fresh session id per test.
 */
let sim: ChatSim;
let driver: BrowserChatDriver;
const states = new Map<string, string>();
let nextId = 1;

const session = (email: string, password: string, proxy = ''): SessionCtx => ({
  sessionId: nextId++,
  provider: 'gpt',
  email,
  password,
  proxy,
});
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const VideoMeta = z.object({
  title: z.string().min(1),
  description: z.string(),
  tags: z.array(z.string()),
  prompt: z.string().min(1),
});

function failure(outcome: LoginOutcome) {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${outcome.kind}`);
  return outcome;
}

beforeAll(async () => {
  sim = await startChatSim({ chunkDelayMs: 10 });
  driver = createBrowserChatDriver({
    chromiumPath: CHROMIUM,
    site: siteAdapter('gpt', sim.url),
    maxContexts: 3,
    browserLingerMs: 60_000,
    stateStore: {
      load: async (id, provider) => states.get(`${provider}:${id}`) ?? null,
      save: async (id, provider, json) => void states.set(`${provider}:${id}`, json),
    },
    timeouts: { navigationMs: 15_000, replyMs: 30_000 },
  });
});

afterAll(async () => {
  await driver?.close();
  await sim?.close();
});

beforeEach(() => sim.reset());

describe('browser chat driver', () => {
  it('logs in without a code, chats, and hands back sanitised HTML', async () => {
    sim.setAccount('ann@example.com', { password: 'pw-ann' });
    const s = session('ann@example.com', 'pw-ann');
    expect(await driver.login(s)).toEqual({ kind: 'ready' });
    const reply = await driver.send(s, [], 'hello there');
    expect(reply.text).toContain('You said: hello there');
    expect(reply.html).toContain('<strong>hello there</strong>');
    expect(reply.html).toContain('<li>Answer number 1</li>');

    const risky = await driver.send(s, [], 'show me xss');
    expect(risky.html).toContain('href="https://example.com/"');
    expect(risky.html).not.toMatch(/onerror|onclick|<script|<img|javascript:/i);
    await driver.stop(s);
  });

  it('logs in through the two-step form (email, then password)', async () => {
    sim.setAccount('two@example.com', { password: 'pw-two' });
    sim.twoStepLogin = true;
    const s = session('two@example.com', 'pw-two');
    expect(await driver.login(s)).toEqual({ kind: 'ready' });
    await driver.stop(s);
  });

  it('stops at the code page, takes the mailed code, then chats', async () => {
    sim.setAccount('bob@example.com', { password: 'pw-bob', needsCode: true });
    const s = session('bob@example.com', 'pw-bob');
    expect(await driver.submitCode(s, '123456')).toMatchObject({ kind: 'failed', error: { kind: 'no_code_pending' } });
    expect(await driver.login(s)).toEqual({ kind: 'code_required' });

    const wrong = failure(await driver.submitCode(s, '000000'));
    expect(wrong.error.kind).toBe('credentials');
    const res = await fetch(`${sim.url}/__sim/outbox?email=bob@example.com`);
    const { code } = (await res.json()) as { code: string };
    expect(await driver.submitCode(s, code)).toEqual({ kind: 'ready' });
    expect((await driver.send(s, [], 'after the code')).text).toContain('You said: after the code');
    await driver.stop(s);
  });

  it('reports a wrong password as a credentials failure and closes the context', async () => {
    sim.setAccount('cat@example.com', { password: 'right' });
    const s = session('cat@example.com', 'wrong');
    const before = driver.openContexts;
    const out = failure(await driver.login(s));
    expect(out.error).toBeInstanceOf(AiDriverError);
    expect(out.error.kind).toBe('credentials');
    expect(driver.openContexts).toBe(before);
  });

  it('stops at a bot challenge with a screenshot and a readable error, without trying to pass it', async () => {
    sim.setAccount('dan@example.com', { password: 'pw' });
    sim.setMode('challenge');
    const out = failure(await driver.login(session('dan@example.com', 'pw')));
    expect(out.error.kind).toBe('challenge');
    expect(out.error.message).toMatch(/bot challenge.*does not try to get past it/);
    expect(out.screenshot?.subarray(0, 8)).toEqual(PNG);
    expect(sim.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('takes a real PNG screenshot of the open page', async () => {
    sim.setAccount('eve@example.com', { password: 'pw' });
    const s = session('eve@example.com', 'pw');
    expect(await driver.screenshot(s)).toEqual([]);
    await driver.login(s);
    const shots = await driver.screenshot(s);
    expect(shots).toHaveLength(1);
    expect(shots[0]!.png.subarray(0, 8)).toEqual(PNG);
    expect(shots[0]!.png.length).toBeGreaterThan(1000);
    expect(shots[0]!.label).toBe('gpt /c');
    await driver.stop(s);
  });

  it('saves the login state on stop and logs in again from it without the form', async () => {
    sim.setAccount('fay@example.com', { password: 'pw' });
    const s = session('fay@example.com', 'pw');
    await driver.login(s);
    await driver.stop(s);
    expect(JSON.parse(states.get(`gpt:${s.sessionId}`)!).cookies).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'sim_sid' })]),
    );
    sim.requests.length = 0;
    expect(await driver.login(s)).toEqual({ kind: 'ready' });
    expect(sim.requests.some((r) => r.path.startsWith('/auth'))).toBe(false);
    expect((await driver.send(s, [], 'still here')).text).toContain('You said: still here');
    await driver.stop(s);
  });

  it('extracts a schema-valid object, asking once more after a reply without JSON', async () => {
    sim.setAccount('gus@example.com', { password: 'pw' });
    const s = session('gus@example.com', 'pw');
    await driver.login(s);
    const meta = await driver.extract(s, 'A video idea about sunrise over the sea', VideoMeta, 'video_meta');
    expect(VideoMeta.parse(meta).description).toContain('sunrise over the sea');

    sim.failJson(1);
    expect((await driver.extract(s, 'A video about cats', VideoMeta, 'video_meta')).tags).toEqual(['kadr', 'sim']);
    sim.failJson(2);
    await expect(driver.extract(s, 'A video about dogs', VideoMeta, 'video_meta')).rejects.toMatchObject({
      kind: 'bad_request',
    });
    await driver.stop(s);
  });
});

describe('browser chat driver proxies', () => {
  type Seen = { host: string; cookies: Set<string>; count: number };
  const proxies: ProxyChainServer[] = [];

  /** A proxy with credentials that records what it is asked for and refuses anything but loopback. */
  async function recordingProxy(user: string, pass: string) {
    const seen: Seen = { host: `127.0.0.1:${sim.port}`, cookies: new Set(), count: 0 };
    const server = new ProxyChainServer({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ username, password, hostname, port, request }) => {
        if (username !== user || password !== pass) return { requestAuthentication: true };
        if (hostname !== '127.0.0.1') throw new RequestError('loopback only', 403); // Chromium phones home
        if (`${hostname}:${port}` === seen.host) {
          seen.count++;
          const sid = /sim_sid=([\w-]+)/.exec(String(request.headers.cookie ?? ''))?.[1];
          if (sid) seen.cookies.add(sid);
        }
        return {};
      },
    });
    await server.listen();
    proxies.push(server);
    return { url: `http://${user}:${pass}@127.0.0.1:${server.port}`, seen };
  }

  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close(true)));
  });

  it("sends each session's traffic through its own proxy only", async () => {
    sim.setAccount('p1@example.com', { password: 'pw1' });
    sim.setAccount('p2@example.com', { password: 'pw2' });
    const one = await recordingProxy('u1', 'secret-1');
    const two = await recordingProxy('u2', 'secret-2');
    const s1 = session('p1@example.com', 'pw1', one.url);
    const s2 = session('p2@example.com', 'pw2', two.url);
    expect(await Promise.all([driver.login(s1), driver.login(s2)])).toEqual([{ kind: 'ready' }, { kind: 'ready' }]);
    await Promise.all([driver.send(s1, [], 'one'), driver.send(s2, [], 'two')]);
    await Promise.all([driver.stop(s1), driver.stop(s2)]);

    const sid = (s: SessionCtx) =>
      (
        JSON.parse(states.get(`gpt:${s.sessionId}`)!) as { cookies: Array<{ name: string; value: string }> }
      ).cookies.find((c) => c.name === 'sim_sid')!.value;
    expect([...one.seen.cookies]).toEqual([sid(s1)]);
    expect([...two.seen.cookies]).toEqual([sid(s2)]);
    // Nothing reached the simulator without going through one of the two proxies (a proxy counts a request
    // before passing it on, so one cut short by the context closing counts there only).
    expect(one.seen.count).toBeGreaterThan(0);
    expect(two.seen.count).toBeGreaterThan(0);
    expect(one.seen.count + two.seen.count).toBeGreaterThanOrEqual(sim.requests.length);
  });

  it('reaches a SOCKS5 proxy with credentials through a local forwarder', async () => {
    const socks = await startLocalProxy({ username: 'sx', password: 'sx-pass' });
    try {
      sim.setAccount('s5@example.com', { password: 'pw' });
      const s = session('s5@example.com', 'pw', socks.socksUrl);
      expect(await driver.login(s)).toEqual({ kind: 'ready' });
      await driver.stop(s);
      const toSim = socks.records.filter((r) => r.target === `127.0.0.1:${sim.port}`);
      expect(toSim.length).toBeGreaterThan(0);
      expect(toSim.every((r) => r.kind === 'socks5' && r.allowed)).toBe(true);
    } finally {
      await socks.close();
    }
  });
});

describe('browser chat driver limits', () => {
  let small: BrowserChatDriver;
  beforeAll(() => {
    small = createBrowserChatDriver({
      chromiumPath: CHROMIUM,
      // No stop-button selector: an answer is done when the send button is back (and the answer stays put).
      site: siteAdapter('gpt', sim.url, { stop: '' }),
      maxContexts: 1,
      stateStore: {
        load: async (id, provider) => states.get(`${provider}:${id}`) ?? null,
        save: async (id, provider, json) => void states.set(`${provider}:${id}`, json),
      },
      timeouts: { navigationMs: 15_000, replyMs: 30_000, codeWaitMs: 300 },
    });
  });
  afterAll(() => small?.close());

  it('closes the oldest idle context with its state saved and reopens it from that state', async () => {
    sim.setAccount('old@example.com', { password: 'pw' });
    sim.setAccount('new@example.com', { password: 'pw' });
    const older = session('old@example.com', 'pw');
    const newer = session('new@example.com', 'pw');
    expect(await small.login(older)).toEqual({ kind: 'ready' });
    expect(await small.login(newer)).toEqual({ kind: 'ready' });
    expect(small.openContexts).toBe(1);
    expect(states.has(`gpt:${older.sessionId}`)).toBe(true);

    sim.requests.length = 0;
    expect((await small.send(older, [], 'back again')).text).toContain('You said: back again');
    expect(sim.requests.some((r) => r.path.startsWith('/auth'))).toBe(false);
    expect(small.openContexts).toBe(1);
  });

  it('gives up a code page that waited too long', async () => {
    sim.setAccount('slow@example.com', { password: 'pw', needsCode: true });
    const s = session('slow@example.com', 'pw');
    expect(await small.login(s)).toEqual({ kind: 'code_required' });
    await expect.poll(() => small.openContexts, { timeout: 10_000 }).toBe(0);
    expect(await small.submitCode(s, sim.outbox('slow@example.com')!)).toMatchObject({
      kind: 'failed',
      error: { kind: 'no_code_pending' },
    });
  });
});
