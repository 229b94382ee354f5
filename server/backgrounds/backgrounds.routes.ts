import { FolderListQuery } from '../../src/contract/list-queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BACKGROUND_UPLOAD_DOC,
  BackgroundFolderSchema,
  BackgroundItemSchema,
  BM,
  FolderItemsPageSchema,
  FolderSchema,
  UploadResultSchema,
} from '../../src/contract/backgrounds';
import { errorResponses, IdParams, idParams, pageOf, PageQuery, SelectOptionSchema } from '../../src/contract/http';
import { requireUser } from '../auth/guards';
import { AppError } from '../http/errors';
import { uploadParts } from '../http/multipart';
import { API_TAGS, BEARER } from '../http/openapi';
import type { BackgroundsService } from './backgrounds.service';

const fails = errorResponses(400, 401, 404, 500);

/**
 * SPEC §7 Background: folders (/api/folder/photo-bg…) and items (/api/photo-bg…). Uploads use the
 * @fastify/multipart registration of app.ts (no file size limit) and are streamed, never buffered.
 */
export async function backgroundsRoutes(
  app: FastifyInstance,
  { backgrounds: bg }: { backgrounds: BackgroundsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.backgrounds], security: BEARER };

  r.get(
    '/api/folder/photo-bg',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List folders',
        description: 'Search `q` (name or id), filter `userId` (admins), sort by any column.',
        querystring: FolderListQuery,
        response: { 200: pageOf(BackgroundFolderSchema), ...fails },
      },
    },
    async (req) => bg.listFolders(req.user, req.query),
  );
  r.get(
    '/api/folder/photo-bg/select',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Folder options for select menus',
        response: { 200: z.array(SelectOptionSchema), ...fails },
      },
    },
    async (req) => bg.folderOptions(req.user),
  );
  r.get(
    '/api/folder/photo-bg/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Read a folder',
        params: IdParams,
        response: { 200: BackgroundFolderSchema, ...fails },
      },
    },
    async (req) => bg.getFolder(req.user, req.params.id),
  );
  r.post(
    '/api/folder/photo-bg',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Create a folder',
        body: FolderSchema,
        response: { 201: BackgroundFolderSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await bg.createFolder(req.user, req.body)),
  );
  r.patch(
    '/api/folder/photo-bg/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Rename a folder',
        params: IdParams,
        body: FolderSchema,
        response: { 200: BackgroundFolderSchema, ...fails },
      },
    },
    async (req) => bg.renameFolder(req.user, req.params.id, req.body),
  );
  r.delete(
    '/api/folder/photo-bg/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Delete a folder with its items',
        params: IdParams,
        response: { 200: BackgroundFolderSchema, ...fails },
      },
    },
    async (req) => bg.deleteFolder(req.user, req.params.id),
  );

  r.get(
    '/api/photo-bg',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List every item',
        querystring: PageQuery,
        response: { 200: pageOf(BackgroundItemSchema), ...fails },
      },
    },
    async (req) => bg.listAllItems(req.user, req.query.page),
  );
  r.get(
    '/api/photo-bg/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: "A folder's items (24 a page)",
        params: idParams('folderId'),
        querystring: PageQuery,
        response: { 200: FolderItemsPageSchema, ...fails },
      },
    },
    async (req) => bg.listFolderPage(req.user, req.params.id, req.query.page),
  );
  r.delete(
    '/api/photo-bg/:id',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Delete an item',
        params: IdParams,
        response: { 200: BackgroundItemSchema, ...fails },
      },
    },
    async (req) => bg.deleteItem(req.user, req.params.id),
  );
  r.post(
    '/api/photo-bg',
    {
      ...auth,
      config: { userLimit: ['uploads'] },
      schema: {
        ...doc,
        summary: 'Upload pictures and videos into a folder (all or nothing)',
        description:
          'Streamed multipart; the real content is checked (magic bytes, ffprobe, preview). ' +
          'A refused file is a 400 naming it (`files.0`, `videos.1`).',
        consumes: ['multipart/form-data'],
        multipartBody: BACKGROUND_UPLOAD_DOC,
        response: { 201: UploadResultSchema, ...fails },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new AppError(400, BM.notMultipart, { body: BM.notMultipart });
      return reply.status(201).send(await bg.upload(req.user, uploadParts(req)));
    },
  );
}
