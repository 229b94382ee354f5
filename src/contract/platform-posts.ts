import { z } from 'zod';
import { encodeMessage } from './stored-message';

/**
 * Per-platform posts (issue 21 item 6): what a publication sends to each platform besides the shared title,
 * description and tags: its own title/caption (empty = made from the shared fields, as before) and the options
 * the platform offers. Stored per publication × platform (publication_platforms.post, migration 038); the publish
 * worker hands the platform's entry to its driver. The same schema checks the panel's form and the server's body,
 * so a limit is said as it is typed and a 400 names the same field.
 */

/** The platforms' text limits (YouTube title 100 and description 5,000; TikTok and Instagram captions 2,200). */
export const POST_LIMITS = {
  youtubeTitle: 100,
  youtubeDescription: 5000,
  tiktokCaption: 2200,
  instagramCaption: 2200,
  instagramHashtags: 30,
} as const;

export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;
export type YouTubePrivacy = (typeof YOUTUBE_PRIVACY)[number];

/** YouTube's assignable video categories (videoCategories.list, region US); the panel names them. */
export const YOUTUBE_CATEGORIES = [
  '1',
  '2',
  '10',
  '15',
  '17',
  '19',
  '20',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
] as const;

export const TIKTOK_PRIVACY = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type TikTokPrivacy = (typeof TIKTOK_PRIVACY)[number];

/**
 * A post marked as promotion: TikTok's commercial content disclosure. `your_brand` promotes the creator's own
 * business (brand_organic_toggle); `branded_content` is a paid partnership (brand_content_toggle), which TikTok
 * does not allow as a private (SELF_ONLY) post.
 */
export const PROMOTIONS = ['none', 'your_brand', 'branded_content'] as const;
export type Promotion = (typeof PROMOTIONS)[number];

/** The form's and the server's messages (i18n keys under kadr.platform_posts.errors). */
export const PPM = {
  tooLong: 'kadr.platform_posts.errors.too_long',
  tooManyHashtags: 'kadr.platform_posts.errors.too_many_hashtags',
  noAngleBrackets: 'kadr.validation.description_no_angle_brackets',
  badPlaylist: 'kadr.platform_posts.errors.bad_playlist',
  privacyNotOffered: 'kadr.platform_posts.errors.privacy_not_offered',
  brandedPrivate: 'kadr.platform_posts.errors.branded_private',
  switchNotAllowed: 'kadr.platform_posts.errors.switch_not_allowed',
} as const;

/** Characters as the platforms count them (code points: an emoji is one). */
export const charCount = (s: string) => [...s].length;

/** A hashtag as Instagram counts it: # and letters, digits or _ , not inside a word or an &entity. */
const HASHTAG = /(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]+)/gu;
export const hashtagCount = (s: string) => [...s.matchAll(HASHTAG)].length;

