import { z } from 'zod';
import { OwnerSchema, pageOf, SelectOptionSchema } from './http';
import type { Page } from './pagination';

/** Background messages (i18n keys; the SPEC §5 strings live in i18n/uk.ts). */
export const BM = {
  nameRequired: 'kadr.validation.name_required',
  tooLong: 'kadr.validation.too_long',
  mustBeImage: 'kadr.validation.file_must_be_image',
  mustBeVideo: 'kadr.validation.file_must_be_video',
  atLeastOneFile: 'kadr.validation.at_least_one_file',
  folderRequired: 'kadr.backgrounds.errors.folder_required',
  notMultipart: 'kadr.backgrounds.errors.not_multipart',
  uploadFailed: 'kadr.backgrounds.errors.upload_failed',
} as const;

export const FOLDER_NAME_MAX = 100;
/** The folder grid's page size (the server decides it; the panel uses the same constant). */
export const BG_PAGE_SIZE = 24;
/** Multipart field names of the upload form (SPEC §3 Upload form: files = images, videos; `[]` suffix accepted). */
export const UPLOAD_FIELDS = { images: 'files', videos: 'videos', folder: 'folderId' } as const;

const nameField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : ''),
  z.string().min(1, BM.nameRequired).max(FOLDER_NAME_MAX, BM.tooLong),
);

/** SPEC §5 folder form: name required. The panel's form, POST and PATCH /api/folder/photo-bg. */
export const FolderSchema = z.object({ name: nameField }).meta({ example: { name: 'Море' } });
export type FolderBody = z.infer<typeof FolderSchema>;

export const BACKGROUND_TYPES = ['image', 'video'] as const;
export type BackgroundType = (typeof BACKGROUND_TYPES)[number];

/** SPEC §3 Background folder (plus its owner and item count). */
export const BackgroundFolderSchema = z
  .object({ id: z.number().int(), name: z.string(), total: z.number().int(), user: OwnerSchema, createdAt: z.string() })
  .meta({ id: 'BackgroundFolder' });
export type BackgroundFolder = z.infer<typeof BackgroundFolderSchema>;

/** GET /api/folder/photo-bg/select: the folders as select options. */
export const FolderOptionsSchema = z.array(SelectOptionSchema);

/** SPEC §3 Background item. `url` and `previewUrl` are signed, expiring media links. */
export const BackgroundItemSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(BACKGROUND_TYPES),
    url: z.string().meta({ example: '/api/media/bg/2/7/5.jpg?exp=1767225600&sig=…' }),
    previewUrl: z.string().nullable(),
    folderId: z.number().int(),
    name: z.string(),
    size: z.number().int(),
  })
  .meta({ id: 'BackgroundItem' });
export type BackgroundItem = z.infer<typeof BackgroundItemSchema>;

/** GET /api/photo-bg/{folderId}: the page envelope plus the folder. */
export const FolderItemsPageSchema = z.object({
  ...pageOf(BackgroundItemSchema).shape,
  folder: z.object({ id: z.number().int(), name: z.string() }),
});
export type FolderItemsPage = Page<BackgroundItem> & { folder: { id: number; name: string } };

/** POST /api/photo-bg answer. */
export const UploadResultSchema = z.object({ data: z.array(BackgroundItemSchema) });
export type UploadResult = z.infer<typeof UploadResultSchema>;

/** The multipart fields of POST /api/photo-bg, for the API docs (the route streams them, so no body schema). */
export const BACKGROUND_UPLOAD_DOC = {
  type: 'object',
  required: ['folderId'],
  properties: {
    folderId: { type: 'integer', description: 'The folder the files go to' },
    files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'Pictures (`files[]` accepted)' },
    videos: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'Videos (`videos[]` accepted)' },
  },
} as const;

/** Declared-type rules of SPEC §5 (the server also checks the real content). */
export const isImageType = (type: string | undefined) => !!type && type.toLowerCase().startsWith('image/');
export const isVideoType = (type: string | undefined) => !!type && type.toLowerCase().startsWith('video/');
