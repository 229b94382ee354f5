import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, pageOf } from '../../src/contract/http';
import { PublicationListQuery } from '../../src/contract/list-queries';
import { toId } from '../../src/contract/ids';
import { M } from '../../src/contract/messages';
import {
  publicationCreateSchema,
  PublicationPatchSchema,
  PublicationSchema,
  PublishOneSchema,
  PublishRulesSchema,
  YouTubeItemSchema,
} from '../../src/contract/publications';
import { requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { PublicationsService } from './publications.service';

const fails = errorResponses(400, 401, 404, 500);
const RefParams = z.object({
  id: z.string().meta({ description: "The publication's id, or its create-video request's idUpload", example: '12' }),
});
const RequestParams = z.object({
  id: z
    .string()
    .meta({ description: "The finished create-video request's idUpload (or id)", example: '9f86d081884c7d65' }),
});
const VideoParams = z
  .object({ videoId: z.string().meta({ description: 'The video id', example: '40' }) })
  .transform((p, ctx) => {
    const videoId = toId(p.videoId);
    if (videoId < 1) ctx.addIssue({ code: 'custom', path: ['videoId'], message: M.invalidId });
    return { videoId };
  });

/** SPEC §7 Videos, publishing part: publications of finished create-video requests. */
export async function publicationsRoutes(
  app: FastifyInstance,
  { publications }: { publications: PublicationsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const publishing = { ...auth, config: { userLimit: ['publish'] as const } };
  const doc = { tags: [API_TAGS.publications], security: BEARER };
  // Dates beyond PUBLISH_HORIZON_DAYS from the moment of the request are a 400 naming the field, like any other.
  const horizonDays = app.config.publishHorizonDays;
  const CreateBody = publicationCreateSchema({ days: horizonDays, now: Date.now });
  r.get(
    '/api/upload-video/rules',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The rules of a publication date (how many days ahead it may lie)',
        response: { 200: PublishRulesSchema, ...fails },
      },
    },
    async () => ({ horizonDays }),
  );
  r.get(
    '/api/upload-video',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The YouTube list: publications, newest first',
        description:
          'Search `q` (title, idUpload or id), filters `status`, `platform`, `dateFrom`/`dateTo` (a video planned in the range), `userId` (admins), sort.',
        querystring: PublicationListQuery,
        response: { 200: pageOf(YouTubeItemSchema), ...fails },
      },
    },
    async (req) => publications.list(req.user, req.query),
  );
  r.get(
    '/api/upload-video/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'A publication with its videos and their state on each platform',
        params: RefParams,
        response: { 200: PublicationSchema, ...fails },
      },
    },
    async (req) => publications.get(req.user, req.params.id),
  );
  r.post(
    '/api/upload-video/upload',
    {
      ...publishing,
      schema: {
        ...doc,
        summary: 'Publish one video again (status error or loading)',
        description: 'A failed platform starts over now; one whose job was lost goes on from its recorded step.',
        body: PublishOneSchema,
        response: { 200: PublicationSchema, ...fails },
      },
    },
    async (req) => publications.republish(req.user, req.body),
  );
  r.post(
    '/api/upload-video/:id',
    {
      ...publishing,
      schema: {
        ...doc,
        summary: "Publish a finished request's videos",
        description:
          'Each video goes to its profile at its date (an instant, stored in UTC) on every platform toggled on; ' +
          'each platform must be connected on the profile.',
        params: RequestParams,
        body: CreateBody,
        response: { 201: PublicationSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await publications.create(req.user, req.params.id, req.body)),
  );
  r.patch(
    '/api/upload-video/:id',
    {
      ...publishing,
      schema: {
        ...doc,
        summary: 'Edit a publication',
        description: 'Applies to the videos no platform has started yet: changed fields and the platform toggles.',
        params: RefParams,
        body: PublicationPatchSchema,
        response: { 200: PublicationSchema, ...fails },
      },
    },
    async (req) => publications.update(req.user, req.params.id, req.body),
  );
  r.delete(
    '/api/upload-video/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Delete a publication (cancels every video that has not gone live)',
        params: RefParams,
        response: { 200: PublicationSchema, ...fails },
      },
    },
    async (req) => publications.remove(req.user, req.params.id),
  );
  r.delete(
    '/api/upload-video/video/:videoId',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Take one video out of its publication before it goes live',
        params: VideoParams,
        response: { 200: PublicationSchema, ...fails },
      },
    },
    async (req) => publications.removeVideo(req.user, req.params.videoId),
  );
}
