/**
 * Publishing to TikTok through the Content Posting API (Direct Post, FILE_UPLOAD), as the steps of a publish job:
 *
 *   const creator = await tt.creatorInfo(token);             // privacy options, max duration, nickname
 *   const gate = checkTikTokFile(facts, { maxDurationSec: creator.maxVideoPostDurationSec });
 *   const session = await tt.init(token, meta, source.size, creator);   // STORE publishId + uploadUrl + plan
 *   await tt.upload(session.uploadUrl, source, session.plan, { fromChunk, onProgress, acknowledged });
 *   const s = await tt.status(token, session.publishId, { videoSize, username });  // poll to published/failed
 *
 * The last chunk completing is what makes TikTok post, and one publish_id makes at most one post. So after an
 * unknown outcome (timeout, crash, 5xx after sending) the job never calls init again: it calls `status`, whose
 * `uploadedBytes` says which chunk to resume from (`tiktokResumeChunk`), or whose outcome says the post exists.
 * A new init is safe only when the upload link expired (`upload_expired`) and `status` shows the file incomplete.
 */
import { joinUrl, stripUndefined } from '../common';
import type { PlatformHttp } from '../http';
import { tiktokPost, type PublishMeta, type PublishSource, type VideoStats } from '../publish-types';
import { PlatformError } from '../types';
import { TIKTOK_DEFAULT_BASE_URLS, type TikTokBaseUrls } from './tiktok.driver';
import { tiktokApiError, tiktokFailReasonError } from './tiktok.errors';
import { TIKTOK_DEFAULT_CHUNK, tiktokChunkPlan, type TikTokChunkPlan } from './tiktok.limits';
import {
  jsonObject,
  parseTikTokJson,
  pickTikTokPrivacy,
  tiktokPostSwitches,
  tiktokCaption,
  tiktokPostUrl,
  toCreatorInfo,
  type TikTokCreatorInfo,
  type TikTokData,
} from './tiktok.post-info';
import { uploadTikTokChunks, type TikTokUploadOptions, type TikTokUploadTuning } from './tiktok.upload';

export type { TikTokUploadOptions } from './tiktok.upload';

export interface TikTokPublisherOptions {
  http: PlatformHttp;
  baseUrls?: Partial<TikTokBaseUrls>;
  /** The driver's clock, taken for symmetry with it; no TikTok publishing step depends on the time of day. */
  now?: () => Date;
  /** Preferred chunk size (clamped to TikTok's 5–64 MB). */
  chunkSize?: number;
  /** Retries of one failed chunk (5xx, network) before giving up; default 3. */
  chunkRetries?: number;
  /** Backoff between chunk retries: retryDelayMs × attempt (default 1 s). */
  retryDelayMs?: number;
  /** Limit of one chunk's PUT (default 10 minutes). */
  chunkTimeoutMs?: number;
}

/** What `init` returns: store all of it before the first byte is sent. */
export interface TikTokUploadSession {
  publishId: string;
  uploadUrl: string;
  plan: TikTokChunkPlan;
  privacyLevel: string;
  /** Only SELF_ONLY was possible: the post is private (an unaudited app). */
  privateOnly: boolean;
}

export type TikTokPublishOutcome = 'uploading' | 'processing' | 'published' | 'inbox' | 'failed';

export interface TikTokPublishStatus {
  /** TikTok's own status: PROCESSING_UPLOAD | PROCESSING_DOWNLOAD | SEND_TO_USER_INBOX | PUBLISH_COMPLETE | FAILED. */
  status: string;
  /**
   * uploading: TikTok lacks bytes, nothing is posted; resume from `tiktokResumeChunk(plan, uploadedBytes)`.
   * processing: the whole file is there, keep polling. published: posted (`postId` may come later, or never for a
   * private post). inbox: sent to the creator's inbox. failed: `error` says why.
   */
  outcome: TikTokPublishOutcome;
  postId: string | null;
  url: string | null;
  uploadedBytes: number;
  failReason: string | null;
  error: PlatformError | null;
}

export interface TikTokVideoStats extends VideoStats {
  shareUrl: string | null;
}

const STATS_BATCH = 20;

export class TikTokPublisher {
  readonly baseUrls: TikTokBaseUrls;
  private readonly http: PlatformHttp;
  private readonly chunkSize: number;
  private readonly tuning: TikTokUploadTuning;

  constructor(opts: TikTokPublisherOptions) {
    this.http = opts.http;
    this.baseUrls = { ...TIKTOK_DEFAULT_BASE_URLS, ...stripUndefined(opts.baseUrls) };
    this.chunkSize = opts.chunkSize ?? TIKTOK_DEFAULT_CHUNK;
    this.tuning = {
      chunkRetries: opts.chunkRetries ?? 3,
      retryDelayMs: opts.retryDelayMs ?? 1_000,
      chunkTimeoutMs: opts.chunkTimeoutMs ?? 10 * 60_000,
    };
  }

  /** POST /v2/post/publish/creator_info/query/ (20 per minute per token). Read-only: retry freely. */
  async creatorInfo(accessToken: string): Promise<TikTokCreatorInfo> {
    return toCreatorInfo(await this.api('/v2/post/publish/creator_info/query/', accessToken));
  }

