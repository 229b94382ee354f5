import { GroupListQuery } from '../../src/contract/list-queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountSearchQuerySchema,
  GroupListItemSchema,
  GroupPatchSchema,
  GroupRecordSchema,
  GroupSchema,
} from '../../src/contract/groups';
import { errorResponses, IdParams, pageOf } from '../../src/contract/http';
import { AccountOptionSchema } from '../../src/contract/profile-identity';
import { requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { GroupsService } from './groups.service';

const fails = errorResponses(400, 401, 404, 500);

/** SPEC §7: /api/accounts-group CRUD and GET /api/accounts/search?groupId (the group form's profile options). */
export async function groupsRoutes(app: FastifyInstance, { groups }: { groups: GroupsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.groups], security: BEARER };
  r.get(
    '/api/accounts-group',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List groups',
        description: 'Search `q` (name or id), filter `userId` (admins), sort by any column.',
        querystring: GroupListQuery,
        response: { 200: pageOf(GroupListItemSchema), ...fails },
      },
    },
    async (req) => groups.list(req.user, req.query),
  );
  r.get(
    '/api/accounts-group/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Read a group', params: IdParams, response: { 200: GroupRecordSchema, ...fails } },
    },
    async (req) => groups.get(req.user, req.params.id),
  );
  r.post(
    '/api/accounts-group',
    {
      ...auth,
      schema: { ...doc, summary: 'Create a group', body: GroupSchema, response: { 201: GroupRecordSchema, ...fails } },
    },
    async (req, reply) => reply.status(201).send(await groups.create(req.user, req.body)),
  );
  r.patch(
    '/api/accounts-group/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Edit a group',
        params: IdParams,
        body: GroupPatchSchema,
        response: { 200: GroupRecordSchema, ...fails },
      },
    },
    async (req) => groups.update(req.user, req.params.id, req.body),
  );
  r.delete(
    '/api/accounts-group/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Delete a group', params: IdParams, response: { 200: GroupRecordSchema, ...fails } },
    },
    async (req) => groups.remove(req.user, req.params.id),
  );
  r.get(
    '/api/accounts/search',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "Profile options for a group's picker (at most 100, plus the group's members)",
        querystring: AccountSearchQuerySchema,
        response: { 200: z.array(AccountOptionSchema), ...fails },
      },
    },
    async (req) => groups.search(req.user, req.query.groupId, req.query.q),
  );
}
