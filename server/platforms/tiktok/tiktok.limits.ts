/**
 * TikTok Content Posting API numbers (developers.tiktok.com, Media Transfer Guide, Direct Post reference, Content
 * Sharing Guidelines) and the chunk plan of a FILE_UPLOAD.
 *
 * Chunk rules, as documented:
 * - total_chunk_count = floor(video_size / chunk_size);
 * - every chunk is 5–64 MB, except the final one, which absorbs the trailing bytes and may reach 128 MB;
 * - a video under 5 MB goes as one chunk whose size is the whole file; over 64 MB it must be split;
 * - 1 to 1000 chunks, sent in order.
 */
import { PlatformError } from '../types';

export const MIB = 1024 * 1024;
export const TIKTOK_CHUNK_MIN = 5 * MIB;
export const TIKTOK_CHUNK_MAX = 64 * MIB;
export const TIKTOK_LAST_CHUNK_MAX = 128 * MIB;
export const TIKTOK_MAX_CHUNKS = 1000;
/** What Kadr sends per chunk unless told otherwise: small enough that a resume re-sends little. */
export const TIKTOK_DEFAULT_CHUNK = 10 * MIB;
/** The largest file TikTok accepts (4 GB). */
export const TIKTOK_MAX_VIDEO_BYTES = 4 * 1024 * MIB;
/** post_info.title, the caption: at most 2200 UTF-16 code units. */
export const TIKTOK_CAPTION_MAX = 2200;

/** Per access token, per minute (Direct Post reference and Get Post Status). */
export const TIKTOK_RATE_LIMITS = {
  creatorInfo: { requests: 20, windowSec: 60 },
  init: { requests: 6, windowSec: 60 },
  status: { requests: 30, windowSec: 60 },
} as const;

/**
 * Caps of the Content Sharing Guidelines, for the quota counter: posts to one creator in a rolling 24 h through
 * Direct Post ("typically around 15", it varies per creator), drafts waiting in the creator's inbox (5 per 24 h),
 * and creators an unaudited app may post for (5 per 24 h, privately only).
 */
export const TIKTOK_POSTING_LIMITS = {
  postsPer24h: 15,
  pendingSharesPer24h: 5,
  unauditedUsersPer24h: 5,
  windowSec: 24 * 3600,
} as const;

export interface TikTokChunkPlan {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

/**
 * The chunk plan for a file of `size` bytes. `preferred` is clamped to 5–64 MB; a file smaller than one chunk
 * goes whole. Throws PlatformError 'bad-request' for an empty file or one TikTok cannot take.
 */
export function tiktokChunkPlan(size: number, preferred: number = TIKTOK_DEFAULT_CHUNK): TikTokChunkPlan {
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new PlatformError({ kind: 'bad-request', platform: 'tiktok', code: 'empty_file', key: 'tiktok_file_empty' });
  }
  if (size > TIKTOK_MAX_VIDEO_BYTES) {
    const params = { size: formatBytes(size), max: formatBytes(TIKTOK_MAX_VIDEO_BYTES) };
    throw new PlatformError({
      kind: 'bad-request',
      platform: 'tiktok',
      code: 'file_too_large',
      key: 'tiktok_file_size',
      params,
    });
  }
  const chunk = Math.min(Math.max(Math.floor(preferred), TIKTOK_CHUNK_MIN), TIKTOK_CHUNK_MAX);
  if (size < TIKTOK_CHUNK_MIN || size <= chunk) return { videoSize: size, chunkSize: size, totalChunkCount: 1 };
  // Over 64 MB the file must be split: with a large preferred chunk, two halves.
  if (size > TIKTOK_CHUNK_MAX && size < 2 * chunk) {
    return { videoSize: size, chunkSize: Math.floor(size / 2), totalChunkCount: 2 };
  }
  // The last chunk is chunk + (size mod chunk) < 2 × 64 MB = 128 MB; 4 GB / 5 MB < 1000 chunks.
  return { videoSize: size, chunkSize: chunk, totalChunkCount: Math.floor(size / chunk) };
}

/** Bytes [start, end) of chunk `index`; the last one runs to the end of the file. */
export function tiktokChunkRange(plan: TikTokChunkPlan, index: number): { start: number; end: number } {
  const start = index * plan.chunkSize;
  const end = index === plan.totalChunkCount - 1 ? plan.videoSize : start + plan.chunkSize;
  return { start, end };
}

/** The first chunk TikTok does not hold whole, given the `uploaded_bytes` it reports. */
export function tiktokResumeChunk(plan: TikTokChunkPlan, uploadedBytes: number): number {
  if (uploadedBytes >= plan.videoSize) return plan.totalChunkCount;
  const whole = Math.floor(Math.max(0, uploadedBytes) / plan.chunkSize);
  return Math.min(whole, plan.totalChunkCount - 1);
}

export function formatBytes(n: number): string {
  if (n >= 1024 * MIB) return `${(n / (1024 * MIB)).toFixed(2)} GB`;
  if (n >= MIB) return `${(n / MIB).toFixed(1)} MB`;
  return `${n} B`;
}
