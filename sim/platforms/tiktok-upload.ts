/**
 * The upload half of the TikTok Content Posting simulator (./tiktok-publish.ts): the chunk arithmetic that
 * video/init checks, and `PUT /video/?upload_id&upload_token`, which streams each chunk (never holding a file),
 * hashes it, keeps it only when it arrives whole and in order, and makes the post when the last chunk is kept.
 */
import { createHash, randomInt, type Hash } from 'node:crypto';
import type { SimClock, SimReply, SimRequest } from './common';

const MB = 1024 * 1024;
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];

export interface SimTikTokPost {
  id: string;
  publishId: string;
  title: string;
  privacyLevel: string;
  /** The rest of post_info as sent (interaction switches, AI label, brand toggles). */
  postInfo: SimTikTokPostInfo;
  size: number;
  sha256: string;
  createdAt: number;
  views: number;
  likes: number;
  comments: number;
}

/** post_info's switches as TikTok's init took them. */
export interface SimTikTokPostInfo {
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
  isAigc: boolean;
  brandContentToggle: boolean;
  brandOrganicToggle: boolean;
}

export interface SimTikTokChunkRecord {
  start: number;
  end: number;
  /**
   * kept: stored, counted in uploaded_bytes; failed: answered 5xx; dropped: answered 206 but not kept (partial
   * acknowledgement); held-already: a chunk sent again that was already kept (answered 206, nothing changes).
   */
  outcome: 'kept' | 'failed' | 'dropped' | 'held-already';
}

export interface SimTikTokUpload {
  publishId: string;
  uploadId: string;
  uploadToken: string;
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  title: string;
  privacyLevel: string;
  postInfo: SimTikTokPostInfo;
  /** Bytes kept so far (what status answers as uploaded_bytes). */
  received: number;
  chunks: SimTikTokChunkRecord[];
  state: 'uploading' | 'complete' | 'failed';
  failReason: string | null;
  polls: number;
  createdAt: number;
  expired: boolean;
  hash: Hash;
  /** SHA-256 of the whole file once the last chunk is kept. */
  sha256: string | null;
  post: SimTikTokPost | null;
}

/** What the upload route shares with the rest of the simulator: the posts, the sessions and the switches. */
export interface TikTokUploadState {
  clock: SimClock;
  uploadTtlSec: () => number;
  posts: SimTikTokPost[];
  uploads: Map<string, SimTikTokUpload>;
  chunkFaults: { index: number; status: number; times: number }[];
  drops: Set<number>;
  failReasons: string[];
  hangNext: boolean;
  held: (() => void)[];
}

/** The Media Transfer Guide's chunk restrictions, checked as written there; null when the numbers are right. */
export function chunkPlanError(size: unknown, chunk: unknown, count: unknown): string | null {
  if (!Number.isSafeInteger(size) || !Number.isSafeInteger(chunk) || !Number.isSafeInteger(count)) {
    return 'video_size, chunk_size and total_chunk_count must be integers';
  }
  const [v, c, n] = [size as number, chunk as number, count as number];
  if (v <= 0 || v > 4096 * MB) return 'video_size must be between 1 byte and 4 GB';
  if (c <= 0 || n !== Math.floor(v / c)) return 'total_chunk_count must equal floor(video_size / chunk_size)';
  if (n < 1 || n > 1000) return 'total_chunk_count must be between 1 and 1000';
  if (v < 5 * MB) return c === v ? null : 'a video under 5 MB must be sent whole (chunk_size = video_size)';
  if (c < 5 * MB || c > 64 * MB) return 'chunk_size must be between 5 MB and 64 MB';
  if (v - (n - 1) * c > 128 * MB) return 'the final chunk cannot exceed 128 MB';
  return null;
}

export function newUpload(
  clock: SimClock,
  init: Pick<SimTikTokUpload, 'videoSize' | 'chunkSize' | 'totalChunkCount' | 'title' | 'privacyLevel' | 'postInfo'>,
  token: () => string,
): SimTikTokUpload {
  return {
    ...init,
    publishId: `v_pub_file~v2-1.${randomInt(1e9, 1e10)}${randomInt(1e9, 1e10)}`,
    uploadId: String(randomInt(1e11, 1e12)),
    uploadToken: token(),
    received: 0,
    chunks: [],
    state: 'uploading',
    failReason: null,
    polls: 0,
    createdAt: clock.now(),
    expired: false,
    hash: createHash('sha256'),
    sha256: null,
    post: null,
  };
}

