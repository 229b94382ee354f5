/**
 * The Google simulator's videos: the ones its uploads made, their processing (uploaded → processed, or failed /
 * rejected with a reason when a test switches that on), and the read calls the publisher makes:
 *   GET /youtube/v3/videos          part=snippet,status,statistics & id=a,b (≤ 50; counts as strings; 1 unit)
 *   GET /youtube/v3/playlistItems   part=snippet,contentDetails & playlistId=UU… (the uploads playlist, newest
 *                                   first; maxResults ≤ 50, pageToken; 1 unit)
 */
import { jsonBody, randomToken, type SimClock, type SimReply, type SimRequest, type SimRoute } from './common';
import { READ_SCOPES, WRITE_SCOPES, googleApiError, uploadsPlaylistId } from './youtube-data-api';

export type SimUploadStatus = 'uploaded' | 'processed' | 'failed' | 'rejected' | 'deleted';

export interface SimVideo {
  id: string;
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  privacyStatus: string;
  publishAt?: string;
  /** status.selfDeclaredMadeForKids as sent (false when absent). */
  madeForKids: boolean;
  /** status.containsSyntheticMedia as sent (false when absent): the AI-content disclosure. */
  containsSyntheticMedia: boolean;
  /** Simulator clock (ms) when the last byte arrived: the video exists from then on. */
  createdAt: number;
  /** When processing ends (simulator clock, ms). */
  processedAt: number;
  uploadStatus: SimUploadStatus;
  /** What processing ends in (default processed). */
  outcome?: { status: 'failed'; failureReason: string } | { status: 'rejected'; rejectionReason: string };
  failureReason?: string;
  rejectionReason?: string;
  size: number;
  /** SHA-256 (hex) of the bytes the upload delivered. */
  sha256: string;
  statistics: { viewCount: number; likeCount: number; commentCount: number };
}

/** The simulator's videos and how they are processed (live: tests may read and change them). */
/** A playlist of the channel and the videos playlistItems.insert added to it. */
export interface SimPlaylist {
  id: string;
  videoIds: string[];
}

export interface YouTubeVideosState {
  videos: SimVideo[];
  /** The channel's playlists (one to start with: `SIM_PLAYLIST_ID`); tests read what was added. */
  playlists: SimPlaylist[];
  /** How long processing takes on the simulator's clock (default 60 s; `advance` moves it). */
  processingMs: number;
  /** Videos made so far (each successful upload makes exactly one). */
  posts(): number;
  /** The next video's processing fails with `failureReason` (e.g. 'codec', 'conversion'). */
  failNextProcessing(failureReason?: string): void;
  /** The next video is rejected with `rejectionReason` (e.g. 'duplicate', 'length'). */
  rejectNextProcessing(rejectionReason?: string): void;
  /** Gives a new video the processing outcome switched on for it (used by the upload). */
  takeProcessingOutcome(video: SimVideo): void;
  channelId(): string;
}

/** The playlist every simulated channel has. */
export const SIM_PLAYLIST_ID = 'PLkadrSimShorts';

export function youtubeVideosState(channel: () => { id: string }): YouTubeVideosState {
  let next: SimVideo['outcome'] | undefined;
  const state: YouTubeVideosState = {
    videos: [],
    playlists: [{ id: SIM_PLAYLIST_ID, videoIds: [] }],
    processingMs: 60_000,
    posts: () => state.videos.length,
    failNextProcessing: (failureReason = 'codec') => void (next = { status: 'failed', failureReason }),
    rejectNextProcessing: (rejectionReason = 'duplicate') => void (next = { status: 'rejected', rejectionReason }),
    takeProcessingOutcome: (video) => {
      if (next) video.outcome = next;
      next = undefined;
    },
    channelId: () => channel().id,
  };
  return state;
}

/** Moves a video's processing on to its outcome once its time has come. */
function process(v: SimVideo, now: number) {
  if (v.uploadStatus !== 'uploaded' || now < v.processedAt) return;
  const o = v.outcome;
  if (!o) v.uploadStatus = 'processed';
  else if (o.status === 'failed') Object.assign(v, { uploadStatus: 'failed', failureReason: o.failureReason });
  else Object.assign(v, { uploadStatus: 'rejected', rejectionReason: o.rejectionReason });
}

