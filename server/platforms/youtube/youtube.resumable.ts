/**
 * Google's resumable upload protocol, one request at a time
 * (developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
 * - a status query `PUT <session URI>` with `Content-Length: 0` and `Content-Range: bytes *\/TOTAL` answers
 *   308 (with `Range: bytes=0-N` when N+1 bytes are persisted, without `Range` when none are), or 200/201 with
 *   the video resource when the upload is complete;
 * - a chunk `PUT <session URI>` with `Content-Range: bytes FIRST-LAST/TOTAL` answers 308 with the persisted range
 *   (which may end before LAST: the client resumes from it), or 200/201 with the resource after the last byte;
 * - 404/410: the session is gone.
 * The loop that strings these together (retries, backoff, progress) lives in ./youtube.publisher.ts.
 */
import type { PlatformHttp, PlatformResponse } from '../http';
import type { PublishSource } from '../publish-types';
import { at, readBody, genericHttpError } from '../common';
import { PlatformError } from '../types';
import { uploadProtocolError, youtubeApiError } from './youtube.errors';

/** Google's chunk granularity: every chunk but the last is a multiple of 256 KiB. */
export const RESUMABLE_CHUNK_UNIT = 256 * 1024;
export const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;

/** Where a resumable session stands. */
export type UploadSessionState =
  { state: 'completed'; videoId: string } | { state: 'incomplete'; acknowledged: number } | { state: 'expired' };

/** Bytes persisted according to a 308's `Range: bytes=0-N` (N+1), or 0 when the header is absent. */
export function acknowledgedBytes(res: PlatformResponse, size: number): number {
  const range = res.headers['range'];
  if (!range) return 0;
  const m = /^bytes=0-(\d+)$/.exec(range.trim());
  if (!m) throw uploadProtocolError(`Range ${range}`, res.status);
  const acknowledged = Number(m[1]) + 1;
  if (acknowledged > size) throw uploadProtocolError(`Range ${range} beyond ${size} bytes`, res.status);
  return acknowledged;
}

/** Faults worth probing again for: 5xx, 429, a reset, a timeout, a proxy that dropped the tunnel. */
export function isTransientUploadFault(e: unknown): e is PlatformError {
  if (!(e instanceof PlatformError)) return false;
  if (e.kind === 'proxy') return e.code === 'proxy_unreachable' || e.code === 'timeout';
  return ['network', 'timeout', 'server_error', 'rate_limited', 'invalid_json'].includes(e.code ?? '');
}

export interface ResumableRequest {
  http: PlatformHttp;
  accessToken: string;
  sessionUri: string;
  size: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Turns an answer into the session's state; throws for what is neither (401, quota, 5xx, …). */
async function sessionAnswer(res: PlatformResponse, size: number): Promise<UploadSessionState> {
  if (res.status === 308) {
    await res.dump();
    return { state: 'incomplete', acknowledged: acknowledgedBytes(res, size) };
  }
  const body = await readBody(res);
  if (res.status === 200 || res.status === 201) {
    const videoId = at(body, 'id');
    if (typeof videoId !== 'string' || !videoId)
      throw uploadProtocolError(`HTTP ${res.status} without a video id`, res.status, body);
    return { state: 'completed', videoId };
  }
  if (res.status === 404 || res.status === 410) return { state: 'expired' };
  if (res.status >= 500 || res.status === 429)
    throw genericHttpError('youtube', res.status, res.headers, at(body, 'error') ?? body);
  throw youtubeApiError(res.status, res.headers, body);
}

function headers(r: ResumableRequest, contentRange: string): Record<string, string> {
  return { authorization: `Bearer ${r.accessToken}`, 'content-range': contentRange };
}

/** The status query (`bytes *\/TOTAL`): changes nothing at the platform, safe to repeat. */
export async function querySession(r: ResumableRequest): Promise<UploadSessionState> {
  const res = await r.http.request(r.sessionUri, {
    method: 'PUT',
    headers: headers(r, `bytes */${r.size}`),
    body: { stream: Buffer.alloc(0), contentLength: 0 },
    signal: r.signal,
    timeoutMs: r.timeoutMs,
  });
  return sessionAnswer(res, r.size);
}

/** Sends bytes [start, end) of the source; the answer says how far the platform has persisted. */
export async function sendChunk(r: ResumableRequest, source: PublishSource, start: number, end: number) {
  const stream = source.open(start, end);
  try {
    const res = await r.http.request(r.sessionUri, {
      method: 'PUT',
      headers: headers(r, `bytes ${start}-${end - 1}/${r.size}`),
      body: { stream, contentType: source.contentType, contentLength: end - start },
      signal: r.signal,
      timeoutMs: r.timeoutMs,
    });
    return await sessionAnswer(res, r.size);
  } finally {
    stream.destroy();
  }
}
