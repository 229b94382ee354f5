/**
 * Publishing a video to YouTube, as the steps of the publish job (ARCHITECTURE.md "Publishing, exactly once"):
 *
 *   const sessionUri = await yt.startUpload(token, meta, source.size, { privacyStatus: 'public' }); // store it first
 *   const { videoId } = await yt.upload(token, sessionUri, source, { onProgress });                // creates the video
 *   const status = await yt.videoStatus(token, videoId);                                           // poll processing
 *
 * `upload` asks the session where it stands before sending, so calling it again after any fault or a crash
 * resumes from the acknowledged byte, and a session whose last chunk already made the video answers that video
 * instead of a second one. When the outcome of the last chunk is unknown and the session is gone
 * (`isUploadSessionExpired`), `findUploaded` looks for the video among the channel's uploads; only when it finds
 * none does the job start a new session. Every call goes through the profile's proxy (the `http` client).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { asNode, joinUrl, readBody, stripUndefined } from '../common';
import type { PlatformHttp } from '../http';
import type { PublishMeta, PublishSource, UploadProgress, VideoStats } from '../publish-types';
import { PlatformError } from '../types';
import { YOUTUBE_DEFAULT_BASE_URLS, type YouTubeBaseUrls } from './youtube.driver';
import { uploadProtocolError, uploadSessionExpired, youtubeApiError } from './youtube.errors';
import { youtubeVideoResource, youtubeVideoUrl, type YouTubeUploadOptions } from './youtube.metadata';
import {
  DEFAULT_CHUNK_SIZE,
  RESUMABLE_CHUNK_UNIT,
  isTransientUploadFault,
  querySession,
  sendChunk,
  type ResumableRequest,
  type UploadSessionState,
} from './youtube.resumable';
import {
  count,
  toVideoStatus,
  type ApiList,
  type ChannelItem,
  type PlaylistItem,
  type VideoItem,
  type YouTubeVideoStatus,
} from './youtube.video-status';

export { YOUTUBE_QUOTA, youtubeVideoUrl, type YouTubeUploadOptions } from './youtube.metadata';
export type { UploadSessionState } from './youtube.resumable';
export type { YouTubeUploadStatus, YouTubeVideoStatus } from './youtube.video-status';

export interface YouTubePublisherOptions {
  http: PlatformHttp;
  baseUrls?: Partial<YouTubeBaseUrls>;
  now?: () => Date;
}

export interface YouTubeSendOptions {
  onProgress?: UploadProgress;
  signal?: AbortSignal;
  /** Bytes of the first request, and after any fault: a multiple of 256 KiB (default 8 MiB). */
  chunkSize?: number;
  /**
   * A chunk that is acknowledged whole within `fastChunkMs` (default 2 s) doubles the next one, up to this size
   * (default 64 MiB; equal to chunkSize for fixed chunks). Each chunk waits for its 308, so on a fast link
   * bigger chunks spend less time waiting; on a slow one they stay small and a fault resends little.
   */
  maxChunkSize?: number;
  fastChunkMs?: number;
  /** Faults in a row (5xx, reset, timeout, no progress) before giving up with the last one (default 5). */
  maxRetries?: number;
  /** First backoff after a fault, doubled each time up to 30 s (default 1 s). */
  retryBaseMs?: number;
  /** Limit of one chunk request (default 10 minutes). */
  chunkTimeoutMs?: number;
}

const MAX_BACKOFF_MS = 30_000;
const MAX_CHUNK_SIZE = 64 * 1024 * 1024;
/** How many pages of the uploads playlist `findUploaded` reads at most (50 videos each). */
const FIND_PAGES = 4;
/** Slack between our clock and YouTube's when matching an upload's time. */
const CLOCK_SKEW_MS = 10 * 60_000;

export class YouTubePublisher {
  readonly baseUrls: YouTubeBaseUrls;
  /** The clock the job shares with the publisher (the `since` of `findUploaded` comes from it). */
  readonly now: () => Date;
  private readonly http: PlatformHttp;

