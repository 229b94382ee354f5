import Fastify from 'fastify';
import { simMedia, videoRoutes } from './ai-sim-videos';

export { SIM_FAIL_WORD } from './ai-sim-videos';

/** The API key the simulator accepts unless told otherwise. */
export const AI_SIM_KEY = 'sk-sim-valid';

type Fault = { status: number; code?: string; message?: string };
type ChatMessage = { role: string; content: string };
type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; maxLength?: number; items?: JsonSchema };

export type AiSimulator = {
  url: string;
  /** Accepted bearer keys. */
  keys: Set<string>;
  /** false: the server refuses response_format json_schema (like DeepSeek and many local servers). */
  jsonSchema: boolean;
  /** Answers the next `times` chat/models calls with this error (OpenAI's error body). */
  failNext(status: number, opts?: { code?: string; message?: string; times?: number }): void;
  /** Every chat request's body, in order. */
  chats: Array<{ model: string; messages: ChatMessage[]; response_format?: { type: string } }>;
  videos: Map<string, unknown>;
  close(): Promise<void>;
};

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request'],
  401: ['authentication_error', 'Incorrect API key provided'],
  402: ['insufficient_balance', 'Insufficient Balance'],
  429: ['rate_limit_error', 'Rate limit reached'],
  500: ['server_error', 'The server had an error'],
  503: ['server_error', 'The server is overloaded'],
};
const errorBody = (status: number, code?: string, message?: string) => {
  const [type, text] = ERROR_TYPES[status] ?? ['server_error', 'Error'];
  return { error: { message: message ?? text, type, param: null, code: code ?? null } };
};

/** A value shaped by a JSON schema, with the last user text in its strings (deterministic). */
function fill(schema: JsonSchema | undefined, name: string, text: string): unknown {
  if (!schema) return `${name}: ${text}`;
  if (schema.type === 'object')
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fill(s, k, text)]));
  if (schema.type === 'array') return [String(fill(schema.items, name, text)).slice(0, 20), 'sim'];
  if (schema.type === 'number' || schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return true;
  return `${name}: ${text}`.slice(0, schema.maxLength ?? 500);
}

/**
 * An OpenAI-compatible server for tests and SIMULATORS=on, at `/` and `/v1`: GET /models, POST
 * /chat/completions (deterministic answers, JSON schema replies, DeepSeek's json_object rule, SSE streaming),
 * bearer keys, scripted errors, and the video APIs (./ai-sim-videos.ts). Control it in-process or through
 * POST /__sim/fail {status, code?, times?}.
 */
export async function startAiSimulator(opts: { ffmpegPath?: string; port?: number } = {}): Promise<AiSimulator> {
  const app = Fastify({ logger: false });
  const faults: Fault[] = [];
  const sim = { keys: new Set([AI_SIM_KEY]), jsonSchema: true, chats: [] as AiSimulator['chats'] };
  app.addContentTypeParser(
    /^multipart\/form-data/,
    { parseAs: 'buffer' },
    async (req: { headers: Record<string, unknown> }, buf: Buffer) => {
      const form = await new Response(new Uint8Array(buf), {
        headers: { 'content-type': String(req.headers['content-type']) },
      }).formData();
      return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
    },
  );
  app.post<{ Body: Fault & { times?: number } }>('/__sim/fail', async (req) => {
    for (let i = 0; i < (req.body.times ?? 1); i++) faults.push(req.body);
    return { ok: true };
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/__sim')) return;
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!key || !sim.keys.has(key)) return reply.status(401).send(errorBody(401, 'invalid_api_key'));
    const fault = req.url.includes('videos') ? undefined : faults.shift();
    if (fault) return reply.status(fault.status).send(errorBody(fault.status, fault.code, fault.message));
  });

  for (const base of ['', '/v1']) {
    app.get(`${base}/models`, async () => ({
      object: 'list',
      data: ['sim-chat', 'sim-video'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'kadr-sim' })),
    }));
    app.post(`${base}/chat/completions`, async (req, reply) => {
      const body = req.body as AiSimulator['chats'][number] & {
        stream?: boolean;
        response_format?: { type: string; json_schema?: { schema?: JsonSchema } };
      };
      sim.chats.push(body);
      const msgs = body.messages ?? [];
      const last = [...msgs].reverse().find((m) => m.role === 'user')?.content ?? '';
      // A brief ("… about: <topic>\n…") is answered about its topic.
      const topic = /about: (.*)/.exec(last)?.[1] ?? last;
      const format = body.response_format?.type;
      let content: string;
      if (format === 'json_schema') {
        if (!sim.jsonSchema)
          return reply
            .status(400)
            .send(errorBody(400, 'invalid_request_error', 'response_format json_schema is unavailable'));
        content = JSON.stringify(fill(body.response_format?.json_schema?.schema, 'value', topic));
      } else if (format === 'json_object') {
        if (!msgs.some((m) => /json/i.test(m.content)))
          return reply.status(400).send(errorBody(400, 'invalid_request_error', "Prompt must contain the word 'json'"));
        const embedded = /JSON schema: (\{.*\})\s*$/s.exec(msgs.find((m) => m.role === 'system')?.content ?? '')?.[1];
        content = JSON.stringify(
          fill(embedded ? (JSON.parse(embedded) as JsonSchema) : { type: 'object' }, 'value', last),
        );
      } else {
        content = `**Sim** answer to: ${last} (history ${msgs.length - 1})`;
      }
      const id = `chatcmpl-${sim.chats.length}`;
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream)
        return {
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        };
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const parts = content.match(/.{1,16}/gs) ?? [];
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      reply.raw.write(chunk({ role: 'assistant', content: '' }, null));
      for (const p of parts) reply.raw.write(chunk({ content: p }, null));
      reply.raw.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
      return reply;
    });
  }
  const videos = videoRoutes(app, simMedia(opts.ffmpegPath ?? 'ffmpeg'));
  const url = await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  return Object.assign(sim, {
    url,
    videos: videos as Map<string, unknown>,
    failNext(status: number, o: { code?: string; message?: string; times?: number } = {}) {
      for (let i = 0; i < (o.times ?? 1); i++) faults.push({ status, code: o.code, message: o.message });
    },
    close: () => app.close(),
  });
}
