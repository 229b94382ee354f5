import { TagSetListQuery } from '../../src/contract/list-queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TagSetPatchSchema, TagSetRecordSchema, TagSetSchema } from '../../src/contract/tags';
import { errorResponses, IdParams, pageOf } from '../../src/contract/http';
import { requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { TagsService } from './tags.service';

const fails = errorResponses(400, 401, 404, 500);

/** SPEC §7 Tags: GET/POST /api/tags, GET/PATCH/DELETE /api/tags/{id}. */
export async function tagsRoutes(app: FastifyInstance, { tags }: { tags: TagsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.tags], security: BEARER };
  r.get(
    '/api/tags',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List tag sets',
        description: 'Search `q` (name, tags or id), filter `userId` (admins), sort by any column.',
        querystring: TagSetListQuery,
        response: { 200: pageOf(TagSetRecordSchema), ...fails },
      },
    },
    async (req) => tags.list(req.user, req.query),
  );
  r.get(
    '/api/tags/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Read a tag set', params: IdParams, response: { 200: TagSetRecordSchema, ...fails } },
    },
    async (req) => tags.get(req.user, req.params.id),
  );
  r.post(
    '/api/tags',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Create a tag set',
        body: TagSetSchema,
        response: { 201: TagSetRecordSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await tags.create(req.user, req.body)),
  );
  r.patch(
    '/api/tags/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Edit a tag set',
        params: IdParams,
        body: TagSetPatchSchema,
        response: { 200: TagSetRecordSchema, ...fails },
      },
    },
    async (req) => tags.update(req.user, req.params.id, req.body),
  );
  r.delete(
    '/api/tags/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Delete a tag set',
        params: IdParams,
        response: { 200: TagSetRecordSchema, ...fails },
      },
    },
    async (req) => tags.remove(req.user, req.params.id),
  );
}