  constructor(opts: YouTubePublisherOptions) {
    this.http = opts.http;
    this.baseUrls = { ...YOUTUBE_DEFAULT_BASE_URLS, ...stripUndefined(opts.baseUrls) };
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * Opens a resumable session (videos.insert) and answers its URI, which the caller stores before the first byte.
   * Nothing is published yet: the video exists only after the last byte arrives.
   */
  async startUpload(accessToken: string, meta: PublishMeta, size: number, opts: YouTubeUploadOptions): Promise<string> {
    const resource = youtubeVideoResource(meta, opts);
    if (!Number.isSafeInteger(size) || size <= 0) throw uploadProtocolError(`file size ${size}`);
    const url = joinUrl(this.baseUrls.api, '/upload/youtube/v3/videos');
    const res = await this.http.request(url, {
      method: 'POST',
      query: {
        uploadType: 'resumable',
        part: 'snippet,status',
        notifySubscribers: opts.notifySubscribers === undefined ? undefined : String(opts.notifySubscribers),
      },
      headers: {
        authorization: `Bearer ${accessToken}`,
        'x-upload-content-length': String(size),
        'x-upload-content-type': 'video/mp4',
      },
      body: { json: resource },
    });
    const body = await readBody(res);
    if (res.status !== 200 && res.status !== 201) throw youtubeApiError(res.status, res.headers, body);
    const location = res.headers['location'];
    if (!location) {
      throw new PlatformError({
        kind: 'retry-later',
        platform: 'youtube',
        code: 'no_session_uri',
        httpStatus: res.status,
        key: 'youtube_upload_session_missing',
      });
    }
    return new URL(location, res.url).href;
  }

  /** Asks the session where it stands (the status query); changes nothing, safe after any unknown outcome. */
  async probe(
    accessToken: string,
    sessionUri: string,
    size: number,
    signal?: AbortSignal,
  ): Promise<UploadSessionState> {
    return querySession({ http: this.http, accessToken, sessionUri, size, signal });
  }

  /**
   * Sends the file from the byte the session has acknowledged and answers the video id the last chunk made.
   * 5xx, resets and timeouts are retried by asking the session again (bounded, with backoff); a 308 that
   * acknowledges fewer bytes than were sent resumes from its Range. Throws PlatformError: 'refresh-token' on 401,
   * `isUploadSessionExpired` on 404/410, 'retry-later' on quota or upload limit, the last fault when retries run out.
   */
  async upload(accessToken: string, sessionUri: string, source: PublishSource, opts: YouTubeSendOptions = {}) {
    const size = source.size;
    const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
    const maxChunkSize = opts.maxChunkSize ?? Math.max(chunkSize, MAX_CHUNK_SIZE);
    for (const n of [chunkSize, maxChunkSize]) {
      if (n <= 0 || n % RESUMABLE_CHUNK_UNIT !== 0 || maxChunkSize < chunkSize) {
        throw new RangeError(`chunk sizes must be positive multiples of ${RESUMABLE_CHUNK_UNIT}, the largest last`);
      }
    }
    const fastChunkMs = opts.fastChunkMs ?? 2_000;
    let current = chunkSize;
    const maxRetries = opts.maxRetries ?? 5;
    const retryBaseMs = opts.retryBaseMs ?? 1_000;
    const base: ResumableRequest = { http: this.http, accessToken, sessionUri, size, signal: opts.signal };
    const chunkRequest: ResumableRequest = { ...base, timeoutMs: opts.chunkTimeoutMs ?? 10 * 60_000 };
    let acknowledged: number | null = null; // null: ask the session first
    let faults = 0;

    const settle = (state: UploadSessionState): { videoId: string } | null => {
      if (state.state === 'expired') throw uploadSessionExpired(404);
      if (state.state === 'completed') {
        opts.onProgress?.(size, size);
        return { videoId: state.videoId };
      }
      const before = acknowledged;
      acknowledged = state.acknowledged;
      if (before === null || acknowledged > before) opts.onProgress?.(acknowledged, size);
      return null;
    };

    for (;;) {
      opts.signal?.throwIfAborted();
      try {
        if (acknowledged === null || acknowledged >= size) {
          const done = settle(await querySession(base));
          if (done) return done;
          if (acknowledged! >= size) throw uploadProtocolError('all bytes acknowledged, no video');
          continue;
        }
        const start: number = acknowledged;
        const end = Math.min(start + current, size);
        const sentAt = performance.now();
        const done = settle(await sendChunk(chunkRequest, source, start, end));
        if (done) return done;
        if (acknowledged! > end) throw uploadProtocolError(`acknowledged ${acknowledged} of ${end} sent`);
        const whole = acknowledged === end && performance.now() - sentAt < fastChunkMs;
        current = whole ? Math.min(current * 2, maxChunkSize) : chunkSize;
        if (acknowledged! > start) {
          faults = 0;
          continue;
        }
        // A 308 that persisted nothing of the chunk: a fault like any other, bounded.
        if (++faults > maxRetries) throw uploadProtocolError(`no progress at byte ${start}`, 308);
      } catch (err) {
        if (opts.signal?.aborted || !isTransientUploadFault(err)) throw err;
        if (++faults > maxRetries) throw err;
        acknowledged = null;
        current = chunkSize;
      }
      const backoff = Math.min(retryBaseMs * 2 ** (faults - 1), MAX_BACKOFF_MS);
      await delay(backoff * (0.8 + Math.random() * 0.4), undefined, { signal: opts.signal });
    }
  }

  /**
   * After a session expired with its outcome unknown: the video this session would have made, if the channel
   * has one titled `meta.title` published since `since` (channels.list contentDetails → the uploads playlist →
   * playlistItems.list). Null means YouTube shows no such video, so a new session is safe.
   */
  async findUploaded(accessToken: string, meta: PublishMeta, since: Date): Promise<{ videoId: string } | null> {
    const channels = await this.get<ApiList<ChannelItem>>(accessToken, '/youtube/v3/channels', {
      part: 'contentDetails',
      mine: 'true',
    });
    const uploads: unknown = channels?.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
    if (typeof uploads !== 'string' || !uploads) return null;
    const title = meta.title.trim();
    const from = since.getTime() - CLOCK_SKEW_MS;
    let pageToken: string | undefined;
    for (let page = 0; page < FIND_PAGES; page++) {
      const query = { part: 'snippet', playlistId: uploads, maxResults: '50', pageToken };
      const list = await this.get<ApiList<PlaylistItem>>(accessToken, '/youtube/v3/playlistItems', query);
      const items = Array.isArray(list?.items) ? list.items : [];
      let older = items.length > 0;
      for (const item of items) {
        const at = Date.parse(item?.snippet?.publishedAt ?? '');
        if (!(at >= from)) continue;
        older = false;
        const videoId = item?.snippet?.resourceId?.videoId ?? item?.contentDetails?.videoId;
        if (item.snippet?.title === title && typeof videoId === 'string') return { videoId };
      }
      pageToken = list?.nextPageToken;
      if (older || !pageToken) break;
    }
    return null;
  }

  /**
   * playlistItems.insert: adds the video to one of the channel's playlists (50 units). A playlist YouTube does
   * not know is a bad request naming it.
   */
  async addToPlaylist(accessToken: string, playlistId: string, videoId: string): Promise<void> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/youtube/v3/playlistItems'), {
      method: 'POST',
      query: { part: 'snippet' },
      headers: { authorization: `Bearer ${accessToken}` },
      body: { json: { snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } } },
    });
    const body = await readBody(res);
    if (res.status !== 200 && res.status !== 201) throw youtubeApiError(res.status, res.headers, body);
  }

  /** Processing state of an uploaded video (videos.list part=status), and its link. */
  async videoStatus(accessToken: string, videoId: string, opts: { short?: boolean } = {}): Promise<YouTubeVideoStatus> {
    const body = await this.get<ApiList<VideoItem>>(accessToken, '/youtube/v3/videos', { part: 'status', id: videoId });
    const url = youtubeVideoUrl(videoId, opts);
    return toVideoStatus(videoId, url, body?.items?.find((v) => v?.id === videoId)?.status);
  }

  /** Views, likes and comments (videos.list part=statistics, 50 ids a call); videos YouTube lost are left out. */
  async stats(accessToken: string, ids: string[]): Promise<VideoStats[]> {
    const unique = [...new Set(ids.filter(Boolean))];
    const out: VideoStats[] = [];
    for (let i = 0; i < unique.length; i += 50) {
      const batch = unique.slice(i, i + 50);
      const query = { part: 'statistics', id: batch.join(',') }; // maxResults does not go with id
      const body = await this.get<ApiList<VideoItem>>(accessToken, '/youtube/v3/videos', query);
      for (const v of Array.isArray(body?.items) ? body.items : []) {
        if (typeof v?.id !== 'string') continue;
        const s = v.statistics ?? {};
        out.push({ id: v.id, views: count(s.viewCount), likes: count(s.likeCount), comments: count(s.commentCount) });
      }
    }
    return out;
  }

  /** A Data API read, as its answer type (every field optional: the publisher reads what is there). */
  private async get<T extends object>(
    accessToken: string,
    path: string,
    query: Record<string, string | undefined>,
  ): Promise<T> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, path), {
      query,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const body = await readBody(res);
    if (res.status !== 200) throw youtubeApiError(res.status, res.headers, body);
    return asNode<T>(body);
  }
}
