import type { FastifyInstance } from 'fastify';
import { TagSetPatchSchema, TagSetSchema } from '../../src/contract/tags';
import { requireUser } from '../auth/guards';
import { parseId, parsePage, validate } from '../http/validate';
import type { TagsService } from './tags.service';

type Q = { Querystring: { page?: string }; Params: { id: string } };

/** SPEC §7 Tags: GET/POST /api/tags, GET/PATCH/DELETE /api/tags/{id}. */
export async function tagsRoutes(app: FastifyInstance, { tags }: { tags: TagsService }) {
  const auth = { preHandler: requireUser };
  app.get<Q>('/api/tags', auth, async (req) => tags.list(req.user, parsePage(req.query.page)));
  app.get<Q>('/api/tags/:id', auth, async (req) => tags.get(req.user, parseId(req.params.id)));
  app.post('/api/tags', auth, async (req, reply) => reply.status(201).send(await tags.create(req.user, validate(TagSetSchema, req.body))));
  app.patch<Q>('/api/tags/:id', auth, async (req) => tags.update(req.user, parseId(req.params.id), validate(TagSetPatchSchema, req.body)));
  app.delete<Q>('/api/tags/:id', auth, async (req) => tags.remove(req.user, parseId(req.params.id)));
}
