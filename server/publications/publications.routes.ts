import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, pageOf } from '../../src/contract/http';
import { PublicationListQuery } from '../../src/contract/list-queries';
import { toId } from '../../src/contract/ids';
import { M } from '../../src/contract/messages';
import type { PlatformKey } from '../../src/contract/platforms';
import { platformIn } from '../../src/contract/platform-schemas';
import type { AuthUser } from '../../src/contract/auth';
import {
  AiPublishedSchema,
  ProfileConnectionsSchema,
  PublicationCreatedSchema,
  PublishSourceSchema,
  publicationCreateSchema,
  publicationPatchSchema,
  PublicationSchema,
  PublishOneSchema,
  type Publication,
  PublishRulesSchema,
  YouTubeItemSchema,
} from '../../src/contract/publications';
import { TikTokCreatorInfoSchema } from '../../src/contract/platform-posts';
import { actingOf, requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { PlatformRegistry } from '../platforms/registry';
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

/** A post's route parameters: its video, and its platform (one of `known`, the registry's). */
const postParams = (known: readonly PlatformKey[]) =>
  z
    .object({
      videoId: z.string().meta({ description: 'The video id', example: '40' }),
      platform: platformIn(known).meta({ description: 'The platform of the post', example: 'youtube' }),
    })
    .transform((p, ctx) => {
      const videoId = toId(p.videoId);
      if (videoId < 1) ctx.addIssue({ code: 'custom', path: ['videoId'], message: M.invalidId });
      return { videoId, platform: p.platform };
    });
const AiParams = z
  .object({ id: z.string().meta({ description: 'The AI video id', example: '7' }) })
  .transform((p, ctx) => {
    const id = toId(p.id);
    if (id < 1) ctx.addIssue({ code: 'custom', path: ['id'], message: M.invalidId });
    return { id };
  });
const AccountParams = z
  .object({ account: z.string().meta({ description: 'The profile id', example: '12' }) })
  .transform((p, ctx) => {
    const account = toId(p.account);
    if (account < 1) ctx.addIssue({ code: 'custom', path: ['account'], message: M.invalidId });
    return { account };
  });
const ConnectionsQuery = z.object({
  accounts: z
    .string()
    .max(2000)
    .optional()
    .meta({ description: 'Profile ids, comma-separated', example: '12,15' })
    .transform((raw, ctx) => {
      const ids = (raw ?? '').split(',').filter(Boolean).map(toId);
      if (ids.some((id) => id < 1)) ctx.addIssue({ code: 'custom', message: M.invalidId });
      return [...new Set(ids)].slice(0, 1000);
    }),
});

/** SPEC §7 Videos, publishing part: publications of finished create-video requests. */
export async function publicationsRoutes(
  app: FastifyInstance,
  { publications, platforms }: { publications: PublicationsService; platforms: PlatformRegistry },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const publishing = { ...auth, config: { userLimit: ['publish'] as const } };
  const doc = { tags: [API_TAGS.publications], security: BEARER };
  // Dates beyond PUBLISH_HORIZON_DAYS from the moment of the request are a 400 naming the field, like any other.
  const horizonDays = app.config.publishHorizonDays;
  // A post may go to any platform of the root's registry: the panel's list, plus any a test's registry adds (typed
  // as the list, which the registry equals outside tests).
  const known = Object.keys(platforms) as PlatformKey[];
  const CreateBody = publicationCreateSchema({ days: horizonDays, now: Date.now }, known);
  const PatchBody = publicationPatchSchema(known);
  const PostParams = postParams(known);
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
    '/api/upload-video/connections',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Which platforms each of the given profiles is connected to (the publish form’s defaults)',
        querystring: ConnectionsQuery,
        response: { 200: ProfileConnectionsSchema, ...fails },
      },
    },
    async (req) => publications.connections(req.user, req.query.accounts),
  );
  r.get(
    '/api/upload-video/form/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'What the publish form of a create-video request starts from (its outputs, whether it was sent)',
        params: RequestParams,
        response: { 200: PublishSourceSchema, ...fails },
      },
    },
    async (req) => publications.requestSource(req.user, req.params.id),
  );
  r.get(
    '/api/upload-video/form/ai/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "What the publish form of an AI video starts from (its title, description, tags, session's profile)",
        params: AiParams,
        response: { 200: PublishSourceSchema, ...fails },
      },
    },
    async (req) => publications.aiSource(req.user, req.params.id),
  );
  r.post(
    '/api/upload-video/ai/:id',
    {
      ...publishing,
      schema: {
        ...doc,
        summary: 'Publish an AI video through the publish form',
        description:
          'The body is the publish form’s; its one video is the AI video (`video[0].id` = its id). Platforms per ' +
          'profile as in POST /api/upload-video/{idUpload}; what the profile is not connected to is skipped.',
        params: AiParams,
        body: CreateBody,
        response: { 201: AiPublishedSchema, ...fails },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await publications.createForAi(actingOf(req), req.params.id, req.body)),
  );
  r.get(
    '/api/upload-video/tiktok/creator-info/:account',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "A profile's TikTok creator_info: the privacy levels and switches a post may choose now",
        description:
          'TikTok asks apps to read creator_info before each post and offer only what it allows; the publish form ' +
          'shows these options per profile.',
        params: AccountParams,
        response: { 200: TikTokCreatorInfoSchema, ...fails },
      },
    },
    async (req) => publications.tiktokCreatorInfo(req.user, req.params.account),
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
          'Each video goes to its profile at its date (an instant, stored in UTC) on the platforms chosen for that ' +
          'profile (`profiles`), else on every platform toggled on. A chosen platform the profile is not ' +
          'connected to is skipped and listed in `skipped`; only a form that would publish nothing is refused.',
        params: RequestParams,
        body: CreateBody,
        response: { 201: PublicationCreatedSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await publications.create(actingOf(req), req.params.id, req.body)),
  );
  r.patch(
    '/api/upload-video/:id',
    {
      ...publishing,
      schema: {
        ...doc,
        summary: 'Edit a publication',
        description:
          'Applies to the videos no platform has started yet: changed fields, and the platforms chosen for their ' +
          'profile (`profiles`, else the toggles) as in POST /api/upload-video/{idUpload}: a chosen platform the ' +
          'profile is not connected to is skipped and listed in `skipped`; only an edit that would publish ' +
          'nothing is refused.',
        params: RefParams,
        body: PatchBody,
        response: { 200: PublicationCreatedSchema, ...fails },
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
    async (req) => publications.remove(actingOf(req), req.params.id),
  );
  const postRoute = (
    action: 'retry' | 'cancel' | 'stats',
    summary: string,
    description: string,
    run: (user: AuthUser, p: { videoId: number; platform: PlatformKey }) => Promise<Publication>,
  ) =>
    r.post(
      `/api/upload-video/video/:videoId/:platform/${action}`,
      {
        ...auth,
        schema: {
          ...doc,
          summary,
          description,
          params: PostParams,
          response: { 200: PublicationSchema, ...errorResponses(400, 401, 404, 429, 500) },
        },
      },
      async (req) => run(req.user, req.params),
    );
  postRoute(
    'retry',
    'Retry a retrying post now',
    'A post (video × platform) retrying past its time looks again now: its queued step is moved, never doubled; ' +
      'when the outcome of the public step is unknown it asks the platform (reconciles) now.',
    (user, p) => publications.retryPost(user, p.videoId, p.platform),
  );
  postRoute(
    'cancel',
    'Cancel one post',
    'The post (video × platform) is cancelled with its jobs unless it has reached the public step.',
    (user, p) => publications.cancelPost(user, p.videoId, p.platform),
  );
  postRoute(
    'stats',
    "Read a published post's stats now",
    'Views, likes and comments read now within the platform quota; once per post per 5 minutes (429 otherwise).',
    (user, p) => publications.refreshStats(user, p.videoId, p.platform),
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
    async (req) => publications.removeVideo(actingOf(req), req.params.videoId),
  );
}