export function videoResource(v: SimVideo, parts: string[], channelId: string) {
  const out: Record<string, unknown> = { kind: 'youtube#video', etag: randomToken('', 8), id: v.id };
  if (parts.includes('snippet')) {
    out.snippet = {
      publishedAt: new Date(v.createdAt).toISOString(),
      channelId,
      title: v.title,
      description: v.description,
      thumbnails: { default: { url: `https://i.ytimg.example/vi/${v.id}/default.jpg`, width: 120, height: 90 } },
      channelTitle: 'Kadr Sim Channel',
      ...(v.tags.length ? { tags: v.tags } : {}),
      categoryId: v.categoryId,
      liveBroadcastContent: 'none',
      localized: { title: v.title, description: v.description },
    };
  }
  if (parts.includes('status')) {
    out.status = {
      uploadStatus: v.uploadStatus,
      ...(v.failureReason ? { failureReason: v.failureReason } : {}),
      ...(v.rejectionReason ? { rejectionReason: v.rejectionReason } : {}),
      privacyStatus: v.privacyStatus,
      ...(v.publishAt ? { publishAt: v.publishAt } : {}),
      license: 'youtube',
      embeddable: true,
      publicStatsViewable: true,
      madeForKids: false,
      selfDeclaredMadeForKids: false,
    };
  }
  if (parts.includes('statistics')) {
    const s = v.statistics;
    out.statistics = {
      viewCount: String(s.viewCount),
      likeCount: String(s.likeCount),
      favoriteCount: '0',
      commentCount: String(s.commentCount),
    };
  }
  return out;
}

const VIDEO_PARTS = ['id', 'snippet', 'status', 'statistics', 'contentDetails', 'processingDetails', 'fileDetails'];

