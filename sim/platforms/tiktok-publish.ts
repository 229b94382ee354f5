/**
 * TikTok Content Posting API (Direct Post, FILE_UPLOAD) and video/query, for the TikTok simulator (./tiktok.ts):
 *
 *   POST /v2/post/publish/creator_info/query/   privacy options (an unaudited app: SELF_ONLY only), max duration
 *   POST /v2/post/publish/video/init/           checks post_info (privacy level among the options, switches the
 *                                               creator allows, booleans, no private branded content) and the
 *                                               chunk arithmetic → { publish_id, upload_url }
 *   PUT  /video/?upload_id&upload_token         one chunk (Content-Range bytes a-b/total), streamed and hashed:
 *                                               206, and 201 for the last one, which makes the post
 *   POST /v2/post/publish/status/fetch/         PROCESSING_UPLOAD → PUBLISH_COMPLETE (post id a few polls later,
 *                                               never for a SELF_ONLY post) or FAILED with fail_reason
 *   POST /v2/video/query/?fields=…              { filters: { video_ids ≤ 20 } } → views, likes, comments
 * Every answer is the { data, error: { code, message, log_id } } envelope; limits per token per minute: creator_info
 * 20, init 6, status 30 (429 rate_limit_exceeded). Faults: a 5xx on a chunk, a chunk answered 206 but not kept
 * (partial acknowledgement), expired upload links, a processing failure with a reason, and a last chunk whose
 * answer never comes although the post was made.
 */
import type { SimClock, SimReply, SimRequest, SimRoute } from './common';
import { jsonBody, randomToken } from './common';
import {
  chunkHandler,
  chunkPlanError,
  newUpload,
  type SimTikTokPost,
  type SimTikTokPostInfo,
  type SimTikTokUpload,
  type TikTokUploadState,
} from './tiktok-upload';

export type { SimTikTokChunkRecord, SimTikTokPost, SimTikTokPostInfo, SimTikTokUpload } from './tiktok-upload';

const LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
const VIDEO_FIELDS = [
  'id',
  'title',
  'video_description',
  'duration',
  'cover_image_url',
  'share_url',
  'create_time',
  'view_count',
  'like_count',
  'comment_count',
  'share_count',
];

export interface TikTokPublishSettings {
  /** What creator_info offers (a public account's levels by default). */
  privacyLevelOptions: string[];
  /** An unaudited app: creator_info offers SELF_ONLY only and init refuses any other level. */
  unaudited: boolean;
  maxVideoPostDurationSec: number;
  /** What creator_info says of the creator's interaction settings (a switch they turned off cannot be on). */
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  /** Status polls after the last chunk that still answer PROCESSING_UPLOAD. */
  processingPolls: number;
  /** PUBLISH_COMPLETE polls before publicaly_available_post_id shows the id. */
  postIdPolls: number;
  /** Posts per creator per 24 h before init answers spam_risk_too_many_posts. */
  postsPer24h: number;
  uploadTtlSec: number;
  rateLimits: { creatorInfo: number; init: number; status: number };
}

export interface TikTokPublishControls {
  /** Live settings: change them between calls. */
  publishSettings: TikTokPublishSettings;
  /** Every post made so far (a post is made when the last chunk is kept). */
  posts(): SimTikTokPost[];
  /** Adds posts made before, as they are (a benchmark's thousands without an upload each). */
  addPosts(made: SimTikTokPost[]): void;
  uploads(): SimTikTokUpload[];
  /** The next `times` PUTs of chunk `index` read the chunk and answer `status` (5xx) without keeping it. */
  failChunk(index: number, opts?: { status?: number; times?: number }): void;
  /** The next PUT of chunk `index` is answered 206 but not kept (uploaded_bytes stays behind). */
  dropChunk(index: number): void;
  /** Every upload link issued so far expires now. */
  expireUploads(): void;
  /** The next completed upload fails processing with this fail_reason instead of posting. */
  failNextPublish(reason: string): void;
  /** The next last chunk is kept and posted, but its answer never comes (until the simulator closes). */
  hangAfterLastChunk(): void;
}

type Auth = (r: SimRequest, scopes: string[]) => SimReply | { token: string };

