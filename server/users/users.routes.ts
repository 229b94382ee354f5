import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  UserAccountItemSchema,
  UserBodySchema,
  UserPatchSchema,
  UserRecordSchema,
  UserVideoItemSchema,
} from '../../src/contract/users';
import { errorResponses, IdParams, pageOf, PageQuery } from '../../src/contract/http';
import { UserListQuery } from '../../src/contract/list-queries';
import { actingOf, requireAdmin } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { UsersService } from './users.service';

const doc = { tags: [API_TAGS.users], security: BEARER };
const fails = errorResponses(400, 401, 403, 404, 500);

/** SPEC §7 Users: admin-only on the server (403 for a user). */
export async function usersRoutes(app: FastifyInstance, { users }: { users: UsersService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before validation, so a caller without the right gets 401/403 whatever the input.
  r.addHook('preValidation', requireAdmin);
  r.get(
    '/api/users',
    {
      schema: {
        ...doc,
        summary: 'List users',
        description: 'Search `q` (login or id), filter `role`, sort by any column.',
        querystring: UserListQuery,
        response: { 200: pageOf(UserRecordSchema), ...fails },
      },
    },
    async (req) => users.list(req.query),
  );
  r.get(
    '/api/users/:id',
    {
      schema: { ...doc, summary: 'Read a user', params: IdParams, response: { 200: UserRecordSchema, ...fails } },
    },
    async (req) => users.get(req.params.id),
  );
  r.post(
    '/api/users',
    {
      schema: { ...doc, summary: 'Create a user', body: UserBodySchema, response: { 201: UserRecordSchema, ...fails } },
    },
    async (req, reply) => reply.status(201).send(await users.create(actingOf(req), req.body)),
  );
  r.patch(
    '/api/users/:id',
    {
      schema: {
        ...doc,
        summary: 'Edit a user (a new password ends their other sessions)',
        description: 'A missing or empty `password` keeps the current one.',
        params: IdParams,
        body: UserPatchSchema,
        response: { 200: UserRecordSchema, ...fails },
      },
    },
    async (req) => users.update(actingOf(req), req.params.id, req.body),
  );
  r.delete(
    '/api/users/:id',
    {
      schema: { ...doc, summary: 'Delete a user', params: IdParams, response: { 200: UserRecordSchema, ...fails } },
    },
    async (req) => users.remove(actingOf(req), req.params.id),
  );
  r.get(
    '/api/users/:id/account',
    {
      schema: {
        ...doc,
        summary: "A user's profiles",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: pageOf(UserAccountItemSchema), ...fails },
      },
    },
    async (req) => users.accountsOf(req.params.id, req.query.page),
  );
  r.get(
    '/api/users/:id/video',
    {
      schema: {
        ...doc,
        summary: "A user's videos",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: pageOf(UserVideoItemSchema), ...fails },
      },
    },
    async (req) => users.videosOf(req.params.id, req.query.page),
  );
}
