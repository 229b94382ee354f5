import type { Readable } from 'node:stream';

/**
 * Where media bytes live (uploaded backgrounds, uploaded clips, rendered outputs, thumbnails). Keys are
 * relative slash paths such as `backgrounds/7/3f2a….mp4`; callers never build filesystem paths themselves.
 *
 * Every write is atomic: bytes go to a local staging file first and appear under their key only on commit,
 * so a reader never sees half a file and a failed or interrupted write leaves nothing behind.
 * LocalStorage (data/media, the embedded default) commits with a rename; S3Storage (STORAGE=s3) commits with
 * a multipart upload that is aborted when it fails. Tools that need a file (ffmpeg, ffprobe) get one through
 * `inputPath` (a download into the caller's scratch folder on S3) and write theirs at a `tempPath`.
 */
export interface Storage {
  /**
   * Streams `body` into a new staging file (never buffered whole). Nothing is visible at any key until
   * `commit`; on a stream error the staging file is removed and the promise rejects.
   */
  stage(body: Readable, opts?: { ext?: string; sniffBytes?: number }): Promise<Staged>;
  /**
   * A fresh local staging path (not created) for a tool that writes a file itself (ffmpeg output; pass it to
   * `putFile`), or for a scratch folder; `sweepStaging` removes what a crash leaves there.
   */
  tempPath(ext?: string): string;
  /** Moves a local file (usually from `tempPath`) under `key` atomically; the source is gone afterwards. */
  putFile(key: string, localPath: string): Promise<{ size: number }>;
  /** Stores a stream under `key`, atomically (local disk: stage + commit; S3: a streamed multipart upload). */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** A read stream of the whole object, or of bytes `start..end` inclusive. Rejects with code ENOENT when missing. */
  createReadStream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size and modification time, or null when the key does not exist. */
  stat(key: string): Promise<{ size: number; mtime: Date } | null>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A local path ffmpeg/ffprobe can read for `key`: on local disk the file itself; on S3 a copy downloaded
   * into `scratchDir`, a folder the caller owns and removes when done (a missing object rejects with code
   * ENOENT there; on local disk the path is returned and reading it fails).
   */
  inputPath(key: string, scratchDir: string): Promise<string>;
  /**
   * Removes what a crash left in the staging area (files and scratch folders older than `maxAgeMs`);
   * returns how many.
   */
  sweepStaging(maxAgeMs?: number): Promise<number>;
  /**
   * Aborts the multipart uploads a killed process left (S3: those its ledger still holds past `maxAgeMs`, default
   * S3_STALE_UPLOAD_HOURS); returns their keys. Local disk has none: its writes are renames of staging files.
   */
  sweepUploads(maxAgeMs?: number): Promise<string[]>;
  /** Every object whose key starts with `prefix/` (staging files excluded), in no particular order. */
  list(prefix: string): AsyncIterable<{ key: string; mtime: Date }>;
}

/** A staged write: inspect it at `path`, then commit it under a key or discard it. */
export interface Staged {
  /** Local path of the staging file (ffprobe can read it before commit). */
  readonly path: string;
  readonly size: number;
  /** The first bytes of the stream (for magic-byte checks), up to `sniffBytes` (default 4100). */
  readonly head: Buffer;
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

/** Keys are relative paths of safe segments: letters, digits, `_`, `-`, `.` (no `..`, no leading dot). */
const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}\/){0,8}[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;
export const isValidKey = (key: string) => KEY.test(key) && !key.split('/').some((s) => s === '..' || s.includes('..'));

export function assertKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

/** Content types for the extensions this app stores (media serving sends them). */
export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  avif: 'image/avif',
  heic: 'image/heic',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  ogv: 'video/ogg',
  ts: 'video/mp2t',
  mpg: 'video/mpeg',
  flv: 'video/x-flv',
  wmv: 'video/x-ms-wmv',
  '3gp': 'video/3gpp',
};
export const contentTypeOf = (key: string) =>
  CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
