import { RequestListQuery } from '../../src/contract/list-queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CREATE_VIDEO_UPLOAD_DOC,
  CreateVideoRequestDetailSchema,
  CreateVideoRequestSchema,
  RequestRefParams,
  VM,
} from '../../src/contract/videos';
import { errorResponses, pageOf } from '../../src/contract/http';
import { requireUser } from '../auth/guards';
import { AppError } from '../http/errors';
import { uploadParts } from '../http/multipart';
import { API_TAGS, BEARER } from '../http/openapi';
import type { VideosService } from './videos.service';

const fails = errorResponses(400, 401, 404, 500);

/** SPEC §7 Videos, create-video part. DELETE has its own path (the original wired it to the background delete). */
export async function createVideoRoutes(app: FastifyInstance, { videos }: { videos: VideosService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.videos], security: BEARER };
  r.get(
    '/api/create-video',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List create-video requests',
        description: 'Search `q` (clip name, idUpload or id), filters `status`, `userId` (admins), sort.',
        querystring: RequestListQuery,
        response: { 200: pageOf(CreateVideoRequestSchema), ...fails },
      },
    },
    async (req) => videos.list(req.user, req.query),
  );
  r.get(
    '/api/create-video/request/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'A request with its rendered videos',
        params: RequestRefParams,
        response: { 200: CreateVideoRequestDetailSchema, ...fails },
      },
    },
    async (req) => videos.get(req.user, req.params.id),
  );
  r.delete(
    '/api/create-video/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Delete a request, its videos and clip (stops a render in progress)',
        params: RequestRefParams,
        response: { 200: CreateVideoRequestSchema, ...fails },
      },
    },
    async (req) => videos.remove(req.user, req.params.id),
  );
  r.post(
    '/api/create-video/create',
    {
      ...auth,
      // A render request, and the clip's upload.
      config: { userLimit: ['renders', 'uploads'] },
      schema: {
        ...doc,
        summary: 'Upload a clip and ask for rendered videos',
        description: 'Streamed multipart; the clip is checked (magic bytes, ffprobe).',
        consumes: ['multipart/form-data'],
        multipartBody: CREATE_VIDEO_UPLOAD_DOC,
        response: { 201: CreateVideoRequestSchema, ...fails },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new AppError(400, VM.notMultipart, { body: VM.notMultipart });
      return reply.status(201).send(await videos.create(req.user, uploadParts(req)));
    },
  );
}
