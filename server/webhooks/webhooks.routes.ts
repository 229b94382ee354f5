import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, IdParams } from '../../src/contract/http';
import {
  WEBHOOK_SECRET_GRACE_MS,
  WebhookCreatedSchema,
  WebhookCreateSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhookSecretRotatedSchema,
} from '../../src/contract/webhooks';
import { actingOf, requireUser } from '../auth/guards';
import { API_TAGS, SESSION_ONLY } from '../http/openapi';
import type { WebhooksService } from './webhooks.service';

const fails = errorResponses(400, 401, 403, 404, 500);

/**
 * /api/webhooks: a user's own webhooks (an admin sees and manages everyone's), their delivery log, "send test"
 * and "rotate secret". From a session only: an API key never reaches webhooks.
 */
export async function webhooksRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhooksService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.webhooks], security: SESSION_ONLY };
  r.get(
    '/api/webhooks',
    { ...auth, schema: { ...doc, summary: 'List webhooks', response: { 200: WebhookListSchema, ...fails } } },
    async (req) => webhooks.list(req.user),
  );
  r.post(
    '/api/webhooks',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Register a webhook (its secret is in this answer only)',
        body: WebhookCreateSchema,
        response: { 201: WebhookCreatedSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await webhooks.create(actingOf(req), req.body)),
  );
  r.get(
    '/api/webhooks/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Read a webhook', params: IdParams, response: { 200: WebhookSchema, ...fails } },
    },
    async (req) => webhooks.get(req.user, req.params.id),
  );
  r.patch(
    '/api/webhooks/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Change a webhook (URL, events, on/off)',
        params: IdParams,
        body: WebhookPatchSchema,
        response: { 200: WebhookSchema, ...fails },
      },
    },
    async (req) => webhooks.update(actingOf(req), req.params.id, req.body),
  );
  r.delete(
    '/api/webhooks/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Delete a webhook', params: IdParams, response: { 200: WebhookSchema, ...fails } },
    },
    async (req) => webhooks.remove(actingOf(req), req.params.id),
  );
  r.get(
    '/api/webhooks/:id/deliveries',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The delivery log: every attempt with its answer, newest first',
        params: IdParams,
        response: { 200: WebhookDeliveryListSchema, ...fails },
      },
    },
    async (req) => webhooks.deliveries(req.user, req.params.id),
  );
  r.post(
    '/api/webhooks/:id/test',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Send a test message now (logged, not retried)',
        params: IdParams,
        response: { 200: WebhookDeliverySchema, ...fails },
      },
    },
    async (req) => webhooks.sendTest(req.user, req.params.id),
  );
  r.post(
    '/api/webhooks/:id/rotate-secret',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Rotate the signing secret (the new one is in this answer only)',
        description:
          'Makes a new signing secret, answered this once. The old secret keeps signing every delivery for ' +
          `${WEBHOOK_SECRET_GRACE_MS / 3600_000} hours ` +
          '(until `previousSecretValidUntil`): meanwhile `webhook-signature` holds two signatures, space-separated, ' +
          'the new secret’s first (Standard Webhooks rotation), so a receiver can move to the new secret without ' +
          'refusing a message. A rotation within that time ends the older secret at once.',
        params: IdParams,
        response: { 200: WebhookSecretRotatedSchema, ...fails },
      },
    },
    async (req) => webhooks.rotateSecret(actingOf(req), req.params.id),
  );
}
