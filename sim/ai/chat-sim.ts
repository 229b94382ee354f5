/**
 * A small chat web app standing in for chatgpt.com / chat.deepseek.com in the browser driver's tests and bench:
 *
 *   GET  /                           → /c when logged in, else /auth/login
 *   GET  /auth/login, POST           the login form (one step, or email then password with `twoStepLogin`);
 *                                    a wrong password shows an error; an account flagged `needsCode` goes on to
 *   GET  /auth/email-verification, POST   the code form (the code is "mailed" to GET /__sim/outbox?email=)
 *   GET  /c                          the chat page (./chat-sim-pages.ts); POST /backend-api/conversation streams
 *                                    the answer in (a JSON object when the prompt asks for JSON)
 *   challenge mode                   every page is Cloudflare's "Just a moment…" (403)
 *
 * A cookie session (`sim_sid`) keeps the login, so a stored storageState skips the form. Controls, in process
 * or over HTTP like the platform simulators: POST /__sim/reset, /__sim/account {email,password,needsCode},
 * /__sim/mode {mode, twoStepLogin?, jsonFaults?}, GET /__sim/outbox?email=.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { challengePage, chatPage, codePage, esc, loginPage, type SimTurn } from './chat-sim-pages';

export type ChatSimAccount = { password: string; needsCode?: boolean };
export type ChatSimMode = 'normal' | 'challenge';
type Session = { email: string; stage: 'code' | 'in'; turns: SimTurn[] };

export interface ChatSim {
  url: string;
  port: number;
  setAccount(email: string, account: ChatSimAccount): void;
  setMode(mode: ChatSimMode): void;
  /** The next `n` JSON answers are prose without JSON (extract's retry). */
  failJson(n: number): void;
  twoStepLogin: boolean;
  /** The last code sent to `email`, if any. */
  outbox(email: string): string | undefined;
  /** Every request: method, path and whether it carried a logged-in session cookie. */
  requests: Array<{ method: string; path: string; loggedIn: boolean }>;
  reset(): void;
  close(): Promise<void>;
}

export type ChatSimOptions = {
  port?: number;
  host?: string;
  /** Delay between streamed chunks of an answer (default 40 ms). */
  chunkDelayMs?: number;
  /**
   * For clicking through by hand (SIMULATORS=on): an email not set up with setAccount logs in with any password
   * but "wrong", and needs a code when it contains "+code" (e.g. ann+code@example.com). Reset keeps it.
   */
  openAccounts?: boolean;
};

