/**
 * The video resource Kadr sends with videos.insert (snippet + status), checked against the YouTube Data API's
 * documented field limits before any call, so a bad title is a readable bad-request, not a spent quota unit.
 * Also the quota figures the later quota counter uses, and the public links of a video.
 */
import { youtubePost, type PublishMeta } from '../publish-types';
import { PlatformError, type PlatformErrorKey } from '../types';

export const YOUTUBE_TITLE_MAX = 100;
/** snippet.description: bytes (UTF-8), not characters. */
export const YOUTUBE_VIDEO_DESCRIPTION_MAX_BYTES = 5000;
/** snippet.tags: the whole list, commas between tags counted, a tag with a space counted with its quotes. */
export const YOUTUBE_TAGS_MAX = 500;

/**
 * Quota of a Google Cloud project (developers.google.com/youtube/v3/determine_quota_cost): `videos.insert` has a
 * bucket of its own (100 calls a day, 1 per call); every other method shares 10,000 units a day. Both reset at
 * midnight Pacific time (America/Los_Angeles). Every request costs its units, even an invalid one. Older
 * documents (and most code) charge videos.insert 1,600 units from the shared pool instead.
 */
export const YOUTUBE_QUOTA = {
  dailyUnits: 10_000,
  insertCallsPerDay: 100,
  resetTimeZone: 'America/Los_Angeles',
  costs: { videosInsert: 1, videosList: 1, channelsList: 1, playlistItemsList: 1 },
  legacyInsertUnits: 1600,
} as const;

export type YouTubePrivacyStatus = 'public' | 'unlisted' | 'private';

export interface YouTubeUploadOptions {
  privacyStatus: YouTubePrivacyStatus;
  /** When the private video goes public (status.publishAt); allowed only with privacyStatus 'private'. */
  publishAt?: Date | string;
  /** snippet.categoryId, e.g. '22' (People & Blogs); YouTube picks one when absent. */
  categoryId?: string;
  /** Sent as the notifySubscribers query parameter when set. */
  notifySubscribers?: boolean;
  /** status.selfDeclaredMadeForKids (default false). */
  madeForKids?: boolean;
  /** status.containsSyntheticMedia: YouTube's disclosure of realistic altered or synthetic (AI-made) content. */
  containsSyntheticMedia?: boolean;
}

/** The body of videos.insert. */
export interface YouTubeVideoResource {
  snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
  status: {
    privacyStatus: YouTubePrivacyStatus;
    publishAt?: string;
    selfDeclaredMadeForKids: boolean;
    containsSyntheticMedia: boolean;
  };
}

const bad = (key: PlatformErrorKey, code: string, params?: Record<string, string | number>) =>
  new PlatformError({ kind: 'bad-request', platform: 'youtube', code, key, params });

/** Length of the tag list as YouTube counts it. */
export function youtubeTagsLength(tags: string[]): number {
  const items = tags.map((t) => t.length + (/\s/.test(t) ? 2 : 0));
  return items.reduce((a, b) => a + b, 0) + Math.max(0, tags.length - 1);
}

/** Builds the video resource, or throws PlatformError 'bad-request' naming the field rule that is broken. */
export function youtubeVideoResource(meta: PublishMeta, opts: YouTubeUploadOptions): YouTubeVideoResource {
  const title = meta.title.trim();
  if (!title) throw bad('youtube_title_required', 'invalidTitle');
  if ([...title].length > YOUTUBE_TITLE_MAX)
    throw bad('youtube_title_too_long', 'invalidTitle', { max: YOUTUBE_TITLE_MAX });
  if (/[<>]/.test(title)) throw bad('youtube_title_brackets', 'invalidTitle');
  const description = meta.description ?? '';
  if (Buffer.byteLength(description, 'utf8') > YOUTUBE_VIDEO_DESCRIPTION_MAX_BYTES) {
    throw bad('youtube_video_description_too_long', 'invalidDescription', { max: YOUTUBE_VIDEO_DESCRIPTION_MAX_BYTES });
  }
  if (/[<>]/.test(description)) throw bad('youtube_video_description_brackets', 'invalidDescription');
  const tags = (meta.tags ?? []).map((t) => t.trim()).filter(Boolean);
  if (youtubeTagsLength(tags) > YOUTUBE_TAGS_MAX)
    throw bad('youtube_tags_too_long', 'invalidTags', { max: YOUTUBE_TAGS_MAX });
  let publishAt: string | undefined;
  if (opts.publishAt !== undefined) {
    if (opts.privacyStatus !== 'private') throw bad('youtube_publish_at_private', 'invalidPublishAt');
    const at = new Date(opts.publishAt);
    if (Number.isNaN(at.getTime())) {
      throw new PlatformError({
        kind: 'bad-request',
        platform: 'youtube',
        code: 'invalidPublishAt',
        key: 'rejected',
        params: { platform: 'YouTube' },
        detail: 'publishAt',
      });
    }
    publishAt = at.toISOString();
  }
  return {
    snippet: {
      title,
      description,
      ...(tags.length ? { tags } : {}),
      ...(opts.categoryId ? { categoryId: opts.categoryId } : {}),
    },
    status: {
      privacyStatus: opts.privacyStatus,
      ...(publishAt ? { publishAt } : {}),
      selfDeclaredMadeForKids: opts.madeForKids ?? false,
      containsSyntheticMedia: opts.containsSyntheticMedia ?? false,
    },
  };
}

/**
 * What YouTube gets of a post: the operator's own title and description for YouTube when given (else the shared
 * ones), and the options (privacy, category, made for kids); a video made by the AI service always carries
 * containsSyntheticMedia.
 */
export function youtubeUpload(meta: PublishMeta): { meta: PublishMeta; opts: YouTubeUploadOptions } {
  const post = youtubePost(meta);
  const title = post.title?.trim() || meta.title;
  const description = post.description?.trim() ? post.description : meta.description;
  return {
    meta: { ...meta, title, description },
    opts: {
      privacyStatus: post.privacy ?? 'public',
      ...(post.categoryId ? { categoryId: post.categoryId } : {}),
      madeForKids: post.madeForKids ?? false,
      containsSyntheticMedia: meta.aiMade === true,
    },
  };
}

/** The public link of a video: the watch page, or the Shorts player. */
export function youtubeVideoUrl(videoId: string, opts: { short?: boolean } = {}): string {
  const id = encodeURIComponent(videoId);
  return opts.short ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`;
}
