import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ErrorSchema } from '../../src/contract/http';
import { LIMIT_MESSAGES, type LimitKind } from '../../src/contract/limits';
import { AppError, TooManyRequests } from './errors';
import { M } from '../../src/contract/messages';

export type { LimitKind } from '../../src/contract/limits';

/** Per-user limits of expensive operations (config.ts: LIMIT_*_PER_HOUR): at most `max[kind]` per window, 0 = none. */
export type UserLimits = { windowMs: number; max: Record<LimitKind, number> };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The per-user limits an accepted request of this route counts against (server/http/user-limits.ts). */
    userLimit?: readonly LimitKind[];
  }
}

/**
 * The one guard of expensive operations. A route declares what it costs, `config: { userLimit: ['renders'] }`,
 * and gets a preHandler (after its auth guard and schema validation, before the handler reads an upload's
 * body) that counts the request for the signed-in user in the database (user-limit-counter.ts) or answers
 * 429 with `Retry-After` and a message naming the limit and when it frees. The route's docs gain the 429.
 */
export function installUserLimits(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const kinds = route.config?.userLimit;
    if (!kinds?.length) return;
    const guard: preHandlerAsyncHookHandler = async (req: FastifyRequest) => {
      if (!req.user) throw new AppError(401, M.unauthorized);
      const refused = await req.server.root.userLimits.take(req.user.id, kinds);
      if (!refused) return;
      const minutes = Math.ceil(refused.waitSec / 60);
      throw new TooManyRequests(LIMIT_MESSAGES[refused.kind], refused.waitSec, { limit: refused.limit, minutes });
    };
    const own = route.preHandler;
    route.preHandler = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), guard];
    const response = route.schema?.response as Record<number, unknown> | undefined;
    if (response) response[429] ??= ErrorSchema;
  });
}