/** A tag as a hashtag (spaces and leading # dropped), or '' when nothing is left. */
export const asHashtag = (t: string) => {
  const h = t.trim().replace(/^#+/, '').replace(/\s+/g, '');
  return h ? `#${h}` : '';
};

export type SharedText = { title: string; description: string; tags: readonly string[] };

/**
 * The caption a platform gets when the operator gave it none (the drivers make the same one): TikTok's is the
 * title, the description and the tags as hashtags; Instagram's the same with the tags not already in the text.
 */
export function defaultCaption(platform: 'tiktok' | 'instagram', s: SharedText): string {
  const text = [s.title.trim(), s.description.trim()].filter(Boolean).join('\n\n');
  const present = new Set([...text.matchAll(HASHTAG)].map((m) => m[1]!.toLowerCase()));
  const tags: string[] = [];
  for (const t of s.tags) {
    const h = asHashtag(t);
    if (!h) continue;
    if (platform === 'instagram') {
      if (present.has(h.slice(1).toLowerCase())) continue;
      present.add(h.slice(1).toLowerCase());
    }
    tags.push(h);
  }
  return [text, tags.join(' ')].filter(Boolean).join('\n\n');
}

/** One counter of the form: what is used of a limit. */
export type PostCounter = { field: string; used: number; max: number; over: boolean };
const counter = (field: string, used: number, max: number): PostCounter => ({ field, used, max, over: used > max });

/** The counters of each platform's text, of what will be sent (the platform's own text, else the shared one). */
export function postCounters(posts: PlatformPosts | undefined, s: SharedText): Record<string, PostCounter[]> {
  const yt = posts?.youtube;
  const title = yt?.title?.trim() || s.title.trim();
  const description = yt?.description || s.description;
  const tiktok = posts?.tiktok?.caption || defaultCaption('tiktok', s);
  const instagram = posts?.instagram?.caption || defaultCaption('instagram', s);
  return {
    youtube: [
      counter('title', charCount(title), POST_LIMITS.youtubeTitle),
      counter('description', charCount(description), POST_LIMITS.youtubeDescription),
    ],
    tiktok: [counter('caption', tiktok.length, POST_LIMITS.tiktokCaption)],
    instagram: [
      counter('caption', charCount(instagram), POST_LIMITS.instagramCaption),
      counter('hashtags', hashtagCount(instagram), POST_LIMITS.instagramHashtags),
    ],
  };
}

const tooLong = (max: number) => encodeMessage(PPM.tooLong, { max });
const noBrackets = (s: string) => !/[<>]/.test(s);

export const YouTubePostSchema = z.object({
  title: z
    .string()
    .trim()
    .refine((s) => charCount(s) <= POST_LIMITS.youtubeTitle, tooLong(POST_LIMITS.youtubeTitle))
    .refine(noBrackets, PPM.noAngleBrackets)
    .optional(),
  description: z
    .string()
    .refine((s) => charCount(s) <= POST_LIMITS.youtubeDescription, tooLong(POST_LIMITS.youtubeDescription))
    .refine(noBrackets, PPM.noAngleBrackets)
    .optional(),
  privacy: z.enum(YOUTUBE_PRIVACY).optional(),
  categoryId: z.enum(YOUTUBE_CATEGORIES).optional(),
  /** A playlist of the channel the video is added to (playlistItems.insert), by its id. */
  playlistId: z
    .string()
    .trim()
    .regex(/^$|^[A-Za-z0-9_-]{2,64}$/, PPM.badPlaylist)
    .optional(),
  madeForKids: z.boolean().optional(),
});
export type YouTubePost = z.infer<typeof YouTubePostSchema>;

export const TikTokPostSchema = z.object({
  /** post_info.title: TikTok's caption (counted in UTF-16 units, as TikTok does). */
  caption: z.string().max(POST_LIMITS.tiktokCaption, tooLong(POST_LIMITS.tiktokCaption)).optional(),
  /** One of creator_info's privacy_level_options (checked against them on saving and on posting). */
  privacyLevel: z.enum(TIKTOK_PRIVACY).optional(),
  allowComment: z.boolean().optional(),
  allowDuet: z.boolean().optional(),
  allowStitch: z.boolean().optional(),
  promotion: z.enum(PROMOTIONS).optional(),
});
export type TikTokPost = z.infer<typeof TikTokPostSchema>;

export const InstagramPostSchema = z.object({
  caption: z
    .string()
    .refine((s) => charCount(s) <= POST_LIMITS.instagramCaption, tooLong(POST_LIMITS.instagramCaption))
    .refine(
      (s) => hashtagCount(s) <= POST_LIMITS.instagramHashtags,
      encodeMessage(PPM.tooManyHashtags, { max: POST_LIMITS.instagramHashtags }),
    )
    .optional(),
  /** share_to_feed: the Reel shows in the profile's feed too (Instagram's default: yes). */
  shareToFeed: z.boolean().optional(),
  /** thumb_offset: the cover frame, milliseconds into the video. */
  thumbOffsetMs: z.number().int().min(0).max(3_600_000).optional(),
});
export type InstagramPost = z.infer<typeof InstagramPostSchema>;

/** The publish form's and the edit's `posts`: each platform's own text and options. */
export const PlatformPostsSchema = z
  .object({
    youtube: YouTubePostSchema.optional(),
    tiktok: TikTokPostSchema.optional(),
    instagram: InstagramPostSchema.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.tiktok?.promotion === 'branded_content' && p.tiktok.privacyLevel === 'SELF_ONLY')
      ctx.addIssue({ code: 'custom', path: ['tiktok', 'privacyLevel'], message: PPM.brandedPrivate });
  });
export type PlatformPosts = z.infer<typeof PlatformPostsSchema>;
export type PlatformPost = YouTubePost | TikTokPost | InstagramPost;