export async function startChatSim(opts: ChatSimOptions = {}): Promise<ChatSim> {
  const accounts = new Map<string, ChatSimAccount>();
  const sessions = new Map<string, Session>();
  const mail = new Map<string, string>();
  const requests: ChatSim['requests'] = [];
  let mode: ChatSimMode = 'normal';
  let jsonFaults = 0;
  const chunkDelayMs = opts.chunkDelayMs ?? 40;

  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const session = (req: FastifyRequest) => {
    const sid = /(?:^|;\s*)sim_sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
    return sid ? sessions.get(sid) : undefined;
  };
  const startSession = (reply: FastifyReply, s: Session) => {
    const sid = randomBytes(18).toString('base64url');
    sessions.set(sid, s);
    reply.header('set-cookie', `sim_sid=${sid}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000`);
  };
  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply.code(status).type('text/html; charset=utf-8').send(body);

  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    requests.push({ method: req.method, path, loggedIn: session(req)?.stage === 'in' });
    if (mode === 'challenge' && !path.startsWith('/__sim/')) return html(reply, challengePage(), 403);
  });

  app.get('/', (req, reply) => reply.redirect(session(req)?.stage === 'in' ? '/c' : '/auth/login'));
  app.get('/auth/login', (req, reply) =>
    session(req)?.stage === 'in'
      ? reply.redirect('/c')
      : html(reply, loginPage({ step: sim.twoStepLogin ? 'email' : 'both' })),
  );
  app.post('/auth/login', (req, reply) => {
    const { email = '', password } = (req.body ?? {}) as Record<string, string>;
    if (password === undefined && sim.twoStepLogin) return html(reply, loginPage({ step: 'password', email }));
    const account = accountFor(email.trim().toLowerCase(), password ?? '');
    if (!account || account.password !== password) {
      const step = sim.twoStepLogin ? 'password' : 'both';
      return html(reply, loginPage({ step, email, error: 'Wrong email or password.' }), 401);
    }
    if (account.needsCode) {
      mail.set(email.trim().toLowerCase(), String(randomInt(100000, 1000000)));
      startSession(reply, { email: email.trim().toLowerCase(), stage: 'code', turns: [] });
      return reply.redirect('/auth/email-verification', 303);
    }
    startSession(reply, { email: email.trim().toLowerCase(), stage: 'in', turns: [] });
    return reply.redirect('/c', 303);
  });
  app.get('/auth/email-verification', (req, reply) => {
    const s = session(req);
    return s?.stage === 'code' ? html(reply, codePage({ email: s.email })) : reply.redirect('/auth/login');
  });
  app.post('/auth/email-verification', (req, reply) => {
    const s = session(req);
    if (s?.stage !== 'code') return reply.redirect('/auth/login', 303);
    const code = String(((req.body ?? {}) as Record<string, string>).code ?? '').trim();
    if (!code || mail.get(s.email) !== code) {
      return html(reply, codePage({ email: s.email, error: 'Incorrect code. Try again.' }), 400);
    }
    mail.delete(s.email);
    s.stage = 'in';
    return reply.redirect('/c', 303);
  });
  app.get('/c', (req, reply) => {
    const s = session(req);
    return s?.stage === 'in' ? html(reply, chatPage(s.turns)) : reply.redirect('/auth/login');
  });
  app.post('/backend-api/conversation', (req, reply) => {
    const s = session(req);
    if (s?.stage !== 'in') return reply.code(401).send({ detail: 'Unauthorized' });
    const text = String(((req.body ?? {}) as { text?: string }).text ?? '');
    const answer = answerFor(text, s.turns.length / 2 + 1);
    s.turns.push({ role: 'user', html: esc(text) }, { role: 'assistant', html: answer });
    const chunks = answer.match(/[\s\S]{1,24}/g) ?? [];
    const stream = Readable.from(
      (async function* () {
        for (const c of chunks) {
          await sleep(chunkDelayMs);
          yield c;
        }
      })(),
    );
    return reply.type('text/plain; charset=utf-8').send(stream);
  });

  function accountFor(email: string, password: string): ChatSimAccount | undefined {
    const known = accounts.get(email);
    if (known || !opts.openAccounts || !email.includes('@') || !password || password === 'wrong') return known;
    return { password, needsCode: email.includes('+code') };
  }

  function answerFor(text: string, n: number): string {
    const topic = text.split('\n')[0]!.slice(0, 60).trim();
    if (/json/i.test(text)) {
      if (jsonFaults > 0) {
        jsonFaults--;
        return `<p>Sure! A video about <em>${esc(topic)}</em> could be called “Sunrise”.</p>`;
      }
      const obj = {
        title: `Sim video ${n}`,
        description: `A short video about ${topic}`,
        tags: ['kadr', 'sim'],
        prompt: `A vertical video: ${topic}`,
      };
      return `<pre><code class="language-json">${esc(JSON.stringify(obj, null, 2))}</code></pre>`;
    }
    if (/xss/i.test(text)) {
      return (
        `<p>Careful <img src="x" onerror="window.__pwned=1"> <a href="javascript:alert(1)">bad</a> ` +
        `<a href="https://example.com/" onclick="alert(1)">good</a></p><script>window.__pwned=2</script>`
      );
    }
    return `<p>You said: <strong>${esc(text)}</strong></p><ul><li>Answer number ${n}</li><li>From ChatSim</li></ul>`;
  }

  app.post('/__sim/reset', async () => (sim.reset(), { ok: true }));
  app.post('/__sim/account', async (req) => {
    const b = (req.body ?? {}) as { email: string; password: string; needsCode?: boolean };
    sim.setAccount(b.email, { password: b.password, needsCode: b.needsCode });
    return { ok: true };
  });
  app.post('/__sim/mode', async (req) => {
    const b = (req.body ?? {}) as { mode?: ChatSimMode; twoStepLogin?: boolean; jsonFaults?: number };
    if (b.mode) sim.setMode(b.mode);
    if (b.twoStepLogin !== undefined) sim.twoStepLogin = b.twoStepLogin;
    if (b.jsonFaults !== undefined) sim.failJson(b.jsonFaults);
    return { ok: true };
  });
  app.get('/__sim/outbox', async (req, reply) => {
    const code = mail.get(String((req.query as { email?: string }).email ?? '').toLowerCase());
    return code ? { code } : reply.code(404).send({ error: 'no code' });
  });

  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const port = (app.server.address() as { port: number }).port;

  const sim: ChatSim = {
    url: `http://${host}:${port}`,
    port,
    twoStepLogin: false,
    requests,
    setAccount: (email, account) => void accounts.set(email.trim().toLowerCase(), account),
    setMode: (m) => void (mode = m),
    failJson: (n) => void (jsonFaults = n),
    outbox: (email) => mail.get(email.trim().toLowerCase()),
    reset() {
      accounts.clear();
      sessions.clear();
      mail.clear();
      requests.length = 0;
      mode = 'normal';
      jsonFaults = 0;
      sim.twoStepLogin = false;
    },
    close: () => app.close(),
  };
  return sim;
}

// `npx tsx sim/ai/chat-sim.ts` (CHAT_SIM_PORT=4110 for a fixed port): open accounts, for clicking through.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sim = await startChatSim({ port: Number(process.env.CHAT_SIM_PORT ?? 0), openAccounts: true });
  console.log(`Chat simulator on ${sim.url}: AI_GPT_SITE_URL=${sim.url} AI_DEEPSEEK_SITE_URL=${sim.url}`);
  console.log(
    `Any email logs in (password "wrong" fails; "+code" in the email asks for ${sim.url}/__sim/outbox?email=…)`,
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
