import Fastify, { type FastifyInstance } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import type { Container } from '../container';
import { M } from '../../src/contract/messages';
import { frameworkErrorAnswer, installErrorHandler } from '../http/errors';
import { installCloseOnUnreadBody, installJsonParser } from '../http/bad-input';
import { registerOpenapi } from '../http/openapi';
import { registerSecurityHeaders } from '../http/security-headers';
import { serializerCompiler, validatorCompiler } from '../http/schema';
import { localeOf, translate } from '../http/i18n';
import { aiRoutes } from './ai.routes';

/**
 * The AI service as a Fastify plugin: every /api/ai/* route. app.ts mounts it on the API's origin (the
 * default); with AI_PORT set, main.ts serves it from `buildAiApp` on a port of its own instead.
 */
export async function aiService(app: FastifyInstance, { root }: { root: Container }) {
  await app.register(aiRoutes, { ai: root.services.ai, videos: root.services.aiVideos });
}

/**
 * A standalone AI service over the same composition root: the same database, bearer tokens (same JWT secret
 * and session check), error shape, security headers and API docs (/api/openapi.json, /api/docs). The panel's
 * origin (PUBLIC_URL) may call it cross-origin.
 */
export async function buildAiApp(root: Container): Promise<FastifyInstance> {
  const { config } = root;
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkErrorAnswer,
  });
  installJsonParser(app);
  installCloseOnUnreadBody(app);
  installErrorHandler(app);
  await registerSecurityHeaders(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenapi(app);
  await app.register(fastifyJwt, { secret: config.jwtSecret, sign: { expiresIn: config.accessTokenTtlSec } });
  app.decorate('root', root);
  app.decorate('db', root.db);
  app.decorate('dbKind', root.dbKind);
  app.decorate('config', config);
  app.decorate('media', root.media);
  allowPanelOrigin(app, config.publicUrl);
  await app.register(aiService, { root });
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send({ message: translate(M.notFound, localeOf(req.headers['accept-language'])), statusCode: 404 }),
  );
  return app;
}

/** CORS for the panel's own origin only (bearer tokens, no cookies). */
function allowPanelOrigin(app: FastifyInstance, publicUrl: string) {
  const origin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers.origin !== origin) return;
    reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin');
    if (req.method === 'OPTIONS') {
      reply
        .header('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS')
        .header('Access-Control-Allow-Headers', 'authorization, content-type, accept-language')
        .header('Access-Control-Max-Age', '600');
      return reply.status(204).send();
    }
  });
}