/**
 * One video's own texts per platform (the title/caption fields only; the options stay the publication's): an
 * operator publishing N unique variants of a clip gives each its own caption. What a platform gets for a video:
 * the video's own text, else the publication's platform text (`posts`), else the one made from the video's own
 * shared title, description and tags. Stored on the video's row (videos.posts, migration 047).
 */
export const VideoPostsSchema = z.object({
  youtube: YouTubePostSchema.pick({ title: true, description: true }).optional(),
  tiktok: TikTokPostSchema.pick({ caption: true }).optional(),
  instagram: InstagramPostSchema.pick({ caption: true }).optional(),
});
export type VideoPosts = z.infer<typeof VideoPostsSchema>;

/** The text fields a video may set per platform (VideoPostsSchema's). */
const VIDEO_TEXT_FIELDS = {
  youtube: ['title', 'description'],
  tiktok: ['caption'],
  instagram: ['caption'],
} as const;

const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** A video's own texts with the empty ones left out (undefined when none is left). */
export function videoTexts(own: Record<string, Record<string, unknown> | undefined> | undefined) {
  const out: Record<string, Record<string, string>> = {};
  for (const [platform, fields] of Object.entries(VIDEO_TEXT_FIELDS)) {
    const entry = own?.[platform];
    const kept = fields.filter((f) => filled(entry?.[f])).map((f) => [f, entry![f] as string]);
    if (kept.length) out[platform] = Object.fromEntries(kept);
  }
  return Object.keys(out).length ? (out as VideoPosts) : undefined;
}

/** How many texts of its own a video has (the form's badge). */
export const videoTextCount = (own: VideoPosts | undefined) =>
  Object.values(videoTexts(own) ?? {}).reduce((n, e) => n + Object.keys(e ?? {}).length, 0);

/** A platform's post entry with a video's own texts over it (the worker's overlay; the form's counters). */
export function withVideoText<T extends PlatformPost | undefined>(
  post: T,
  platform: string,
  own: VideoPosts | undefined,
): T | PlatformPost {
  const texts = videoTexts(own)?.[platform as keyof VideoPosts];
  return texts ? ({ ...(post ?? {}), ...texts } as PlatformPost) : post;
}

/** Each platform's entry with a video's own texts over it. */
export function postsForVideo(posts: PlatformPosts | undefined, own: VideoPosts | undefined): PlatformPosts {
  const out: Record<string, unknown> = { ...(posts ?? {}) };
  for (const platform of Object.keys(VIDEO_TEXT_FIELDS)) {
    const entry = withVideoText(posts?.[platform as keyof PlatformPosts], platform, own);
    if (entry) out[platform] = entry;
  }
  return out as PlatformPosts;
}

/** A stored video's texts (JSON), or undefined when there are none or they do not read. */
export function parseVideoPosts(raw: string | null | undefined): VideoPosts | undefined {
  const v = parsePost(raw) as Record<string, Record<string, unknown>> | undefined;
  return v ? videoTexts(v) : undefined;
}

/** A video's texts as stored (JSON of the filled ones), null when it has none. */
export const storedVideoPosts = (own: VideoPosts | undefined): string | null => {
  const t = videoTexts(own);
  return t ? JSON.stringify(t) : null;
};

/** GET /api/upload-video/tiktok/creator-info/{account}: what TikTok lets this creator choose for a post now. */
export const TikTokCreatorInfoSchema = z.object({
  account: z.number().int(),
  nickname: z.string(),
  username: z.string(),
  privacyLevelOptions: z.array(z.string()),
  commentDisabled: z.boolean(),
  duetDisabled: z.boolean(),
  stitchDisabled: z.boolean(),
  maxVideoPostDurationSec: z.number(),
});
export type TikTokCreatorInfo = z.infer<typeof TikTokCreatorInfoSchema>;

/** A stored post entry (JSON), or undefined when there is none or it does not read. */
export function parsePost(raw: string | null | undefined): PlatformPost | undefined {
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' ? (v as PlatformPost) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The form's posts as the body sends them: empty texts and unset options left out (they mean "as shared" and
 * "as the platform decides"), and a platform with nothing left out altogether.
 */
export function cleanPosts(posts: Record<string, Record<string, unknown> | undefined> | undefined) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [platform, entry] of Object.entries(posts ?? {})) {
    const kept = Object.entries(entry ?? {}).filter(
      ([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && !v.trim()),
    );
    if (kept.length) out[platform] = Object.fromEntries(kept);
  }
  return out as PlatformPosts;
}
