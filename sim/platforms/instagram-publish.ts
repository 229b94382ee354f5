/**
 * The Instagram simulator's publishing part (Instagram API with Instagram Login, graph.instagram.com):
 *   GET  /{IG_ID}/content_publishing_limit?fields=config,quota_usage   rolling 24 h window (default 100 posts)
 *   POST /{IG_ID}/media  media_type=REELS&video_url&caption            container; the simulator FETCHES video_url
 *                        [&share_to_feed=true|false&thumb_offset=ms]   checked and kept on the container and post
 *   GET  /{CONTAINER_ID}?fields=status_code,status                     IN_PROGRESS → FINISHED | ERROR | EXPIRED (24 h)
 *   POST /{IG_ID}/media_publish?creation_id=                            refuses a container that is not FINISHED
 *   GET  /{IG_ID}/media?fields=id,caption,timestamp,permalink          newest first, cursor paging
 *   GET  /{MEDIA_ID}?fields=permalink,shortcode,timestamp,like_count,comments_count,…
 *   GET  /{MEDIA_ID}/insights?metric=views                             empty data or "(#10) Not enough viewers" on demand
 * Parameters are read from the query, a form body or a JSON body; the token from `access_token` or a Bearer header.
 * Errors: `{ error: { message, type, code, error_subcode, is_transient, fbtrace_id } }`.
 */
import { randomToken, type SimReply, type SimRequest, type SimRoute, type SimClock } from './common';
import { looksLikeMp4, simFetchVideo, type SimFetchRecord } from './instagram-fetch';
import { fieldsOf, instagramMediaReaders, param, type SimInstagramMedia } from './instagram-media';

export type { SimInstagramMedia };

const DAY_MS = 24 * 3600_000;
const V = '(?:v\\d+\\.\\d+\\/)?';

export interface SimInstagramContainer {
  id: string;
  videoUrl: string;
  caption: string;
  /** share_to_feed as sent (Instagram's default when absent: true). */
  shareToFeed: boolean;
  /** thumb_offset as sent (ms into the video), or null. */
  thumbOffset: number | null;
  createdAt: number;
  polls: number;
  fetch: 'running' | 'done' | { failed: number };
  /** Settles when the simulator's fetch of video_url ends (tests await it instead of sleeping). */
  fetched: Promise<void>;
  record?: SimFetchRecord;
  mediaId?: string;
}

/** What tests switch and read on the Instagram simulator's publishing part. */
export interface InstagramPublishControls {
  /** Published posts, oldest first: "exactly once" is `posts().length === 1`. */
  posts(): SimInstagramMedia[];
  /** Adds media published before, as they are (a benchmark's thousands without a container each). */
  addPosts(made: SimInstagramMedia[]): void;
  containers(): SimInstagramContainer[];
  publishing: {
    /** Posts per rolling 24 h that media_publish allows (content_publishing_limit's quota_total). */
    limit: number;
    /** Status polls a container needs (after its fetch) before it reads FINISHED. */
    finishAfterPolls: number;
    /** Processing ends in ERROR 2207026 (unsupported format) even for a valid file. */
    unsupportedFormat: boolean;
    fetchChunkBytes: number;
    fetchRetries: number;
    fetchTimeoutMs: number;
  };
  /**
   * The next media_publish publishes, then 'hang's (the reply never comes within the client's timeout) or
   * answers 500: the post exists, the caller does not know it.
   */
  failAfterNextPublish(mode: 'hang' | 'error500'): void;
}

export interface InstagramPublishContext {
  clock: SimClock;
  profile: { user_id: string; username: string };
  /** The simulator's Graph error reply. */
  graphError: (status: number, code: number, message: string, subcode?: number) => SimReply;
  /** The simulator's token check: the token's scopes, or a Graph error reply (190). */
  token: (accessToken: string | null | undefined) => { scope: string[] } | SimReply;
}

export interface InstagramPublishOptions {
  publishLimit?: number;
  finishAfterPolls?: number;
}

