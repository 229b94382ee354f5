import type { FastifyInstance } from 'fastify';
import { VM } from '../../src/contract/videos';
import { requireUser } from '../auth/guards';
import { AppError } from '../http/errors';
import { parsePage } from '../http/validate';
import type { VideosService } from './videos.service';
import { uploadParts } from '../http/multipart';

type Q = { Querystring: { page?: string }; Params: { id: string } };

/** SPEC §7 Videos, create-video part. DELETE has its own path (the original wired it to the background delete). */
export async function createVideoRoutes(app: FastifyInstance, { videos }: { videos: VideosService }) {
  const auth = { preHandler: requireUser };
  app.get<Q>('/api/create-video', auth, async (req) => videos.list(req.user, parsePage(req.query.page)));
  app.get<Q>('/api/create-video/request/:id', auth, async (req) => videos.get(req.user, req.params.id));
  app.delete<Q>('/api/create-video/:id', auth, async (req) => videos.remove(req.user, req.params.id));
  app.post('/api/create-video/create', auth, async (req, reply) => {
    if (!req.isMultipart()) throw new AppError(400, VM.notMultipart);
    return reply.status(201).send(await videos.create(req.user, uploadParts(req)));
  });
}
