/**
 * Publishing a Reel with the Instagram API with Instagram Login (graph.instagram.com), as the steps of the publish
 * job (ARCHITECTURE.md "Publishing, exactly once"):
 *   1. `ensurePublishingSlot` / `publishingLimit`: the rolling 24 h limit; used up → retry-later with the wait.
 *   2. `createContainer`: a REELS container from a signed, Range-answering link Instagram fetches → container id,
 *      which the job stores before anything else.
 *   3. `containerStatus`: IN_PROGRESS | FINISHED | ERROR (with the reason) | EXPIRED | PUBLISHED, polled within
 *      `INSTAGRAM_CONTAINER_POLL` (at most once a minute, up to 5 minutes); `processingTimeout` is the reason after.
 *   4. `publish`: media_publish, the one step that makes the post public. Never retried blindly: any failure whose
 *      outcome is unknown (timeout, network, 5xx) is `outcome_unknown` (`isOutcomeUnknown`), and the job asks
 *      `reconcile`, which says published (id, link) / ready to publish / processing / expired / failed.
 *   5. `media` (permalink, shortcode, time) and `stats` (likes, comments, views) for the stats job.
 * Every call goes through the profile's proxy (the PlatformHttp given). The token travels as `access_token`, the
 * parameters in the query string, as the Graph API reference writes them.
 */
import { asNode, readBody } from '../common';
import type { VideoStats } from '../publish-types';
import { PlatformError, isPlatformError } from '../types';
import { instagramProcessingError, instagramPublishError, processingSubcode } from './instagram.errors';
import { InstagramGraphClient, type InstagramGraphOptions } from './instagram.graph';
import {
  toMedia,
  type GraphNode,
  type InstagramContainerStatus,
  type InstagramMedia,
  type InstagramPublishingLimit,
  type InstagramReconcile,
} from './instagram.publish-types';

export type { InstagramContainerStatus, InstagramMedia, InstagramPublishingLimit, InstagramReconcile };

export {
  INSTAGRAM_CAPTION_LIMITS,
  INSTAGRAM_REELS_LIMITS,
  buildInstagramCaption,
  checkInstagramCaption,
  checkInstagramFile,
  toHashtag,
} from './instagram.preflight';

/** Meta's advice: poll a container at most once a minute, for up to five minutes. The job may pass its own. */
export const INSTAGRAM_CONTAINER_POLL = { intervalSec: 60, maxPolls: 5 } as const;
export type ContainerPollBudget = { intervalSec: number; maxPolls: number };

export interface InstagramPublisherOptions extends InstagramGraphOptions {
  /** How long media_publish may take before its outcome counts as unknown (default 60 s). */
  publishTimeoutMs?: number;
}

/** True when `publish` cannot tell whether the post went live: the job must `reconcile` before anything else. */
export function isOutcomeUnknown(e: unknown): e is PlatformError {
  return isPlatformError(e) && e.code === 'outcome_unknown';
}

/** The reason a job records when the poll budget is spent and the container is still IN_PROGRESS. */
export function processingTimeout(budget: ContainerPollBudget = INSTAGRAM_CONTAINER_POLL): PlatformError {
  const minutes = Math.round((budget.intervalSec * budget.maxPolls) / 60);
  return new PlatformError({
    kind: 'retry-later',
    platform: 'instagram',
    code: 'processing_timeout',
    key: 'instagram_processing_timeout',
    params: { minutes },
  });
}

export class InstagramPublisher extends InstagramGraphClient {
  private readonly publishTimeoutMs: number;

  constructor(opts: InstagramPublisherOptions) {
    super(opts);
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 60_000;
  }

  /** GET /{IG_ID}/content_publishing_limit?fields=config,quota_usage */
  async publishingLimit(accessToken: string, igUserId: string): Promise<InstagramPublishingLimit> {
    const body = await this.graph(accessToken, `/${igUserId}/content_publishing_limit`, {
      fields: 'config,quota_usage',
    });
    const item = Array.isArray(body.data) ? (body.data[0] ?? {}) : body;
    return {
      used: Number(item.quota_usage ?? 0),
      total: Number(item.config?.quota_total ?? 100),
      windowSec: Number(item.config?.quota_duration ?? 86_400),
    };
  }

  /**
   * The limit when a post still fits; otherwise PlatformError retry-later whose retryAfterSec is when the oldest post
   * of the window leaves it (read from the recent media; an hour when that cannot be told).
   */
  async ensurePublishingSlot(accessToken: string, igUserId: string): Promise<InstagramPublishingLimit> {
    const limit = await this.publishingLimit(accessToken, igUserId);
    if (limit.used < limit.total) return limit;
    const windowMs = limit.windowSec * 1000;
    const recent = await this.recentMedia(accessToken, igUserId, new Date(this.now().getTime() - windowMs));
    const oldest = recent.length ? Math.min(...recent.map((m) => m.timestamp.getTime())) : NaN;
    const waitSec = Number.isFinite(oldest) ? Math.ceil((oldest + windowMs - this.now().getTime()) / 1000) : 3600;
    throw new PlatformError({
      kind: 'retry-later',
      platform: 'instagram',
      code: 'publish_limit',
      key: 'instagram_publish_limit_used',
      params: { used: limit.used, total: limit.total },
      retryAfterSec: Math.max(60, waitSec),
    });
  }

