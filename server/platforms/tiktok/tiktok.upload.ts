/**
 * The chunked PUT of a TikTok FILE_UPLOAD (Media Transfer Guide): each chunk streamed from the source with
 * Content-Type, Content-Length and Content-Range bytes FIRST-LAST/TOTAL, in order; TikTok answers 206, and 201
 * to the last chunk, whose completion makes the post.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { retryAfterSec } from '../common';
import type { PlatformHttp, PlatformResponse } from '../http';
import type { PublishSource, UploadProgress } from '../publish-types';
import { PlatformError, isPlatformError } from '../types';
import { tiktokChunkRange, tiktokResumeChunk, type TikTokChunkPlan } from './tiktok.limits';

export interface TikTokUploadOptions {
  /** The first chunk to send (from `tiktokResumeChunk(plan, status.uploadedBytes)` after a crash). */
  fromChunk?: number;
  onProgress?: UploadProgress;
  signal?: AbortSignal;
  /**
   * Asks TikTok how many bytes it holds (the job passes `() => status(token, id).then((s) => s.uploadedBytes)`).
   * With it, an out-of-step answer or an unknown outcome of the last chunk is resolved by resuming from what
   * TikTok holds; without it, they throw for the job to reconcile.
   */
  acknowledged?: () => Promise<number>;
}

export interface TikTokUploadTuning {
  /** Retries of one failed chunk (5xx, network) before giving up. */
  chunkRetries: number;
  /** Backoff between retries: retryDelayMs × attempt. */
  retryDelayMs: number;
  /** Limit of one chunk's PUT. */
  chunkTimeoutMs: number;
}

type ChunkResult = { ok: true } | { ok: false; transient: boolean; expired: boolean; error: PlatformError };

/** Times TikTok is asked where it stands during one call before the upload gives up. */
const MAX_RESYNCS = 5;

/**
 * Sends the chunks from `fromChunk` on. A chunk failing with a 5xx or a network error is sent again a bounded
 * number of times; the last chunk is not resent blindly, since its outcome decides the post: it is resolved
 * through `acknowledged` or thrown as `upload_outcome_unknown` (kind 'retry-later'). An expired link throws
 * `upload_expired`: nothing was posted, and once `status` confirms the file incomplete, a new init is safe.
 */
export async function uploadTikTokChunks(
  http: PlatformHttp,
  uploadUrl: string,
  source: PublishSource,
  plan: TikTokChunkPlan,
  opts: TikTokUploadOptions,
  tuning: TikTokUploadTuning,
): Promise<{ uploadedBytes: number }> {
  const total = plan.videoSize;
  const count = plan.totalChunkCount;
  if (source.size !== total) {
    const params = { size: source.size, planned: total };
    throw new PlatformError({
      kind: 'bad-request',
      platform: 'tiktok',
      code: 'size_mismatch',
      key: 'tiktok_upload_size_changed',
      params,
    });
  }
  const backoff = (attempt: number) =>
    tuning.retryDelayMs > 0
      ? sleep(tuning.retryDelayMs * attempt, undefined, { signal: opts.signal })
      : Promise.resolve();
  const giveUp = (last: boolean, sent: Extract<ChunkResult, { ok: false }>) =>
    last && sent.transient ? unknownOutcome(sent.error) : sent.error;

  let i = Math.max(0, Math.min(opts.fromChunk ?? 0, count));
  let failures = 0;
  let resyncs = 0;
  opts.onProgress?.(i < count ? tiktokChunkRange(plan, i).start : total, total);
  while (i < count) {
    const { start, end } = tiktokChunkRange(plan, i);
    const last = i === count - 1;
    const sent = await putChunk(http, uploadUrl, source, start, end, total, tuning.chunkTimeoutMs, opts.signal);
    if (sent.ok) {
      failures = 0;
      i++;
      opts.onProgress?.(end, total);
      continue;
    }
    if (sent.expired) throw sent.error;
    if (sent.transient && !last && failures < tuning.chunkRetries) {
      failures++;
      await backoff(failures);
      continue;
    }
    // Out of step with TikTok, or the last chunk's outcome is unknown: ask what TikTok holds.
    if (!opts.acknowledged || resyncs >= MAX_RESYNCS) throw giveUp(last, sent);
    resyncs++;
    const held = await opts.acknowledged();
    if (held >= total) {
      opts.onProgress?.(total, total);
      return { uploadedBytes: total };
    }
    const next = tiktokResumeChunk(plan, held);
    if (next === i) {
      // TikTok is where we thought: a refusal stands; a transient failure is tried again, boundedly.
      if (!sent.transient || failures >= tuning.chunkRetries) throw giveUp(last, sent);
      failures++;
      await backoff(failures);
    }
    i = next;
    opts.onProgress?.(tiktokChunkRange(plan, i).start, total);
  }
  return { uploadedBytes: total };
}

async function putChunk(
  http: PlatformHttp,
  url: string,
  source: PublishSource,
  start: number,
  end: number,
  total: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ChunkResult> {
  let res: PlatformResponse;
  try {
    res = await http.request(url, {
      method: 'PUT',
      headers: { 'content-range': `bytes ${start}-${end - 1}/${total}` },
      body: { stream: source.open(start, end), contentType: source.contentType, contentLength: end - start },
      timeoutMs,
      signal,
    });
    await res.dump();
  } catch (e) {
    if (signal?.aborted || !isPlatformError(e)) throw e;
    return { ok: false, transient: e.kind === 'retry-later' || e.kind === 'proxy', expired: false, error: e };
  }
  const httpStatus = res.status;
  if (httpStatus >= 200 && httpStatus < 300) return { ok: true };
  const base = { platform: 'tiktok', httpStatus } as const;
  if ([401, 403, 404, 410].includes(httpStatus)) {
    const error = new PlatformError({
      ...base,
      kind: 'retry-later',
      code: 'upload_expired',
      key: 'tiktok_upload_expired',
    });
    return { ok: false, transient: false, expired: true, error };
  }
  if (httpStatus >= 500 || httpStatus === 429) {
    const error = new PlatformError({
      ...base,
      kind: 'retry-later',
      code: 'server_error',
      key: 'unavailable',
      params: { platform: 'TikTok', status: httpStatus },
      retryAfterSec: retryAfterSec(res.headers),
    });
    return { ok: false, transient: true, expired: false, error };
  }
  if (httpStatus === 416) {
    // TikTok expects another byte than this chunk's first: it kept less than it acknowledged.
    const error = new PlatformError({
      ...base,
      kind: 'retry-later',
      code: 'upload_out_of_sync',
      key: 'tiktok_upload_out_of_sync',
    });
    return { ok: false, transient: false, expired: false, error };
  }
  const params = { status: httpStatus };
  const error = new PlatformError({
    ...base,
    kind: 'bad-request',
    code: `upload_http_${httpStatus}`,
    key: 'tiktok_upload_refused',
    params,
  });
  return { ok: false, transient: false, expired: false, error };
}

function unknownOutcome(cause: PlatformError): PlatformError {
  return new PlatformError({
    kind: 'retry-later',
    platform: 'tiktok',
    code: 'upload_outcome_unknown',
    key: 'tiktok_upload_unknown',
    httpStatus: cause.httpStatus,
    cause,
  });
}