export function tiktokPublishRoutes(deps: {
  clock: SimClock;
  baseUrl: () => string;
  auth: Auth;
  apiError: (status: number, code: string, message: string) => SimReply;
  logId: () => string;
  creator: { username: string; nickname: string; avatarUrl: string };
  settings?: Partial<TikTokPublishSettings>;
}): { routes: SimRoute[]; controls: TikTokPublishControls; release(): void } {
  const { clock, auth, apiError } = deps;
  const settings: TikTokPublishSettings = {
    privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
    unaudited: false,
    maxVideoPostDurationSec: 600,
    commentDisabled: false,
    duetDisabled: false,
    stitchDisabled: true,
    processingPolls: 1,
    postIdPolls: 1,
    postsPer24h: 15,
    uploadTtlSec: 3600,
    rateLimits: { creatorInfo: 20, init: 6, status: 30 },
    ...deps.settings,
  };
  const state: TikTokUploadState = {
    clock,
    uploadTtlSec: () => settings.uploadTtlSec,
    posts: [],
    uploads: new Map(),
    chunkFaults: [],
    drops: new Set(),
    failReasons: [],
    hangNext: false,
    held: [],
  };
  const { posts, uploads } = state;
  const calls = new Map<string, number[]>();

  const ok = (data: unknown): SimReply => ({
    status: 200,
    body: { data, error: { code: 'ok', message: '', log_id: deps.logId() } },
  });
  /** Per token per minute, over a sliding window on the simulator's clock. */
  const limited = (name: keyof TikTokPublishSettings['rateLimits'], token: string): SimReply | null => {
    const key = `${name}:${token}`;
    const now = clock.now();
    const recent = (calls.get(key) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= settings.rateLimits[name])
      return apiError(429, 'rate_limit_exceeded', 'API rate limit exceeded.');
    calls.set(key, [...recent, now]);
    return null;
  };
  const guard = (
    r: SimRequest,
    scopes: string[],
    limit: keyof TikTokPublishSettings['rateLimits'],
  ): SimReply | string => {
    const a = auth(r, scopes);
    if (!('token' in a)) return a;
    return limited(limit, a.token) ?? a.token;
  };
  const offered = () => (settings.unaudited ? ['SELF_ONLY'] : settings.privacyLevelOptions);

  const creatorInfo = (r: SimRequest): SimReply => {
    const g = guard(r, ['video.publish'], 'creatorInfo');
    if (typeof g !== 'string') return g;
    return ok({
      creator_avatar_url: deps.creator.avatarUrl,
      creator_username: deps.creator.username,
      creator_nickname: deps.creator.nickname,
      privacy_level_options: offered(),
      comment_disabled: settings.commentDisabled,
      duet_disabled: settings.duetDisabled,
      stitch_disabled: settings.stitchDisabled,
      max_video_post_duration_sec: settings.maxVideoPostDurationSec,
    });
  };

  const init = (r: SimRequest): SimReply => {
    const g = guard(r, ['video.publish'], 'init');
    if (typeof g !== 'string') return g;
    const body = jsonBody<{
      post_info: { title?: unknown; privacy_level?: unknown } & Record<string, unknown>;
      source_info: { source?: unknown; video_size?: unknown; chunk_size?: unknown; total_chunk_count?: unknown };
    }>(r);
    const post = body.post_info;
    const src = body.source_info;
    if (!post || typeof post !== 'object' || !src || typeof src !== 'object')
      return apiError(400, 'invalid_params', 'post_info and source_info are required.');
    const title = post.title ?? '';
    if (typeof title !== 'string' || title.length > 2200)
      return apiError(400, 'invalid_params', 'title must be a string of at most 2200 UTF-16 runes.');
    const level = post.privacy_level;
    if (typeof level !== 'string' || !LEVELS.includes(level))
      return apiError(400, 'invalid_params', 'privacy_level is invalid.');
    if (settings.unaudited && level !== 'SELF_ONLY') {
      return apiError(
        403,
        'unaudited_client_can_only_post_to_private_accounts',
        'Unaudited clients can only post to private accounts.',
      );
    }
    if (!offered().includes(level))
      return apiError(403, 'privacy_level_option_mismatch', "privacy_level is not among the creator's options.");
    const switches = postSwitches(post);
    if (typeof switches === 'string') return apiError(400, 'invalid_params', switches);
    // The UX guidelines: an interaction the creator turned off cannot be turned on by the app.
    if (
      (settings.commentDisabled && !switches.disableComment) ||
      (settings.duetDisabled && !switches.disableDuet) ||
      (settings.stitchDisabled && !switches.disableStitch)
    )
      return apiError(400, 'invalid_params', "An interaction the creator's settings disable cannot be enabled.");
    if (switches.brandContentToggle && level === 'SELF_ONLY')
      return apiError(400, 'invalid_params', 'Branded content cannot be posted with privacy_level SELF_ONLY.');
    if (src.source === 'PULL_FROM_URL')
      return apiError(403, 'url_ownership_unverified', 'The URL prefix or domain is not verified.');
    if (src.source !== 'FILE_UPLOAD')
      return apiError(400, 'invalid_params', 'source must be FILE_UPLOAD or PULL_FROM_URL.');
    const bad = chunkPlanError(src.video_size, src.chunk_size, src.total_chunk_count);
    if (bad) return apiError(400, 'invalid_params', bad);
    if (posts.filter((p) => p.createdAt > clock.now() - 24 * 3600_000).length >= settings.postsPer24h) {
      return apiError(
        403,
        'spam_risk_too_many_posts',
        'The daily post cap from the API is reached for the current user.',
      );
    }
    // chunkPlanError checked all three are integers.
    const [videoSize, chunkSize, totalChunkCount] = [src.video_size, src.chunk_size, src.total_chunk_count].map(Number);
    const fields = {
      videoSize: videoSize!,
      chunkSize: chunkSize!,
      totalChunkCount: totalChunkCount!,
      title,
      privacyLevel: level,
      postInfo: switches,
    };
    const up = newUpload(clock, fields, () => randomToken('', 24));
    uploads.set(up.publishId, up);
    const token = encodeURIComponent(up.uploadToken);
    const uploadUrl = `${deps.baseUrl()}/video/?upload_id=${up.uploadId}&upload_token=${token}`;
    return ok({ publish_id: up.publishId, upload_url: uploadUrl });
  };

  const status = (r: SimRequest): SimReply => {
    const g = guard(r, ['video.publish', 'video.upload'], 'status');
    if (typeof g !== 'string') return g;
    const up = uploads.get(String(jsonBody<{ publish_id: unknown }>(r).publish_id ?? ''));
    if (!up) return apiError(400, 'invalid_params', 'publish_id is invalid or not found.');
    const data: Record<string, unknown> = { status: 'PROCESSING_UPLOAD', uploaded_bytes: up.received };
    let ids: string[] = [];
    if (up.state === 'failed') Object.assign(data, { status: 'FAILED', fail_reason: up.failReason });
    if (up.state === 'complete' && ++up.polls > settings.processingPolls) {
      data.status = 'PUBLISH_COMPLETE';
      const shown = up.polls > settings.processingPolls + settings.postIdPolls && up.privacyLevel !== 'SELF_ONLY';
      if (shown && up.post) ids = [up.post.id];
    }
    data.publicaly_available_post_id = '__IDS__';
    const envelope = JSON.stringify({ data, error: { code: 'ok', message: '', log_id: deps.logId() } });
    // int64 ids as bare JSON numbers, as TikTok sends them.
    const body = envelope.replace('"__IDS__"', `[${ids.join(',')}]`);
    return { status: 200, body, headers: { 'content-type': 'application/json; charset=UTF-8' } };
  };

  const videoQuery = (r: SimRequest): SimReply => {
    const a = auth(r, ['video.list']);
    if (!('token' in a)) return a;
    const fields = (r.query.get('fields') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!fields.length || fields.some((f) => !VIDEO_FIELDS.includes(f)))
      return apiError(400, 'invalid_params', 'fields is missing or has an unknown field.');
    const ids = jsonBody<{ filters: { video_ids?: unknown } }>(r).filters?.video_ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > 20)
      return apiError(400, 'invalid_params', 'filters.video_ids must hold 1 to 20 ids.');
    const videos = posts
      .filter((p) => ids.map(String).includes(p.id))
      .map((p) => {
        const all: Record<string, unknown> = {
          id: p.id,
          title: p.title,
          video_description: p.title,
          duration: 10,
          cover_image_url: `${deps.baseUrl()}/cover/${p.id}.jpeg`,
          share_url: `https://www.tiktok.com/@${deps.creator.username}/video/${p.id}`,
          create_time: Math.floor(p.createdAt / 1000),
          view_count: p.views,
          like_count: p.likes,
          comment_count: p.comments,
          share_count: 0,
        };
        return Object.fromEntries(fields.map((f) => [f, all[f]]));
      });
    return ok({ videos, cursor: 0, has_more: false });
  };

  const controls: TikTokPublishControls = {
    publishSettings: settings,
    posts: () => [...posts],
    addPosts: (made) => void posts.push(...made),
    uploads: () => [...uploads.values()],
    failChunk: (index, opts = {}) =>
      void state.chunkFaults.push({ index, status: opts.status ?? 500, times: opts.times ?? 1 }),
    dropChunk: (index) => void state.drops.add(index),
    expireUploads: () => uploads.forEach((u) => (u.expired = true)),
    failNextPublish: (reason) => void state.failReasons.push(reason),
    hangAfterLastChunk: () => void (state.hangNext = true),
  };
  return {
    controls,
    release: () => state.held.splice(0).forEach((resolve) => resolve()),
    routes: [
      { method: 'POST', path: '/v2/post/publish/creator_info/query/', handler: creatorInfo },
      { method: 'POST', path: '/v2/post/publish/video/init/', handler: init },
      { method: 'PUT', path: '/video/', handler: chunkHandler(state, apiError), stream: true },
      { method: 'POST', path: '/v2/post/publish/status/fetch/', handler: status },
      { method: 'POST', path: '/v2/video/query/', handler: videoQuery },
    ],
  };
}

const SWITCHES = {
  disable_comment: 'disableComment',
  disable_duet: 'disableDuet',
  disable_stitch: 'disableStitch',
  is_aigc: 'isAigc',
  brand_content_toggle: 'brandContentToggle',
  brand_organic_toggle: 'brandOrganicToggle',
} as const;

/** post_info's optional booleans (absent = false); a value of another type is TikTok's invalid_params. */
function postSwitches(post: Record<string, unknown>): SimTikTokPostInfo | string {
  const out = {} as SimTikTokPostInfo;
  for (const [field, key] of Object.entries(SWITCHES)) {
    const v = post[field];
    if (v !== undefined && typeof v !== 'boolean') return `${field} must be a boolean.`;
    out[key] = v === true;
  }
  return out;
}