  /** POST /{IG_ID}/media?media_type=REELS&video_url&caption → the container id (store it before the next step). */
  async createContainer(
    accessToken: string,
    igUserId: string,
    input: { videoUrl: string; caption: string; shareToFeed?: boolean; thumbOffsetMs?: number },
  ): Promise<{ containerId: string }> {
    const query = {
      media_type: 'REELS',
      video_url: input.videoUrl,
      caption: input.caption,
      share_to_feed: input.shareToFeed,
      thumb_offset: input.thumbOffsetMs,
    };
    const body = await this.graph(accessToken, `/${igUserId}/media`, query, 'POST');
    if (!body?.id) throw this.unexpected(body);
    return { containerId: String(body.id) };
  }

  /** GET /{CONTAINER_ID}?fields=status_code,status; an ERROR carries its reason as a PlatformError. */
  async containerStatus(accessToken: string, containerId: string): Promise<InstagramContainerStatus> {
    const body = await this.graph(accessToken, `/${containerId}`, { fields: 'status_code,status' });
    const code = String(body?.status_code ?? '');
    const status = String(body?.status ?? '');
    if (code === 'ERROR')
      return { code, status, error: instagramProcessingError(processingSubcode(status), body, status || undefined) };
    if (code === 'IN_PROGRESS' || code === 'FINISHED' || code === 'EXPIRED' || code === 'PUBLISHED')
      return { code, status };
    throw this.unexpected(body);
  }

  /**
   * POST /{IG_ID}/media_publish?creation_id= → the media id. The step that makes the post public: a refusal throws
   * its mapped PlatformError (nothing was published); a timeout, a network failure or a 5xx throws `outcome_unknown`.
   */
  async publish(accessToken: string, igUserId: string, containerId: string): Promise<{ mediaId: string }> {
    let res;
    try {
      res = await this.http.request(this.url(`/${igUserId}/media_publish`), {
        method: 'POST',
        query: { creation_id: containerId, access_token: accessToken },
        timeoutMs: this.publishTimeoutMs,
      });
    } catch (cause) {
      throw this.outcomeUnknown(cause);
    }
    let body;
    try {
      body = await readBody(res);
    } catch (cause) {
      throw this.outcomeUnknown(cause);
    }
    if (res.status >= 500) throw this.outcomeUnknown(instagramPublishError(res.status, res.headers, body));
    const node = asNode<GraphNode & { error?: unknown }>(body);
    if (res.status !== 200 || node.error) throw instagramPublishError(res.status, res.headers, body);
    if (!node.id) throw this.outcomeUnknown(this.unexpected(body));
    return { mediaId: String(node.id) };
  }

  /**
   * After an unknown outcome of `publish` (or a crash around it): asks the container, and when it went live finds the
   * post among the user's media since `since` (the time of the publish attempt, a little before) by its caption.
   */
  async reconcile(
    accessToken: string,
    igUserId: string,
    input: { containerId: string; caption: string; since: Date },
  ): Promise<InstagramReconcile> {
    const status = await this.containerStatus(accessToken, input.containerId);
    switch (status.code) {
      case 'FINISHED':
        return { state: 'ready' };
      case 'IN_PROGRESS':
        return { state: 'processing' };
      case 'EXPIRED':
        return { state: 'expired' };
      case 'ERROR':
        return { state: 'failed', error: status.error };
      case 'PUBLISHED': {
        const media = await this.findPublished(accessToken, igUserId, { caption: input.caption, since: input.since });
        return media ? { state: 'published', media } : { state: 'published-unlisted' };
      }
    }
  }

  /** The post among the user's media since `since` whose caption is `caption` (the earliest when several). */
  async findPublished(
    accessToken: string,
    igUserId: string,
    input: { caption: string; since: Date },
  ): Promise<InstagramMedia | null> {
    const want = input.caption.trim();
    const found = (await this.recentMedia(accessToken, igUserId, input.since)).filter(
      (m) => (m.caption ?? '').trim() === want,
    );
    found.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    return found[0] ?? null;
  }

  /** GET /{MEDIA_ID}?fields=id,permalink,shortcode,timestamp */
  async media(accessToken: string, mediaId: string): Promise<InstagramMedia> {
    const body = await this.graph(accessToken, `/${mediaId}`, { fields: 'id,permalink,shortcode,timestamp,caption' });
    return toMedia(body);
  }

  /**
   * Likes and comments from the media node, views from its insights. Insights with no data yet, or "(#10) Not enough
   * viewers", count as 0 views; a post deleted on Instagram is left out. Other errors (token, limits) are thrown.
   */
  async stats(accessToken: string, ids: string[]): Promise<VideoStats[]> {
    const out: VideoStats[] = [];
    for (const id of ids) {
      let node;
      try {
        node = await this.graph(accessToken, `/${id}`, { fields: 'like_count,comments_count' });
      } catch (e) {
        if (isPlatformError(e) && e.code === '100/33') continue;
        throw e;
      }
      const { views, shares, saves } = await this.insights(accessToken, id);
      out.push({
        id,
        views,
        likes: Number(node?.like_count ?? 0),
        comments: Number(node?.comments_count ?? 0),
        shares,
        saves,
      });
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------------------------

  private outcomeUnknown(cause: unknown): PlatformError {
    return new PlatformError({
      kind: 'retry-later',
      platform: 'instagram',
      code: 'outcome_unknown',
      key: 'instagram_publish_unknown',
      cause,
      httpStatus: isPlatformError(cause) ? cause.httpStatus : undefined,
      raw: isPlatformError(cause) ? cause.raw : undefined,
    });
  }

  private unexpected(body: unknown): PlatformError {
    return new PlatformError({
      kind: 'retry-later',
      platform: 'instagram',
      code: 'unexpected_answer',
      key: 'invalid_json',
      params: { status: 200 },
      raw: body,
    });
  }
}
