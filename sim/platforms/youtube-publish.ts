/**
 * The Google simulator's videos.insert, by Google's resumable protocol (notes/platforms.md §1.2, §6):
 *   POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status   → 200, absolute Location …&upload_id=
 *   PUT  <Location>  Content-Range: bytes *\/N (status query)                 → 308 [Range: bytes=0-K] | 200 resource
 *   PUT  <Location>  Content-Range: bytes a-b/N (a chunk, streamed)            → 308 Range | 201 {id, snippet, status}
 * Unknown or expired sessions answer 404; a chunk that is not the last must be a multiple of 256 KiB (else 400).
 * Bodies are never held whole: bytes are counted and hashed as they arrive, up to what is persisted.
 * Faults for the tests: 5xx or a dropped connection in the middle of a chunk (after persisting part of it), a 308
 * that persists fewer bytes than were sent, a lost reply to the last chunk (the video exists, the answer never
 * comes), expired sessions, the insert bucket's daily quota and the channel's upload limit.
 */
import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { jsonBody, randomToken, type SimClock, type SimReply, type SimRequest, type SimRoute } from './common';
import { googleApiError, quotaExceeded } from './youtube-data-api';
import {
  videoResource,
  type SimInsertResource,
  type SimUploadChunk,
  type SimVideo,
  type YouTubeVideosState,
} from './youtube-videos';

export type { SimUploadChunk } from './youtube-videos';

const SCOPES = ['youtube.upload', 'youtube', 'youtube.force-ssl', 'youtubepartner'].map(
  (s) => `https://www.googleapis.com/auth/${s}`,
);
const UNIT = 256 * 1024;
/** Google keeps a resumable session for about a week. */
const SESSION_TTL_MS = 7 * 24 * 3600_000;

export interface SimUploadSession {
  id: string;
  size: number;
  resource: SimInsertResource;
  createdAt: number;
  acknowledged: number;
  /** Null when the simulator runs without hashing. */
  hash: Hash | null;
  chunks: SimUploadChunk[];
  expired: boolean;
  videoId?: string;
}

export interface SimChunkFault {
  /** Bytes of the chunk to persist before failing (rounded down to 256 KiB; default 0). */
  persist?: number;
  /** Answer this status after reading the chunk (default 503) … */
  status?: number;
  /** … or drop the connection in the middle of the chunk instead. */
  drop?: boolean;
}

/** The upload controls the Google simulator offers the tests. */
export interface YouTubeUploadControls {
  /** Sessions by upload_id, each with the chunks it received (live). */
  uploadSessions: Map<string, SimUploadSession>;
  /** videos.insert calls left today in their own bucket (Google: 100 a day). */
  insertCallsLeft: number;
  /** Uploads the channel may still make in its 24 hours (uploadLimitExceeded after). */
  channelUploadsLeft: number;
  /** The next chunk fails: 5xx (default 503) or a dropped connection, after persisting part of it. */
  failNextChunk(fault?: SimChunkFault): void;
  /** The next chunk persists only `bytes` of what it carried (rounded down to 256 KiB) and answers 308. */
  acknowledgeLessNext(bytes: number): void;
  /** The last chunk makes the video, then its reply is lost: the connection resets, or hangs until closed. */
  loseNextFinalReply(mode: 'reset' | 'hang'): void;
  /** Every open upload session expires now (404 from then on). */
  expireUploadSessions(): void;
}

