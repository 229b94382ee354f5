import { z } from 'zod';
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
export const FolderSchema = z.object({ name: nameField });
export type FolderBody = z.infer<typeof FolderSchema>;

export type BackgroundType = 'image' | 'video';

/** SPEC §3 Background folder (plus its owner and item count). */
export interface BackgroundFolder {
  id: number;
  name: string;
  total: number;
  user: { id: number; login: string };
  createdAt: string;
}

/** SPEC §3 Background item. `url` and `previewUrl` are signed, expiring media links. */
export interface BackgroundItem {
  id: number;
  type: BackgroundType;
  url: string;
  previewUrl: string | null;
  folderId: number;
  name: string;
  size: number;
}

/** GET /api/photo-bg/{folderId}: the page envelope plus the folder. */
export type FolderItemsPage = Page<BackgroundItem> & { folder: { id: number; name: string } };

/** POST /api/photo-bg answer. */
export interface UploadResult {
  data: BackgroundItem[];
}

/** Declared-type rules of SPEC §5 (the server also checks the real content). */
export const isImageType = (type: string | undefined) => !!type && type.toLowerCase().startsWith('image/');
export const isVideoType = (type: string | undefined) => !!type && type.toLowerCase().startsWith('video/');
