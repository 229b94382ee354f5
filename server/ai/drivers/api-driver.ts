import OpenAI from 'openai';
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { z, type ZodType } from 'zod';
import { parseProxy } from '../../../src/contract/proxy';
import { buildProxyDispatcher } from '../../platforms/proxy-connector';
import type { NetworkErrorContext } from '../../platforms/network-errors';
import type { AiProviderConfig } from '../../config-ai';
import { AiDriverError, type AiChatDriver, type ChatTurn, type LoginOutcome, type SessionCtx } from './chat-driver';
import { toDriverError } from './api-errors';
import { markdownToHtml } from './html';

export type ApiDriverOptions = {
  provider: AiProviderConfig;
  timeoutMs: number;
  maxRetries: number;
  /** ALLOW_PRIVATE_PROXIES: a session proxy on loopback/private networks is taken (else refused: SSRF). */
  allowPrivateProxy: boolean;
};

type Held = {
  fingerprint: string;
  client: OpenAI;
  dispatcher: Dispatcher;
  /** Where calls go, to tell a failure to connect (through the session's proxy, or direct). */
  net: NetworkErrorContext;
  aborts: Set<AbortController>;
};
type Msg = { role: 'system' | 'user' | 'assistant'; content: string };

/**
 * The `api` chat driver: an OpenAI-compatible chat API (OpenAI, DeepSeek, a local server) through the
 * session's own proxy (one undici dispatcher per session, the platforms' connector with its SSRF guard). The
 * session password is the API key; login is GET /models; there is no code step.
 */
export class ApiChatDriver implements AiChatDriver {
  private held = new Map<string, Held>();

  constructor(private o: ApiDriverOptions) {}

  private client(s: SessionCtx): Held {
    const slot = `${s.sessionId}:${s.provider}`;
    const fingerprint = `${s.proxy}\n${s.password}`;
    const current = this.held.get(slot);
    if (current?.fingerprint === fingerprint) return current;
    if (current) void this.release(slot);
    const parsed = s.proxy ? parseProxy(s.proxy) : null;
    if (parsed && !parsed.ok)
      throw new AiDriverError('network', 'kadr.ai_errors.network', 'kadr.platform_errors.proxy_reason_invalid');
    const dispatcher = buildProxyDispatcher({
      proxy: parsed?.ok ? parsed.proxy : null,
      family: 4,
      timeoutMs: this.o.timeoutMs,
      connectTimeoutMs: Math.min(10_000, this.o.timeoutMs),
      allowPrivateProxy: this.o.allowPrivateProxy,
    });
    const client = new OpenAI({
      apiKey: s.password || 'none',
      baseURL: this.o.provider.baseUrl,
      maxRetries: this.o.maxRetries,
      timeout: this.o.timeoutMs,
      fetch: ((url: string, init: Record<string, unknown>) =>
        undiciFetch(url, { ...init, dispatcher } as never)) as unknown as typeof fetch,
    });
    const net = { proxy: parsed?.ok ? parsed.proxy : null, url: this.o.provider.baseUrl };
    const held = { fingerprint, client, dispatcher, net, aborts: new Set<AbortController>() };
    this.held.set(slot, held);
    return held;
  }

  /** Runs one call with an abort controller that stop() reaches. */
  private async call<T>(s: SessionCtx, fn: (c: OpenAI, signal: AbortSignal) => Promise<T>): Promise<T> {
    const held = this.client(s);
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    s.signal?.addEventListener('abort', onAbort, { once: true });
    held.aborts.add(ac);
    try {
      return await fn(held.client, ac.signal);
    } catch (err) {
      throw toDriverError(err, held.net);
    } finally {
      held.aborts.delete(ac);
      s.signal?.removeEventListener('abort', onAbort);
    }
  }

  async login(s: SessionCtx): Promise<LoginOutcome> {
    try {
      await this.call(s, (c, signal) => c.models.list({ signal }));
      return { kind: 'ready' };
    } catch (err) {
      return { kind: 'failed', error: toDriverError(err, { proxy: null, url: this.o.provider.baseUrl }) };
    }
  }

  async submitCode(): Promise<LoginOutcome> {
    return { kind: 'failed', error: new AiDriverError('no_code_pending', 'kadr.ai_errors.no_code_pending') };
  }

  async send(s: SessionCtx, history: ChatTurn[], text: string) {
    const messages: Msg[] = [
      ...history.map((t) => ({ role: t.role, content: t.text })),
      { role: 'user', content: text },
    ];
    const answer = await this.complete(s, messages);
    return { text: answer, html: markdownToHtml(answer) };
  }

  private async complete(s: SessionCtx, messages: Msg[], responseFormat?: unknown): Promise<string> {
    const res = await this.call(s, (c, signal) =>
      c.chat.completions.create(
        {
          model: this.o.provider.model,
          messages,
          ...(responseFormat ? { response_format: responseFormat as never } : {}),
        },
        { signal },
      ),
    );
    return res.choices[0]?.message?.content ?? '';
  }

  async extract<T>(s: SessionCtx, prompt: string, schema: ZodType<T>, name: string): Promise<T> {
    const jsonSchema = z.toJSONSchema(schema) as Record<string, unknown>;
    delete jsonSchema.$schema;
    const user: Msg = { role: 'user', content: prompt };
    try {
      const format = { type: 'json_schema', json_schema: { name, strict: true, schema: jsonSchema } };
      const parsed = check(schema, await this.complete(s, [user], format));
      if (parsed.ok) return parsed.value;
    } catch (err) {
      // A server without JSON schema answers 400: fall back to JSON mode; anything else is the answer.
      if (!(err instanceof AiDriverError) || err.kind !== 'bad_request') throw err;
    }
    // JSON mode (DeepSeek, many local servers): the word "json" must be in the prompt; check, retry once.
    const system: Msg = {
      role: 'system',
      content: `Answer with one json object only, matching this JSON schema: ${JSON.stringify(jsonSchema)}`,
    };
    const messages: Msg[] = [system, user];
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await this.complete(s, messages, { type: 'json_object' });
      const parsed = check(schema, answer);
      if (parsed.ok) return parsed.value;
      messages.push(
        { role: 'assistant', content: answer },
        { role: 'user', content: `That json does not match the schema (${parsed.error}). Answer again, json only.` },
      );
    }
    throw new AiDriverError('bad_request', 'kadr.ai_errors.bad_answer');
  }

  async screenshot() {
    return [];
  }

  async stop(s: SessionCtx): Promise<void> {
    await this.release(`${s.sessionId}:${s.provider}`);
  }

  private async release(slot: string): Promise<void> {
    const held = this.held.get(slot);
    if (!held) return;
    this.held.delete(slot);
    for (const ac of held.aborts) ac.abort();
    await held.dispatcher.close().catch(() => {});
  }

  async close(): Promise<void> {
    await Promise.all([...this.held.keys()].map((slot) => this.release(slot)));
  }
}

function check<T>(schema: ZodType<T>, text: string): { ok: true; value: T } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text.trim());
  } catch {
    return { ok: false, error: 'not valid JSON' };
  }
  const r = schema.safeParse(raw);
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}