/** Routes of the upload host; `base()` is the simulator's own URL (for the absolute Location). */
export function youtubeUploadRoutes(
  state: YouTubeVideosState,
  ctx: {
    clock: SimClock;
    base: () => string;
    authed: (r: SimRequest, scopes: string[]) => SimReply | null;
    /** False leaves uploads unhashed (`sha256` empty): the throughput bench, whose floor hashes nothing either. */
    hash?: boolean;
  },
): { routes: SimRoute[]; controls: YouTubeUploadControls } {
  let chunkFault: SimChunkFault | null = null;
  let shortAck: number | null = null;
  let loseFinal: 'reset' | 'hang' | null = null;

  const controls: YouTubeUploadControls = {
    uploadSessions: new Map(),
    insertCallsLeft: 100,
    channelUploadsLeft: Number.POSITIVE_INFINITY,
    failNextChunk: (fault = {}) => void (chunkFault = fault),
    acknowledgeLessNext: (bytes) => void (shortAck = bytes),
    loseNextFinalReply: (mode) => void (loseFinal = mode),
    expireUploadSessions: () => {
      for (const s of controls.uploadSessions.values()) s.expired = true;
    },
  };
  const sessions = controls.uploadSessions;

  const start = (r: SimRequest): SimReply => {
    const denied = ctx.authed(r, SCOPES);
    if (denied) return denied;
    if (r.query.get('uploadType') !== 'resumable') {
      return googleApiError(400, 'invalidUploadType', 'Only uploadType=resumable is served here', 'global');
    }
    const parts = (r.query.get('part') ?? '').split(',').map((p) => p.trim());
    if (!parts.includes('snippet') || !parts.includes('status'))
      return googleApiError(400, 'invalidPart', 'part', 'youtube.part');
    if (controls.insertCallsLeft <= 0) return quotaExceeded();
    controls.insertCallsLeft--;
    const size = Number(r.headers['x-upload-content-length']);
    if (!Number.isSafeInteger(size) || size <= 0)
      return googleApiError(400, 'badContent', 'X-Upload-Content-Length', 'youtube.video');
    const type = String(r.headers['x-upload-content-type'] ?? '');
    if (!/^(video\/|application\/octet-stream)/.test(type)) {
      return googleApiError(400, 'invalidContentType', 'X-Upload-Content-Type', 'youtube.video');
    }
    const resource = jsonBody<SimInsertResource>(r);
    const problem = invalidResource(resource);
    if (problem) return googleApiError(400, problem, `Invalid ${problem}`, 'youtube.video');
    if (controls.channelUploadsLeft <= 0) {
      return googleApiError(
        400,
        'uploadLimitExceeded',
        'The user has exceeded the number of videos they may upload.',
        'youtube.video',
      );
    }
    const id = randomToken('', 24);
    sessions.set(id, {
      id,
      size,
      resource: resource as SimInsertResource, // checked whole by invalidResource
      createdAt: ctx.clock.now(),
      acknowledged: 0,
      hash: ctx.hash === false ? null : createHash('sha256'),
      chunks: [],
      expired: false,
    });
    const query = `uploadType=resumable&part=${parts.join(',')}&upload_id=${id}`;
    const location = `${ctx.base()}/upload/youtube/v3/videos?${query}`;
    return { status: 200, headers: { location, 'x-guploader-uploadid': id } };
  };

  const incomplete = (s: SimUploadSession): SimReply => ({
    status: 308,
    headers: s.acknowledged > 0 ? { range: `bytes=0-${s.acknowledged - 1}` } : {},
  });

  const finish = (s: SimUploadSession): SimVideo => {
    const now = ctx.clock.now();
    const { snippet, status = {} } = s.resource;
    const video: SimVideo = {
      id: randomToken('', 8).slice(0, 11),
      title: snippet.title,
      description: snippet.description ?? '',
      tags: snippet.tags ?? [],
      categoryId: snippet.categoryId ?? '22',
      privacyStatus: status.privacyStatus ?? 'public',
      publishAt: status.publishAt,
      madeForKids: status.selfDeclaredMadeForKids === true,
      containsSyntheticMedia: status.containsSyntheticMedia === true,
      createdAt: now,
      processedAt: now + state.processingMs,
      uploadStatus: 'uploaded',
      size: s.size,
      sha256: s.hash?.digest('hex') ?? '',
      statistics: { viewCount: 0, likeCount: 0, commentCount: 0 },
    };
    state.takeProcessingOutcome(video);
    state.videos.push(video);
    controls.channelUploadsLeft--;
    s.videoId = video.id;
    return video;
  };

  /** The answer of a session whose video is made: the video, as the last chunk's answer had it. */
  const made = (s: SimUploadSession): SimReply => {
    const video = state.videos.find((v) => v.id === s.videoId)!;
    return { status: 200, body: videoResource(video, ['snippet', 'status'], state.channelId()) };
  };

  const put = async (r: SimRequest): Promise<SimReply> => {
    const body = r.body!;
    const drain = async (reply: SimReply) => {
      for await (const _ of body) void _;
      return reply;
    };
    const s = sessions.get(r.query.get('upload_id') ?? '');
    if (!s || s.expired || ctx.clock.now() > s.createdAt + SESSION_TTL_MS) {
      return drain(googleApiError(404, 'notFound', 'Upload session not found or expired', 'global'));
    }
    if (r.headers.authorization) {
      const denied = ctx.authed(r, SCOPES);
      if (denied) return drain(denied);
    }
    const range = String(r.headers['content-range'] ?? '');
    const probe = /^bytes \*\/(\d+)$/.exec(range);
    const chunk = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    const total = Number((probe ?? chunk)?.at(-1));
    if ((!probe && !chunk) || total !== s.size)
      return drain(googleApiError(400, 'badContentRange', `Content-Range ${range}`));
    if (s.videoId) return drain(made(s));
    if (probe) return drain(incomplete(s));

    const first = Number(chunk![1]);
    const length = Number(chunk![2]) - first + 1;
    const declared = Number(r.headers['content-length']);
    const last = first + length === s.size;
    if (length <= 0 || declared !== length || first > s.acknowledged || first + length > s.size) {
      return drain(googleApiError(400, 'badContentRange', `Content-Range ${range} with ${s.acknowledged} persisted`));
    }
    if (!last && length % UNIT !== 0) {
      return drain(googleApiError(400, 'invalidChunkSize', 'Chunks must be multiples of 262144 bytes', 'global'));
    }

    const fault = chunkFault;
    chunkFault = null;
    let keep = length;
    if (fault) keep = Math.floor((fault.persist ?? 0) / UNIT) * UNIT;
    else if (shortAck !== null) {
      keep = Math.min(length, Math.floor(shortAck / UNIT) * UNIT);
      shortAck = null;
    }
    const acknowledgedBefore = s.acknowledged;
    const persistUntil = first + Math.min(keep, length);
    let pos = first;
    for await (const buf of body) {
      const from = Math.max(pos, s.acknowledged);
      const to = Math.min(pos + buf.length, persistUntil);
      if (to > from) {
        s.hash?.update(buf.subarray(from - pos, to - pos));
        s.acknowledged = to;
      }
      pos += buf.length;
      if (fault?.drop && s.acknowledged >= persistUntil) {
        s.chunks.push({
          start: first,
          end: first + length,
          acknowledgedBefore,
          persisted: s.acknowledged - acknowledgedBefore,
        });
        (body as IncomingMessage).socket?.destroy();
        return new Promise<SimReply>(() => {});
      }
    }
    s.chunks.push({
      start: first,
      end: first + length,
      acknowledgedBefore,
      persisted: s.acknowledged - acknowledgedBefore,
    });
    if (pos !== first + length) return googleApiError(400, 'badContent', 'Body shorter than Content-Length');
    if (fault) return googleApiError(fault.status ?? 503, 'backendError', 'Backend Error', 'global');
    if (s.acknowledged < s.size) return incomplete(s);
    // Another PUT (a worker that lost its lease still sending while the next one resumes) may have finished the
    // file while this one streamed: one session makes one video.
    if (s.videoId) return made(s);

    const video = finish(s);
    const lost = loseFinal;
    loseFinal = null;
    if (lost) {
      if (lost === 'reset') (body as IncomingMessage).socket?.destroy();
      return new Promise<SimReply>(() => {});
    }
    return { status: 201, body: videoResource(video, ['snippet', 'status'], state.channelId()) };
  };

  return {
    routes: [
      { method: 'POST', path: '/upload/youtube/v3/videos', handler: start },
      { method: 'PUT', path: '/upload/youtube/v3/videos', handler: put, stream: true },
    ],
    controls,
  };
}