export function youtubeVideoRoutes(
  state: YouTubeVideosState,
  ctx: {
    clock: SimClock;
    spend: (units: number) => SimReply | null;
    authed: (r: SimRequest, scopes: string[]) => SimReply | null;
  },
): SimRoute[] {
  const parts = (r: SimRequest, known: string[]): string[] | SimReply => {
    const list = (r.query.get('part') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!list.length) return googleApiError(400, 'required', 'Required parameter: part');
    const unknown = list.find((p) => !known.includes(p));
    return unknown ? googleApiError(400, 'unknownPart', `'${unknown}'`, 'youtube.part') : list;
  };

  const listVideos = (r: SimRequest): SimReply => {
    const denied = ctx.authed(r, READ_SCOPES);
    if (denied) return denied;
    const p = parts(r, VIDEO_PARTS);
    if (!Array.isArray(p)) return p;
    const charged = ctx.spend(1);
    if (charged) return charged;
    const ids = (r.query.get('id') ?? '').split(',').filter(Boolean);
    if (!ids.length)
      return googleApiError(
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: id, chart, myRating',
        'youtube.parameter',
      );
    if (ids.length > 50)
      return googleApiError(400, 'invalidParameter', 'Too many ids (at most 50)', 'youtube.parameter');
    const now = ctx.clock.now();
    const items = ids
      .map((id) => state.videos.find((v) => v.id === id && v.uploadStatus !== 'deleted'))
      .filter((v): v is SimVideo => Boolean(v))
      .map((v) => (process(v, now), videoResource(v, p, state.channelId())));
    const pageInfo = { totalResults: items.length, resultsPerPage: items.length };
    return { status: 200, body: { kind: 'youtube#videoListResponse', etag: randomToken('', 8), items, pageInfo } };
  };

  const listPlaylistItems = (r: SimRequest): SimReply => {
    const denied = ctx.authed(r, READ_SCOPES);
    if (denied) return denied;
    const p = parts(r, ['id', 'snippet', 'contentDetails', 'status']);
    if (!Array.isArray(p)) return p;
    const charged = ctx.spend(1);
    if (charged) return charged;
    const playlistId = r.query.get('playlistId') ?? '';
    if (!playlistId)
      return googleApiError(
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: id, playlistId',
        'youtube.parameter',
      );
    const channelId = state.channelId();
    if (playlistId !== uploadsPlaylistId(channelId)) {
      return googleApiError(
        404,
        'playlistNotFound',
        "The playlist identified with the request's playlistId parameter cannot be found.",
        'youtube.playlistItem',
      );
    }
    const max = Math.min(50, Math.max(0, Number(r.query.get('maxResults') ?? 5) || 0));
    const offset = Number(Buffer.from(r.query.get('pageToken') ?? '', 'base64url').toString() || 0) || 0;
    const all = state.videos.filter((v) => v.uploadStatus !== 'deleted').sort((a, b) => b.createdAt - a.createdAt);
    const page = all.slice(offset, offset + max).map((v, i) => {
      const publishedAt = new Date(v.createdAt).toISOString();
      const item: Record<string, unknown> = {
        kind: 'youtube#playlistItem',
        etag: randomToken('', 8),
        id: randomToken('', 12),
      };
      if (p.includes('snippet')) {
        item.snippet = {
          publishedAt,
          channelId,
          title: v.title,
          description: v.description,
          channelTitle: 'Kadr Sim Channel',
          playlistId,
          position: offset + i,
          resourceId: { kind: 'youtube#video', videoId: v.id },
          videoOwnerChannelId: channelId,
          videoOwnerChannelTitle: 'Kadr Sim Channel',
        };
      }
      if (p.includes('contentDetails')) item.contentDetails = { videoId: v.id, videoPublishedAt: publishedAt };
      if (p.includes('status')) item.status = { privacyStatus: v.privacyStatus };
      return item;
    });
    const more = offset + max < all.length;
    return {
      status: 200,
      body: {
        kind: 'youtube#playlistItemListResponse',
        etag: randomToken('', 8),
        ...(more ? { nextPageToken: Buffer.from(String(offset + max)).toString('base64url') } : {}),
        items: page,
        pageInfo: { totalResults: all.length, resultsPerPage: max },
      },
    };
  };

  /** playlistItems.insert (part=snippet; 50 units): a video of the channel into one of its playlists. */
  const insertPlaylistItem = (r: SimRequest): SimReply => {
    const denied = ctx.authed(r, WRITE_SCOPES);
    if (denied) return denied;
    const p = parts(r, ['snippet', 'contentDetails', 'status']);
    if (!Array.isArray(p)) return p;
    const charged = ctx.spend(50);
    if (charged) return charged;
    const snippet = jsonBody<{
      snippet: { playlistId?: unknown; resourceId?: { kind?: unknown; videoId?: unknown } };
    }>(r).snippet;
    const list = state.playlists.find((l) => l.id === snippet?.playlistId);
    if (!list) return googleApiError(404, 'playlistNotFound', 'The playlist cannot be found.', 'youtube.playlistItem');
    const videoId = snippet?.resourceId?.videoId;
    if (snippet?.resourceId?.kind !== 'youtube#video' || typeof videoId !== 'string')
      return googleApiError(400, 'invalidResourceId', 'The resource id is not a video.', 'youtube.playlistItem');
    if (!state.videos.some((v) => v.id === videoId))
      return googleApiError(404, 'videoNotFound', 'The video cannot be found.', 'youtube.playlistItem');
    list.videoIds.push(videoId);
    const item = {
      playlistId: list.id,
      resourceId: { kind: 'youtube#video', videoId },
      position: list.videoIds.length - 1,
    };
    return { status: 200, body: { kind: 'youtube#playlistItem', id: randomToken('', 12), snippet: item } };
  };

  return [
    { method: 'GET', path: '/youtube/v3/videos', handler: listVideos },
    { method: 'GET', path: '/youtube/v3/playlistItems', handler: listPlaylistItems },
    { method: 'POST', path: '/youtube/v3/playlistItems', handler: insertPlaylistItem },
  ];
}

/** One chunk of a resumable upload as the simulator received it. */
export interface SimUploadChunk {
  start: number;
  /** Exclusive end of what the client sent. */
  end: number;
  /** What the session had persisted when the chunk arrived. */
  acknowledgedBefore: number;
  /** Bytes of the chunk persisted (fewer than sent under a fault). */
  persisted: number;
}

/** The videos.insert body, once `invalidResource` has passed it. */
export interface SimInsertResource {
  snippet: { title: string; description?: string; tags?: string[]; categoryId?: string };
  status: {
    privacyStatus?: string;
    publishAt?: string;
    selfDeclaredMadeForKids?: boolean;
    containsSyntheticMedia?: boolean;
  };
}
