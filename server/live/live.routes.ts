import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, IdParams, NoContent, PageQuery } from '../../src/contract/http';
import {
  LiveStreamQuery,
  LiveTicketSchema,
  NotificationPageSchema,
  NotificationSchema,
  ReadAllSchema,
} from '../../src/contract/live';
import { requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { LiveService } from './live.service';
import type { LiveStreams } from './live.stream';

const fails = errorResponses(400, 401, 404, 500);

/** Bearer token's session id (requireUser has verified the token already). */
const sessionOf = (app: FastifyInstance, authorization = '') =>
  String(app.jwt.decode<{ sid?: string }>(authorization.replace(/^Bearer /i, ''))?.sid ?? '');

/**
 * Live updates: POST /api/live/ticket, GET /api/live/events (server-sent events). The bell:
 * GET /api/notifications, POST /api/notifications/{id}/read, POST /api/notifications/read, DELETE /api/notifications/{id}.
 */
export async function liveRoutes(app: FastifyInstance, { live, streams }: { live: LiveService; streams: LiveStreams }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.live], security: BEARER };
  // Streams end before the server closes, so app.close() and a shutdown never wait for them.
  app.addHook('preClose', async () => streams.closeAll());

  r.post(
    '/api/live/ticket',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'A short-lived ticket that opens the live stream',
        response: { 200: LiveTicketSchema, ...fails },
      },
    },
    async (req) => live.ticket(req.user.id, sessionOf(app, req.headers.authorization)),
  );
  r.get(
    '/api/live/events',
    {
      schema: {
        tags: [API_TAGS.live],
        summary: 'Server-sent events about the caller’s rows (admins: everybody’s), resumable by Last-Event-ID',
        querystring: LiveStreamQuery,
        response: { 200: z.string().describe('text/event-stream'), ...fails },
      },
    },
    (req, reply) => streams.stream(req, req.query, reply),
  );
  r.get(
    '/api/notifications',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The caller’s notifications, newest first, with the unread count',
        querystring: PageQuery,
        response: { 200: NotificationPageSchema, ...fails },
      },
    },
    async (req) => live.list(req.user, req.query.page),
  );
  r.post(
    '/api/notifications/read',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Mark all the caller’s notifications read',
        response: { 200: ReadAllSchema, ...fails },
      },
    },
    async (req) => live.readAll(req.user),
  );
  r.post(
    '/api/notifications/:id/read',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Mark one notification read',
        params: IdParams,
        response: { 200: NotificationSchema, ...fails },
      },
    },
    async (req) => live.read(req.user, req.params.id),
  );
  r.delete(
    '/api/notifications/:id',
    {
      ...auth,
      schema: { ...doc, summary: 'Delete a notification', params: IdParams, response: { 204: NoContent, ...fails } },
    },
    async (req, reply) => reply.status(204).send(await live.remove(req.user, req.params.id)),
  );
}
