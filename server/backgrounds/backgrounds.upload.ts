/** The parts of a background upload: how each received file is checked and previewed before anything is kept. */
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { UPLOAD_FIELDS, type BackgroundType } from '../../src/contract/backgrounds';
import type { Media, Staged } from '../media/storage/index';
import type { MediaTools } from './backgrounds.media';
import { sniffImage, sniffVideo } from './sniff';

const VIDEO_PREVIEW_AT_SEC = 0.1; // SPEC §9

/** A received file: staged on disk, then checked and previewed, then committed with its row (or discarded). */
export type Pending = {
  kind: BackgroundType;
  field: string;
  index: number;
  name: string;
  mime: string;
  staged?: Staged;
  format?: string;
  thumb?: string;
};

/** Real content: magic bytes first, then ffprobe, then the preview (a file we cannot preview is refused). */
export async function inspectUpload(
  p: Pending,
  media: Media,
  tools: MediaTools,
  log?: FastifyBaseLogger,
): Promise<boolean> {
  const staged = p.staged!;
  const format = p.kind === 'image' ? sniffImage(staged.head) : sniffVideo(staged.head);
  if (!format) return false;
  const ok = p.kind === 'image' ? await tools.isImage(staged.path) : await tools.isVideo(staged.path);
  if (!ok) return false;
  p.format = format;
  const thumb = media.storage.tempPath('jpg');
  try {
    await tools.thumbnail(staged.path, thumb, { atSec: p.kind === 'video' ? VIDEO_PREVIEW_AT_SEC : undefined });
    p.thumb = thumb;
    return true;
  } catch (err) {
    await rm(thumb, { force: true });
    log?.warn({ err: (err as Error).message, kind: p.kind }, 'background preview failed');
    return false;
  }
}

/** Removes what an upload that failed had staged and previewed. */
export async function discardUploads(pending: Pending[]): Promise<void> {
  await Promise.all(
    pending.map(async (p) => {
      await p.staged?.discard().catch(() => {});
      if (p.thumb) await rm(p.thumb, { force: true }).catch(() => {});
    }),
  );
}

/** `files`, `files[]`, `files[0]` → `files`. */
export const fieldName = (name: string) => name.replace(/\[\d*\]$/, '');
export const kindOfField = (name: string): BackgroundType | null =>
  fieldName(name) === UPLOAD_FIELDS.images ? 'image' : fieldName(name) === UPLOAD_FIELDS.videos ? 'video' : null;