  /**
   * POST /v2/post/publish/video/init/ (6 per minute per token): a Direct Post of `videoSize` bytes with the
   * documented chunk plan. The caption is the title, description and tags (at most 2200 characters); the privacy
   * level is PUBLIC_TO_EVERYONE when the creator allows it, else the first one offered (or `privacyLevel`).
   */
  async init(
    accessToken: string,
    meta: PublishMeta,
    videoSize: number,
    creator: TikTokCreatorInfo,
    opts: { privacyLevel?: string } = {},
  ): Promise<TikTokUploadSession> {
    const plan = tiktokChunkPlan(videoSize, this.chunkSize);
    const title = tiktokCaption(meta);
    const { privacyLevel, privateOnly } = pickTikTokPrivacy(
      creator,
      opts.privacyLevel ?? tiktokPost(meta).privacyLevel,
    );
    const data = await this.api('/v2/post/publish/video/init/', accessToken, {
      post_info: { title, privacy_level: privacyLevel, ...tiktokPostSwitches(meta, creator) },
      source_info: {
        source: 'FILE_UPLOAD',
        video_size: plan.videoSize,
        chunk_size: plan.chunkSize,
        total_chunk_count: plan.totalChunkCount,
      },
    });
    const publishId = data.publish_id ? String(data.publish_id) : '';
    const uploadUrl = typeof data.upload_url === 'string' ? data.upload_url : '';
    if (!publishId || !uploadUrl) {
      throw new PlatformError({
        kind: 'retry-later',
        platform: 'tiktok',
        code: 'invalid_answer',
        key: 'invalid_json',
        params: { status: 200 },
        raw: data,
      });
    }
    return { publishId, uploadUrl, plan, privacyLevel, privateOnly };
  }

  /**
   * PUTs the chunks from `fromChunk` on, in order (Content-Type video/mp4, Content-Length, Content-Range
   * bytes FIRST-LAST/TOTAL; TikTok answers 206, and 201 to the last). A chunk that fails with a 5xx or a network
   * error is sent again a bounded number of times; the last chunk is not, since its outcome decides the post:
   * it is resolved through `acknowledged` or thrown as `upload_outcome_unknown` (kind 'retry-later').
   */
  async upload(
    uploadUrl: string,
    source: PublishSource,
    plan: TikTokChunkPlan,
    opts: TikTokUploadOptions = {},
  ): Promise<{ uploadedBytes: number }> {
    return uploadTikTokChunks(this.http, uploadUrl, source, plan, opts, this.tuning);
  }

  /**
   * POST /v2/post/publish/status/fetch/ (30 per minute per token). Read-only: this is how an unknown outcome is
   * reconciled. `videoSize` tells an unfinished upload from processing; `username` builds the post's link.
   */
  async status(
    accessToken: string,
    publishId: string,
    opts: { videoSize?: number; username?: string } = {},
  ): Promise<TikTokPublishStatus> {
    const data = await this.api('/v2/post/publish/status/fetch/', accessToken, { publish_id: publishId });
    const status = String(data.status ?? '');
    const ids: unknown[] = Array.isArray(data.publicaly_available_post_id) ? data.publicaly_available_post_id : [];
    const postId = ids.length ? String(ids[0]) : null;
    const uploadedBytes = Number(data.uploaded_bytes) || 0;
    const base = { status, postId: null, url: null, uploadedBytes, failReason: null, error: null };
    switch (status) {
      case 'PUBLISH_COMPLETE':
        return { ...base, outcome: 'published', postId, url: tiktokPostUrl(opts.username, postId) };
      case 'FAILED': {
        const failReason = data.fail_reason ? String(data.fail_reason) : null;
        return { ...base, outcome: 'failed', failReason, error: tiktokFailReasonError(failReason) };
      }
      case 'SEND_TO_USER_INBOX':
        return { ...base, outcome: 'inbox' };
      case 'PROCESSING_UPLOAD':
        return {
          ...base,
          outcome: opts.videoSize !== undefined && uploadedBytes < opts.videoSize ? 'uploading' : 'processing',
        };
      default:
        return { ...base, outcome: 'processing' };
    }
  }

  /** POST /v2/video/query/ in batches of 20 ids (scope video.list): views, likes, comments and the share link. */
  async stats(accessToken: string, ids: string[]): Promise<TikTokVideoStats[]> {
    const out: TikTokVideoStats[] = [];
    const unique = [...new Set(ids.filter(Boolean))];
    for (let i = 0; i < unique.length; i += STATS_BATCH) {
      const batch = unique.slice(i, i + STATS_BATCH);
      const data = await this.api(
        '/v2/video/query/',
        accessToken,
        { filters: { video_ids: batch } },
        { fields: 'id,view_count,like_count,comment_count,share_count,share_url' },
      );
      for (const v of (Array.isArray(data.videos) ? data.videos : []).map(jsonObject)) {
        out.push({
          id: String(v.id),
          views: Number(v.view_count) || 0,
          likes: Number(v.like_count) || 0,
          comments: Number(v.comment_count) || 0,
          shares: Number(v.share_count) || 0,
          shareUrl: typeof v.share_url === 'string' ? v.share_url : null,
        });
      }
    }
    return out;
  }

  private async api(
    path: string,
    accessToken: string,
    json?: unknown,
    query?: Record<string, string>,
  ): Promise<TikTokData> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, path), {
      method: 'POST',
      query,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=UTF-8' },
      body: json === undefined ? undefined : { json },
    });
    const body = jsonObject(parseTikTokJson(await res.text()));
    const code = jsonObject(body.error).code;
    if (res.status !== 200 || (code && code !== 'ok')) throw tiktokApiError(res.status, res.headers, body);
    return jsonObject(body.data);
  }
}