function finish(state: TikTokUploadState, up: SimTikTokUpload) {
  up.sha256 = up.hash.digest('hex');
  const reason = state.failReasons.shift();
  if (reason) {
    up.state = 'failed';
    up.failReason = reason;
    return;
  }
  up.state = 'complete';
  up.post = {
    id: `7${Array.from({ length: 18 }, () => randomInt(10)).join('')}`,
    publishId: up.publishId,
    title: up.title,
    privacyLevel: up.privacyLevel,
    postInfo: up.postInfo,
    size: up.videoSize,
    sha256: up.sha256,
    createdAt: state.clock.now(),
    views: 0,
    likes: 0,
    comments: 0,
  };
  state.posts.push(up.post);
}

const drain = async (r: SimRequest) => {
  if (r.body) for await (const _ of r.body);
};

/** PUT one chunk: 206 while more are due, 201 for the last; out of order 416; expired or unknown link 404. */
export function chunkHandler(
  state: TikTokUploadState,
  apiError: (status: number, code: string, message: string) => SimReply,
): (r: SimRequest) => Promise<SimReply> {
  return async (r) => {
    const id = r.query.get('upload_id');
    const up = [...state.uploads.values()].find(
      (u) => u.uploadId === id && u.uploadToken === r.query.get('upload_token'),
    );
    if (up && state.clock.now() > up.createdAt + state.uploadTtlSec() * 1000) up.expired = true;
    const refuse = async (status: number, message: string) => (
      await drain(r),
      apiError(status, 'invalid_params', message)
    );
    if (!up || up.expired) return refuse(404, 'The upload_url is unknown or has expired.');
    if (up.state !== 'uploading') return refuse(400, 'The video is already uploaded.');
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(r.headers['content-range'] ?? ''));
    if (!m) return refuse(400, 'Content-Range must be bytes FIRST-LAST/TOTAL.');
    const [start, end, total] = [Number(m[1]), Number(m[2]) + 1, Number(m[3])];
    const index = start / up.chunkSize;
    const chunkEnd = index === up.totalChunkCount - 1 ? up.videoSize : start + up.chunkSize;
    if (total !== up.videoSize || !Number.isInteger(index) || index >= up.totalChunkCount || end !== chunkEnd) {
      return refuse(400, 'Content-Range does not match a chunk of the initialized upload.');
    }
    if (Number(r.headers['content-length']) !== end - start)
      return refuse(400, 'Content-Length does not match Content-Range.');
    const type = String(r.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (!VIDEO_TYPES.includes(type))
      return refuse(400, 'Content-Type must be video/mp4, video/quicktime or video/webm.');
    if (start > up.received)
      return refuse(416, `Chunks must be uploaded in order: the next byte expected is ${up.received}.`);
    const heldAlready = (): SimReply => {
      up.chunks.push({ start, end, outcome: 'held-already' });
      return { status: 206 };
    };
    if (end <= up.received) return (await drain(r), heldAlready());
    const fault = state.chunkFaults.find((f) => f.index === index);
    if (fault) {
      if (--fault.times <= 0) state.chunkFaults.splice(state.chunkFaults.indexOf(fault), 1);
      await drain(r);
      up.chunks.push({ start, end, outcome: 'failed' });
      return apiError(fault.status, 'internal_error', 'Something went wrong. Please try again later.');
    }
    const hash = up.hash.copy();
    let n = 0;
    for await (const c of r.body ?? []) {
      hash.update(c);
      n += c.length;
    }
    if (n !== end - start) return apiError(400, 'invalid_params', 'The body is shorter or longer than Content-Length.');
    // Another PUT of this chunk (a worker that lost its lease still sending while the next one resumes) may have
    // been kept while this one streamed: a byte range is kept once, and one publish_id makes at most one post.
    if (up.state !== 'uploading') return apiError(400, 'invalid_params', 'The video is already uploaded.');
    if (up.received !== start) return heldAlready();
    if (state.drops.delete(index)) {
      up.chunks.push({ start, end, outcome: 'dropped' });
      return { status: 206 };
    }
    up.hash = hash;
    up.received = end;
    up.chunks.push({ start, end, outcome: 'kept' });
    if (end < up.videoSize) return { status: 206 };
    finish(state, up);
    if (state.hangNext) {
      state.hangNext = false;
      await new Promise<void>((resolve) => state.held.push(resolve));
    }
    return { status: 201 };
  };
}
