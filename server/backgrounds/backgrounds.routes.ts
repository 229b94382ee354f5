import type { FastifyInstance } from 'fastify';
import { BM, FolderSchema } from '../../src/contract/backgrounds';
import { requireUser } from '../auth/guards';
import { AppError } from '../http/errors';
import { parseId, parsePage, validate } from '../http/validate';
import type { BackgroundsService } from './backgrounds.service';
import { uploadParts } from '../http/multipart';

type Q = { Querystring: { page?: string }; Params: { id: string } };

/**
 * SPEC §7 Background: folders (/api/folder/photo-bg…) and items (/api/photo-bg…). Uploads use the
 * @fastify/multipart registration of app.ts (no file size limit) and are streamed, never buffered.
 */
export async function backgroundsRoutes(app: FastifyInstance, { backgrounds: bg }: { backgrounds: BackgroundsService }) {
  const auth = { preHandler: requireUser };

  app.get<Q>('/api/folder/photo-bg', auth, async (req) => bg.listFolders(req.user, parsePage(req.query.page)));
  app.get('/api/folder/photo-bg/select', auth, async (req) => bg.folderOptions(req.user));
  app.get<Q>('/api/folder/photo-bg/:id', auth, async (req) => bg.getFolder(req.user, parseId(req.params.id)));
  app.post('/api/folder/photo-bg', auth, async (req, reply) => reply.status(201).send(await bg.createFolder(req.user, validate(FolderSchema, req.body))));
  app.patch<Q>('/api/folder/photo-bg/:id', auth, async (req) => bg.renameFolder(req.user, parseId(req.params.id), validate(FolderSchema, req.body)));
  app.delete<Q>('/api/folder/photo-bg/:id', auth, async (req) => bg.deleteFolder(req.user, parseId(req.params.id)));

  app.get<Q>('/api/photo-bg', auth, async (req) => bg.listAllItems(req.user, parsePage(req.query.page)));
  app.get<Q>('/api/photo-bg/:id', auth, async (req) => bg.listFolderPage(req.user, parseId(req.params.id, 'folderId'), parsePage(req.query.page)));
  app.delete<Q>('/api/photo-bg/:id', auth, async (req) => bg.deleteItem(req.user, parseId(req.params.id)));
  app.post('/api/photo-bg', auth, async (req, reply) => {
    if (!req.isMultipart()) throw new AppError(400, BM.notMultipart);
    return reply.status(201).send(await bg.upload(req.user, uploadParts(req)));
  });
}
