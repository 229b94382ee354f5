import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AI_PROVIDERS,
  AiChatReplySchema,
  AiCodeSchema,
  AiEmailSchema,
  AiLogSchema,
  AiLoginDeepSeekSchema,
  AiLoginReplySchema,
  AiLoginSchema,
  AiPublishSchema,
  AiReplySchema,
  AiScreenshotReplySchema,
  AiSessionDetailSchema,
  AiSessionSchema,
  AiTypeSchema,
  AiVideoActionSchema,
  AiVideoRequestSchema,
  AiVideoSchema,
} from '../../src/contract/ai';
import { errorResponses, IdParams, pageOf, PageQuery } from '../../src/contract/http';
import { actingOf, requireUser } from '../auth/guards';
import { localeOf, translate } from '../http/i18n';
import { API_TAGS, BEARER } from '../http/openapi';
import type { LimitKind } from '../http/user-limits';
import type { AiService } from './ai.service';
import type { AiVideosService } from './ai-videos.service';

const fails = errorResponses(400, 401, 404, 500);
const DetailQuery = z.object({ type: z.enum(AI_PROVIDERS).optional().default('gpt') });

/** The caller's translator (Accept-Language), for stored messages and reply texts. */
const tOf = (req: FastifyRequest) => {
  const locale = localeOf(req.headers['accept-language']);
  return (s: string) => translate(s, locale);
};
/** A reply with its message translated. */
const said = async <T extends { message: string }>(req: FastifyRequest, p: Promise<T>): Promise<T> => {
  const r = await p;
  return { ...r, message: tOf(req)(r.message) };
};

export type AiRoutesDeps = { ai: AiService; videos: AiVideosService };

/** SPEC §7 AI service: every /api/ai/* call (the AI service's own Fastify app, or mounted on the API). */
export async function aiRoutes(app: FastifyInstance, { ai, videos }: AiRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.ai], security: BEARER };

  r.get(
    '/api/ai/info',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List AI sessions',
        querystring: PageQuery,
        response: { 200: pageOf(AiSessionSchema), ...fails },
      },
    },
    async (req) => ai.list(req.user, req.query.page, tOf(req)),
  );
  r.get(
    '/api/ai/info/logs',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The AI log',
        querystring: PageQuery,
        response: { 200: pageOf(AiLogSchema), ...fails },
      },
    },
    async (req) => ai.logs(req.user, req.query.page, tOf(req)),
  );
  r.get(
    '/api/ai/info/video',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Generated videos (rejected ones left out)',
        querystring: PageQuery,
        response: { 200: pageOf(AiVideoSchema), ...fails },
      },
    },
    async (req) => videos.list(req.user, req.query.page, tOf(req)),
  );
  r.get(
    '/api/ai/info/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "A session with one provider's whole chat history and its screenshots",
        params: IdParams,
        querystring: DetailQuery,
        response: { 200: AiSessionDetailSchema, ...fails },
      },
    },
    async (req) => ai.detail(req.user, req.params.id, req.query.type, tOf(req)),
  );
  r.delete(
    '/api/ai/info/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Delete an AI session', params: IdParams, response: { 200: AiReplySchema, ...fails } },
    },
    async (req) => said(req, ai.remove(req.user, req.params.id)),
  );

  const post = <B extends z.ZodType, R extends z.ZodType>(
    path: string,
    summary: string,
    body: B,
    reply: R,
    handle: (req: FastifyRequest & { body: z.infer<B> }) => Promise<z.infer<R> & { message: string }>,
    /** The per-user limit a call counts against (server/http/user-limits.ts): chat and generation calls. */
    userLimit?: readonly LimitKind[],
  ) =>
    app.post(
      `/api/ai/setting/${path}`,
      { ...auth, config: { userLimit }, schema: { ...doc, summary, body, response: { 200: reply, ...fails } } },
      async (req) => said(req, handle(req as FastifyRequest & { body: z.infer<B> })),
    );

  post('login', 'Log in to GPT (creates or updates the session by email)', AiLoginSchema, AiLoginReplySchema, (q) =>
    ai.login(q.user, q.body),
  );
  post('login-deepseek', 'Log the session in to DeepSeek', AiLoginDeepSeekSchema, AiLoginReplySchema, (q) =>
    ai.loginDeepSeek(q.user, q.body),
  );
  post('code', 'Send the verification code of a waiting login', AiCodeSchema, AiLoginReplySchema, (q) =>
    ai.code(q.user, q.body),
  );
  post('stop', 'Stop a session', AiEmailSchema, AiReplySchema, (q) => ai.stop(q.user, q.body));
  post('screenshot', "Screenshots of the session's pages", AiEmailSchema, AiScreenshotReplySchema, (q) =>
    ai.screenshot(q.user, q.body),
  );
  const asking = ['ai'] as const;
  post(
    'type',
    'Send a message to GPT (or ask for a video)',
    AiTypeSchema,
    AiChatReplySchema,
    (q) => (q.body.isSora ? videos.requestFor(q.user, q.body, 'gpt') : ai.type(q.user, q.body, 'gpt')),
    asking,
  );
  post(
    'type-deepseek',
    'Send a message to DeepSeek (or ask for a video)',
    AiTypeSchema,
    AiChatReplySchema,
    (q) => (q.body.isSora ? videos.requestFor(q.user, q.body, 'deepseek') : ai.type(q.user, q.body, 'deepseek')),
    asking,
  );
  post(
    'video',
    'Ask for a generated video',
    AiVideoRequestSchema,
    AiChatReplySchema,
    (q) => videos.requestFor(q.user, q.body, 'gpt'),
    asking,
  );
  post(
    'recreate',
    'Generate a video again',
    AiVideoActionSchema,
    AiReplySchema,
    (q) => videos.recreate(q.user, q.body.videoId),
    asking,
  );
  post('close', 'Reject a video (its file is freed)', AiVideoActionSchema, AiReplySchema, (q) =>
    videos.close(q.user, q.body.videoId),
  );
  post(
    'publication',
    "Publish a video to the session's profile",
    AiPublishSchema,
    AiReplySchema,
    (q) => videos.publish(actingOf(q), q.body.videoId),
    ['publish'],
  );
}