const numericId = () => '17' + String(Math.floor(Math.random() * 1e15)).padStart(15, '0');
export function instagramPublishRoutes(sim: InstagramPublishContext, opts: InstagramPublishOptions = {}) {
  const ctx = {
    userId: () => sim.profile.user_id,
    username: () => sim.profile.username,
    graphError: (status: number, code: number, message: string, subcode?: number, extra?: Record<string, unknown>) => {
      const reply = sim.graphError(status, code, message, subcode);
      Object.assign((reply.body as { error: object }).error, { is_transient: false }, extra);
      return reply;
    },
    /** Validates the request's token and scope: a Graph error reply, or null when it may go on. */
    authorize: (r: SimRequest, scope: string): SimReply | null => {
      const t = sim.token(param(r, 'access_token') ?? r.bearer);
      if ('status' in t) return t;
      return t.scope.includes(scope)
        ? null
        : sim.graphError(403, 10, '(#10) Application does not have permission for this action');
    },
  };
  const containers = new Map<string, SimInstagramContainer>();
  const media = new Map<string, SimInstagramMedia>();
  const posts: SimInstagramMedia[] = [];
  let afterPublish: 'hang' | 'error500' | null = null;
  const publishing: InstagramPublishControls['publishing'] = {
    limit: opts.publishLimit ?? 100,
    finishAfterPolls: opts.finishAfterPolls ?? 2,
    unsupportedFormat: false,
    fetchChunkBytes: 8 * 1024 * 1024,
    fetchRetries: 2,
    fetchTimeoutMs: 30_000,
  };
  const { graphError } = ctx;
  const { clock } = sim;
  const notFound = (id: string) =>
    graphError(
      400,
      100,
      `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      33,
    );
  const usedInWindow = () => posts.filter((p) => p.publishedAt > clock.now() - DAY_MS).length;
  const ownUser = (id: string) => (id === ctx.userId() ? null : notFound(id));
  const readers = instagramMediaReaders({ ...ctx, notFound, ownUser }, posts, media);

  const statusOf = (c: SimInstagramContainer): { status_code: string; status: string } => {
    if (c.mediaId) return { status_code: 'PUBLISHED', status: 'Published: Media has been published.' };
    if (clock.now() - c.createdAt >= DAY_MS)
      return { status_code: 'EXPIRED', status: 'Expired: Media was not published within 24 hours.' };
    if (typeof c.fetch === 'object') {
      return { status_code: 'ERROR', status: `Error: Media upload has failed with error code ${c.fetch.failed}` };
    }
    if (c.fetch === 'running' || c.polls < publishing.finishAfterPolls) {
      return { status_code: 'IN_PROGRESS', status: 'In Progress: Media is still being processed.' };
    }
    return { status_code: 'FINISHED', status: 'Finished: Media has been uploaded and it is ready to be published.' };
  };

  const limit = (r: SimRequest, igId: string): SimReply => {
    const denied = ctx.authorize(r, 'instagram_business_content_publish') ?? ownUser(igId);
    if (denied) return denied;
    const fields = fieldsOf(r, 'quota_usage');
    const item: Record<string, unknown> = {};
    if (fields.includes('config')) item.config = { quota_total: publishing.limit, quota_duration: DAY_MS / 1000 };
    if (fields.includes('quota_usage')) item.quota_usage = usedInWindow();
    return { status: 200, body: { data: [item] } };
  };

  const createContainer = (r: SimRequest, igId: string): SimReply => {
    const denied = ctx.authorize(r, 'instagram_business_content_publish') ?? ownUser(igId);
    if (denied) return denied;
    const type = param(r, 'media_type');
    const videoUrl = param(r, 'video_url');
    if (type === 'VIDEO')
      return graphError(400, 100, 'The VIDEO media type is no longer supported. Use REELS instead.', 2207067);
    if (type !== 'REELS') return graphError(400, 100, '(#100) The parameter media_type must be REELS for a video');
    if (!videoUrl) return graphError(400, 100, '(#100) The parameter video_url is required');
    const caption = param(r, 'caption') ?? '';
    if ([...caption].length > 2200) return graphError(400, 100, '(#100) The caption is too long', 2207010);
    if ((caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).length > 30)
      return graphError(400, 100, '(#100) Too many hashtags', 2207011);
    const share = param(r, 'share_to_feed');
    if (share !== undefined && share !== 'true' && share !== 'false')
      return graphError(400, 100, '(#100) Param share_to_feed must be a boolean');
    const thumb = param(r, 'thumb_offset');
    if (thumb !== undefined && !/^\d{1,9}$/.test(thumb))
      return graphError(400, 100, '(#100) Param thumb_offset must be a non-negative integer (milliseconds)');
    const c: SimInstagramContainer = {
      id: numericId(),
      videoUrl,
      caption,
      shareToFeed: share !== 'false',
      thumbOffset: thumb === undefined ? null : Number(thumb),
      createdAt: clock.now(),
      polls: 0,
      fetch: 'running',
      fetched: Promise.resolve(),
    };
    const opts = {
      chunkBytes: publishing.fetchChunkBytes,
      retries: publishing.fetchRetries,
      timeoutMs: publishing.fetchTimeoutMs,
    };
    c.fetched = simFetchVideo(videoUrl, opts).then((res) => {
      c.record = res.record;
      if (!res.ok) c.fetch = { failed: res.subcode };
      else if (publishing.unsupportedFormat || !looksLikeMp4(res.record.head)) c.fetch = { failed: 2207026 };
      else c.fetch = 'done';
    });
    containers.set(c.id, c);
    return { status: 200, body: { id: c.id } };
  };

  const publish = async (r: SimRequest, igId: string): Promise<SimReply> => {
    const denied = ctx.authorize(r, 'instagram_business_content_publish') ?? ownUser(igId);
    if (denied) return denied;
    const id = param(r, 'creation_id');
    const c = id ? containers.get(id) : undefined;
    if (!id || !c)
      return graphError(400, 100, '(#100) The parameter creation_id is required and must be a container of this user');
    if (usedInWindow() >= publishing.limit) {
      return graphError(400, 9, 'Application request limit reached', 2207042, {
        error_user_title: 'Maximum number of posts reached',
        error_user_msg: 'The account has reached its maximum number of published posts in a 24 hour period.',
      });
    }
    const state = statusOf(c).status_code;
    if (state === 'EXPIRED') return graphError(400, 9007, 'The media container has expired', 2207020);
    if (state === 'PUBLISHED') return graphError(400, 9007, 'The media has already been published', 2207027);
    if (state !== 'FINISHED') {
      return graphError(400, 9007, 'Media ID is not available', 2207027, {
        error_user_title: 'Media not ready for publishing',
        error_user_msg: 'The media is not ready for publishing, please wait for a moment',
      });
    }
    const shortcode = randomToken('D', 8).replace(/[-_]/g, 'x');
    const m: SimInstagramMedia = {
      id: numericId(),
      containerId: c.id,
      caption: c.caption,
      shareToFeed: c.shareToFeed,
      thumbOffset: c.thumbOffset,
      publishedAt: clock.now(),
      shortcode,
      permalink: `https://www.instagram.com/reel/${shortcode}/`,
      like_count: 0,
      comments_count: 0,
      views: 0,
      insights: 'ok',
    };
    c.mediaId = m.id;
    media.set(m.id, m);
    posts.push(m);
    const fault = afterPublish;
    afterPublish = null;
    if (fault === 'hang') await new Promise((resolve) => setTimeout(resolve, 120_000).unref());
    if (fault)
      return {
        status: 500,
        body: {
          error: {
            message: 'An unknown error occurred',
            type: 'OAuthException',
            code: 1,
            is_transient: true,
            fbtrace_id: randomToken('A', 16),
          },
        },
      };
    return { status: 200, body: { id: m.id } };
  };

  const node = (r: SimRequest, id: string): SimReply => {
    const c = containers.get(id);
    if (c) {
      const denied = ctx.authorize(r, 'instagram_business_content_publish');
      if (denied) return denied;
      c.polls += 1;
      const s = statusOf(c);
      const out: Record<string, unknown> = { id: c.id };
      for (const f of fieldsOf(r, 'id')) if (f === 'status_code' || f === 'status') out[f] = s[f];
      return { status: 200, body: out };
    }
    return readers.mediaNode(r, id);
  };

  const routes: SimRoute[] = [
    { method: 'GET', path: new RegExp(`^/${V}(\\d+)/content_publishing_limit$`), handler: (r) => limit(r, idFrom(r)) },
    { method: 'POST', path: new RegExp(`^/${V}(\\d+)/media$`), handler: (r) => createContainer(r, idFrom(r)) },
    { method: 'GET', path: new RegExp(`^/${V}(\\d+)/media$`), handler: (r) => readers.listMedia(r, idFrom(r)) },
    { method: 'POST', path: new RegExp(`^/${V}(\\d+)/media_publish$`), handler: (r) => publish(r, idFrom(r)) },
    { method: 'GET', path: new RegExp(`^/${V}(\\d+)/insights$`), handler: (r) => readers.insights(r, idFrom(r)) },
    { method: 'GET', path: new RegExp(`^/${V}(\\d+)$`), handler: (r) => node(r, idFrom(r)) },
  ];

  const controls: InstagramPublishControls = {
    posts: () => [...posts],
    addPosts: (made) => {
      for (const m of made) {
        posts.push(m);
        media.set(m.id, m);
      }
    },
    containers: () => [...containers.values()],
    publishing,
    failAfterNextPublish: (mode) => {
      afterPublish = mode;
    },
  };
  return { routes, controls };
}

/** The node id in a path (`/v23.0/{id}/edge`: the one all-digit segment). */
function idFrom(r: SimRequest): string {
  return r.path.split('/').find((s) => /^\d+$/.test(s)) ?? '';
}
