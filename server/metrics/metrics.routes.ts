import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import type { Metrics } from './metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics` for Prometheus, only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise: a missing or
 * wrong token), and the HTTP latency of every request of the app. Registered only when the token is configured.
 */
export async function metricsRoutes(app: FastifyInstance, { metrics, token }: { metrics: Metrics; token: string }) {
  const expected = digest(`Bearer ${token}`);
  const allowed = (req: FastifyRequest) => timingSafeEqual(digest(req.headers.authorization ?? ''), expected);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!allowed(req)) throw new AppError(401, M.unauthorized);
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}

/** Observes every answered request of `app` by its route pattern (added before the routes, so it sees them all). */
export function measureHttp(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (req, reply) => {
    metrics.observeHttp(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}
