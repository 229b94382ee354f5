import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index';
import type { Storage } from '../media/storage/index';
import { readiness } from './health';

/**
 * `GET /health/live` (200 while the process runs) and `GET /health/ready` (200 when the database and the storage
 * answer, else 503 naming what failed), without authentication, for load balancers and orchestrators: on the
 * API's port in `api` and `all` processes, on HEALTH_PORT in a `worker` process (server/main.ts).
 */
export async function healthRoutes(app: FastifyInstance, deps: { db: Db; storage: Storage }) {
  app.get('/health/live', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true }, logLevel: 'warn' }, async (req, reply) => {
    const ready = await readiness(deps, (check, err) => req.log.warn({ err, check }, 'readiness check failed'));
    return reply.status(ready.status === 'ok' ? 200 : 503).send(ready);
  });
}
