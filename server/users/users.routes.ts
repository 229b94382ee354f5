import type { FastifyInstance } from 'fastify';
import { UserBodySchema } from '../../src/contract/users';
import { requireAdmin } from '../auth/guards';
import { parseId, parsePage, validate } from '../http/validate';
import type { UsersService } from './users.service';

type Q = { Querystring: { page?: string }; Params: { id: string } };

/** SPEC §7 Users: admin-only on the server (403 for a user). */
export async function usersRoutes(app: FastifyInstance, { users }: { users: UsersService }) {
  app.addHook('preHandler', requireAdmin);
  app.get<Q>('/api/users', async (req) => users.list(parsePage(req.query.page)));
  app.get<Q>('/api/users/:id', async (req) => users.get(parseId(req.params.id)));
  app.post('/api/users', async (req, reply) => reply.status(201).send(await users.create(validate(UserBodySchema, req.body))));
  app.patch<Q>('/api/users/:id', async (req) => users.update(req.user, parseId(req.params.id), validate(UserBodySchema, req.body)));
  app.delete<Q>('/api/users/:id', async (req) => users.remove(req.user, parseId(req.params.id)));
  app.get<Q>('/api/users/:id/account', async (req) => users.accountsOf(parseId(req.params.id), parsePage(req.query.page)));
  app.get<Q>('/api/users/:id/video', async (req) => users.videosOf(parseId(req.params.id), parsePage(req.query.page)));
}
