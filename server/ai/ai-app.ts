import type { FastifyInstance } from 'fastify';
import { aiRoutes, type AiRoutesDeps } from './ai.routes';

/**
 * The AI service as a Fastify plugin: every /api/ai/* route. server/app.ts mounts it on the API's origin (the
 * default); with AI_PORT set, `buildAiApp` (server/app.ts) serves it on a port of its own instead.
 */
export async function aiService(app: FastifyInstance, deps: AiRoutesDeps) {
  await app.register(aiRoutes, deps);
}

/** CORS for the panel's own origin only (bearer tokens, no cookies): the AI service on its own port. */
export function allowPanelOrigin(app: FastifyInstance, publicUrl: string) {
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
