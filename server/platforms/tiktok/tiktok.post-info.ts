/**
 * What a TikTok post is made of before anything is sent: the creator's options (creator_info), the privacy level
 * chosen from them, the caption, and TikTok's JSON (whose int64 ids must not pass through a double).
 */
import { defaultCaption } from '../../../src/contract/platform-posts';
import { tiktokPost, type PublishMeta } from '../publish-types';
import { PlatformError, type PlatformErrorKey } from '../types';
import { TIKTOK_CAPTION_MAX } from './tiktok.limits';

export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type TikTokPrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];

/** creator_info/query: what this creator may post right now (TikTok asks apps to read it before every post). */
export interface TikTokCreatorInfo {
  nickname: string;
  username: string;
  avatarUrl: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

export interface TikTokPrivacyChoice {
  privacyLevel: string;
  /** Only SELF_ONLY is offered: an unaudited app (or a private account) posts privately. */
  privateOnly: boolean;
  /** A kadr.platform_errors key to show the operator beside the post, when the post will not be public. */
  notice: PlatformErrorKey | null;
}

/** PUBLIC_TO_EVERYONE when the creator allows it, else the first level offered. */
export function pickTikTokPrivacy(
  creator: Pick<TikTokCreatorInfo, 'privacyLevelOptions'>,
  wanted?: string,
): TikTokPrivacyChoice {
  const options = creator.privacyLevelOptions;
  if (!options.length) {
    throw new PlatformError({
      kind: 'bad-request',
      platform: 'tiktok',
      code: 'no_privacy_level',
      key: 'tiktok_no_privacy_level',
    });
  }
  if (wanted !== undefined && !options.includes(wanted)) {
    throw new PlatformError({
      kind: 'bad-request',
      platform: 'tiktok',
      code: 'privacy_level_option_mismatch',
      key: 'tiktok_privacy_mismatch',
    });
  }
  const privacyLevel = wanted ?? (options.includes('PUBLIC_TO_EVERYONE') ? 'PUBLIC_TO_EVERYONE' : options[0]!);
  const privateOnly = options.every((o) => o === 'SELF_ONLY');
  return { privacyLevel, privateOnly, notice: privateOnly ? 'tiktok_private_only' : null };
}

/**
 * post_info beyond the caption and the privacy level: the interaction switches (off whenever the creator's
 * settings turn them off, else as the operator chose, on by default), the AI-content label of a video made by
 * the AI service (is_aigc, never optional), and the commercial content disclosure of a post marked as promotion.
 */
export function tiktokPostSwitches(meta: PublishMeta, creator: TikTokCreatorInfo) {
  const post = tiktokPost(meta);
  const promotion = post.promotion ?? 'none';
  return {
    disable_comment: creator.commentDisabled || post.allowComment === false,
    disable_duet: creator.duetDisabled || post.allowDuet === false,
    disable_stitch: creator.stitchDisabled || post.allowStitch === false,
    is_aigc: meta.aiMade === true,
    brand_content_toggle: promotion === 'branded_content',
    brand_organic_toggle: promotion === 'your_brand',
  };
}

/** A JSON object of TikTok's answer (anything else reads as an empty one). */
export type TikTokData = Record<string, unknown>;

export function jsonObject(v: unknown): TikTokData {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as TikTokData) : {};
}

export function toCreatorInfo(data: TikTokData): TikTokCreatorInfo {
  return {
    nickname: String(data.creator_nickname ?? ''),
    username: String(data.creator_username ?? ''),
    avatarUrl: String(data.creator_avatar_url ?? ''),
    privacyLevelOptions: Array.isArray(data.privacy_level_options) ? data.privacy_level_options.map(String) : [],
    commentDisabled: data.comment_disabled === true,
    duetDisabled: data.duet_disabled === true,
    stitchDisabled: data.stitch_disabled === true,
    maxVideoPostDurationSec: Number(data.max_video_post_duration_sec) || 0,
  };
}

/**
 * A TikTok post has one text, its caption (post_info.title): the title, then the description, then the tags as
 * hashtags. At most 2200 UTF-16 code units; a longer one is refused rather than cut.
 */
export function tiktokCaption(meta: PublishMeta): string {
  const own = tiktokPost(meta).caption;
  const caption = own?.trim() ? own : defaultCaption('tiktok', meta);
  if (caption.length > TIKTOK_CAPTION_MAX) {
    const params = { max: TIKTOK_CAPTION_MAX, length: caption.length };
    throw new PlatformError({
      kind: 'bad-request',
      platform: 'tiktok',
      code: 'caption_too_long',
      key: 'tiktok_caption_too_long',
      params,
    });
  }
  return caption;
}

/** The public link of a post, when the creator's username is known. */
export function tiktokPostUrl(username: string | undefined, postId: string | null): string | null {
  return username && postId ? `https://www.tiktok.com/@${username}/video/${postId}` : null;
}

/**
 * Parses TikTok's JSON keeping int64 numbers exact: `publicaly_available_post_id` is a list of int64s (video ids
 * have 19 digits, beyond a double's 15–16), so every bare integer of 16 digits or more becomes a string first.
 * Returns null for an empty body and `{ text }` for a body that is not JSON.
 */
export function parseTikTokJson(text: string): unknown {
  if (!text.trim()) return null;
  const exact = text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"');
  try {
    return JSON.parse(exact);
  } catch {
    return { text: text.slice(0, 500) };
  }
}
