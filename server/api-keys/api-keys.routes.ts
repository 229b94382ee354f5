import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiKeyCreatedSchema,
  ApiKeyCreateSchema,
  ApiKeyListQuerySchema,
  ApiKeyListSchema,
  ApiKeySchema,
} from '../../src/contract/personal-keys';
import { errorResponses, IdParams } from '../../src/contract/http';
import { actingOf, requireUser } from '../auth/guards';
import { API_TAGS, SESSION_ONLY } from '../http/openapi';
import type { ApiKeysService } from './api-keys.service';

const fails = errorResponses(400, 401, 403, 404, 500);

/**
 * GET/POST /api/api-keys, DELETE /api/api-keys/{id} (revoke), from a session only: the caller's own keys; an admin
 * also lists another user's (`?userId=`) and revokes anyone's.
 */
export async function apiKeysRoutes(app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeysService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.apiKeys], security: SESSION_ONLY };
  r.get(
    '/api/api-keys',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "Own API keys (an admin: any user's, by userId)",
        querystring: ApiKeyListQuerySchema,
        response: { 200: ApiKeyListSchema, ...fails },
      },
    },
    async (req) => apiKeys.list(req.user, req.query.userId),
  );
  r.post(
    '/api/api-keys',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Make an API key (the key is in this answer only)',
        body: ApiKeyCreateSchema,
        response: { 201: ApiKeyCreatedSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await apiKeys.create(actingOf(req), req.body)),
  );
  r.delete(
    '/api/api-keys/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "Revoke an own API key, or (an admin) anyone's; refused from the next request on",
        params: IdParams,
        response: { 200: ApiKeySchema, ...fails },
      },
    },
    async (req) => apiKeys.revoke(actingOf(req), req.params.id),
  );
}