/** videoCategories.list (region US): the categories a video may be given. */
const CATEGORIES = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28'];

/** The videos.insert body checks (a reason, or null when the resource is acceptable). */
function invalidResource(json: Partial<SimInsertResource> | undefined): string | null {
  const snippet = json?.snippet;
  const status = json?.status ?? {};
  if (!snippet || typeof snippet.title !== 'string' || !snippet.title.trim()) return 'invalidTitle';
  if ([...snippet.title].length > 100 || /[<>]/.test(snippet.title)) return 'invalidTitle';
  const description = snippet.description ?? '';
  if (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) {
    return 'invalidDescription';
  }
  const tags: unknown = snippet.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) return 'invalidTags';
  const tagsLength =
    (tags as string[]).reduce((n, t) => n + t.length + (/\s/.test(t) ? 2 : 0), 0) + Math.max(0, tags.length - 1);
  if (tagsLength > 500) return 'invalidTags';
  if (status.privacyStatus !== undefined && !['public', 'unlisted', 'private'].includes(status.privacyStatus)) {
    return 'invalidPrivacyStatus';
  }
  for (const flag of ['selfDeclaredMadeForKids', 'containsSyntheticMedia'] as const)
    if (status[flag] !== undefined && typeof status[flag] !== 'boolean') return 'invalidVideoMetadata';
  if (snippet.categoryId !== undefined && !CATEGORIES.includes(String(snippet.categoryId))) return 'invalidCategoryId';
  if (
    status.publishAt !== undefined &&
    (status.privacyStatus !== 'private' || Number.isNaN(Date.parse(status.publishAt)))
  ) {
    return 'invalidPublishAt';
  }
  return null;
}
