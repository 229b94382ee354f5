import { z } from 'zod';
import { instantField } from './dates';
import { OwnerSchema } from './http';
import { PlatformPostsSchema, VideoPostsSchema } from './platform-posts';
import { PLATFORMS, SPEC_PLATFORMS, inListOrder, type PlatformKey } from './platforms';
import { platformIn, platformOut } from './platform-schemas';
import { profileIdentityFields } from './profile-identity';
import { VIDEO_STATUSES } from './statuses';
import { encodeMessage } from './stored-message';
import { normalizeTags } from './tags';

/**
 * Publishing (SPEC §2 Video, §3 Publication / YouTube item / Video item, §5 publish and publication-edit rules,
 * §7 Videos). A publication belongs to one finished create-video request; each of its videos goes to one profile
 * at its own date, on each platform chosen for that profile, as one publish job per video per platform.
 *
 * Data model: a post is one `video_publishes` row (unique video × platform, with the profile in `account_id` and
 * its own state, handle, error and stats). A video has exactly one profile, so that row is already one row per
 * post, video × profile × platform: per-platform adapters, the calendar and per-platform captions build on it.
 */

/** Validation messages (i18n keys; the SPEC §5 strings live in i18n/uk.ts). */
export const PM = {
  titleRequired: 'kadr.validation.name_required',
  minOneTag: 'kadr.validation.min_one_tag',
  minOneAccount: 'kadr.validation.min_one_account',
  minOneVideo: 'kadr.validation.min_one_video',
  minOnePlatform: 'kadr.publications.errors.min_one_platform',
  beyondHorizon: 'kadr.publications.errors.beyond_horizon',
  titleTooLong: 'kadr.publications.errors.title_too_long',
  noAngleBrackets: 'kadr.validation.description_no_angle_brackets',
  descriptionTooLong: 'kadr.publications.errors.description_too_long',
  requestNotReady: 'kadr.publications.errors.request_not_ready',
  alreadyPublished: 'kadr.publications.errors.already_published',
  videoNotInRequest: 'kadr.publications.errors.video_not_in_request',
  accountUnavailable: 'kadr.publications.errors.account_unavailable',
  notRepublishable: 'kadr.publications.errors.not_republishable',
  accountNotConnected: 'kadr.publications.errors.account_not_connected',
  duplicateVideo: 'kadr.publications.errors.duplicate_video',
  videoLive: 'kadr.publications.errors.video_live',
  nothingToPublish: 'kadr.publications.errors.nothing_to_publish',
  notAiVideo: 'kadr.publications.errors.not_this_ai_video',
  checkRefused: 'kadr.publications.errors.check_refused',
  duplicatePost: 'kadr.publications.errors.duplicate_post',
} as const;

/** YouTube's limits (the strictest of the three for titles and descriptions). */
export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 5000;

/**
 * One video to one platform, as the publish job walks it (ARCHITECTURE.md "Publishing, exactly once"):
 * scheduled → (waiting: a quota or rate limit, until `waitUntil`) → uploading (the remote handle stored before the
 * first byte) → processing (polled within a time budget) → publishing (the step that makes the post public) →
 * published; an unknown outcome of the public step → reconcile (the platform is asked what happened); failed
 * with a readable reason; cancelled when the video or its publication was deleted or edited before its time.
 * A post of a user whose publications need approval stops in awaiting_approval where it becomes due (nothing
 * reaches the platform) until an admin approves it (back to scheduled) or rejects it (failed, with the reason).
 */
export const PUBLISH_STATES = [
  'scheduled',
  'awaiting_approval',
  'waiting',
  'uploading',
  'processing',
  'publishing',
  'reconcile',
  'published',
  'failed',
  'cancelled',
] as const;
export type PublishState = (typeof PUBLISH_STATES)[number];

/** Where a video is on its way: not started, on the way but cancellable, or past the step that makes it public. */
export const NOT_STARTED: readonly PublishState[] = ['scheduled', 'waiting'];
export const IN_FLIGHT: readonly PublishState[] = ['uploading', 'processing'];
export const PUBLIC_STEP: readonly PublishState[] = ['publishing', 'reconcile', 'published'];

/**
 * A video an edit or a removal may still change: none of its platforms has started uploading (the server's edit
 * and the publication page's edit form both go by it).
 */
export const isEditable = (posts: readonly { state: string }[]) =>
  posts.every((p) => !IN_FLIGHT.includes(p.state as PublishState) && !PUBLIC_STEP.includes(p.state as PublishState));

/** Why a publish failed, as the panel groups it: retry later, reconnect the profile, bad request, refused. */
export const PUBLISH_ERROR_KINDS = ['retry-later', 'reconnect', 'bad-request', 'refused'] as const;
export type PublishErrorKind = (typeof PUBLISH_ERROR_KINDS)[number];

const tags = z.preprocess((v) => (Array.isArray(v) ? normalizeTags(v) : v), z.array(z.string().max(100)).max(100));
const title = z
  .string({ error: PM.titleRequired })
  .trim()
  .min(1, PM.titleRequired)
  .max(TITLE_MAX, PM.titleTooLong)
  .refine((s) => !/[<>]/.test(s), PM.noAngleBrackets);
const description = z
  .string()
  .max(DESCRIPTION_MAX, PM.descriptionTooLong)
  .refine((s) => !/[<>]/.test(s), PM.noAngleBrackets)
  .default('');
/** A date: an instant in the contract's years (src/contract/dates.ts), stored in UTC. */
const instant = instantField();
const flag = z.boolean().default(false);

/**
 * The scheduling horizon (PUBLISH_HORIZON_DAYS on the server): a publication date may lie at most this many days
 * ahead of now. Past dates publish at once, as before. The server's body schema and the publish form's resolver
 * are the same schema with the same horizon (GET /api/upload-video/rules), so the form says it as it is typed.
 */
export const PUBLISH_HORIZON_DAYS_DEFAULT = 365;
const DAY_MS = 24 * 3600 * 1000;
export type PublishHorizon = { days: number; now: () => number };

/** The last instant (epoch ms) a date may name `days` ahead of `nowMs`. */
export const horizonEnd = (days: number, nowMs: number) => nowMs + days * DAY_MS;

/** The beyond-the-horizon message (a stored message: key and the horizon in days). */
export const beyondHorizon = (days: number) => encodeMessage(PM.beyondHorizon, { days });

/** A publication date: an instant in the contract's years and, with a horizon, not beyond it. */
const publishDate = (horizon?: PublishHorizon) =>
  horizon
    ? instant.refine((d) => Date.parse(d) <= horizonEnd(horizon.days, horizon.now()), beyondHorizon(horizon.days))
    : instant;

/**
 * A video's own title/caption per platform (src/contract/platform-posts.ts VideoPostsSchema): over the publication's
 * platform text (`posts`), which is over the video's shared fields. Absent in an edit = as saved.
 */
const videoPostsField = VideoPostsSchema.optional().describe(
  "Per platform, this video's own title/caption (empty = the publication's platform text, then the video's fields)",
);

/** One video of the publish form's right side (SPEC §2): its own title, description, tags, profile and date. */
export const publishVideoInputSchema = (horizon?: PublishHorizon) =>
  z.object({
    id: z.number().int().positive(),
    title,
    description,
    tags: tags.refine((t) => t.length > 0, PM.minOneTag),
    account: z.number({ error: PM.minOneAccount }).int().positive(PM.minOneAccount),
    date: publishDate(horizon),
    allowRepeat: z
      .boolean()
      .optional()
      .describe(
        'Post it even when the same rendered file is already live on this profile and platform (issue 21 item 5)',
      ),
    posts: videoPostsField,
  });
export const PublishVideoInputSchema = publishVideoInputSchema();
export type PublishVideoInput = z.infer<typeof PublishVideoInputSchema>;

/**
 * The platforms chosen for one profile (the publish form's per-profile choice). A profile named here publishes to
 * exactly these (its videos' rows); a profile not named takes the publication's toggles (SPEC's inYouTube,
 * inTikTok, inInstagram), so a body without `profiles` means what it always meant.
 */
const profilePlatformsSchema = (known: readonly PlatformKey[] = PLATFORMS) =>
  z.object({
    account: z.number().int().positive(),
    platforms: z.array(platformIn(known)).max(known.length),
  });
export const ProfilePlatformsSchema = profilePlatformsSchema();
export type ProfilePlatforms = z.infer<typeof ProfilePlatformsSchema>;

/** The platforms a form chooses: SPEC's three toggles, and per profile (`profiles`) where the form says. */
export type Choice = {
  inYouTube: boolean;
  inTikTok: boolean;
  inInstagram: boolean;
  profiles?: ProfilePlatforms[] | undefined;
};

/** Why a chosen profile × platform is left out: the profile is not connected to that platform. */
export const SKIP_REASONS = ['not_connected'] as const;
export const PublishSkipSchema = z.object({
  video: z.number().int().describe('The video id (an AI video: its AI video id)'),
  account: z.number().int(),
  platform: platformOut,
  reason: z.enum(SKIP_REASONS),
});
export type PublishSkip = z.infer<typeof PublishSkipSchema>;

/** The platforms per profile, as the publish form and the publication edit send them (each one of `known`). */
const profilesField = (known?: readonly PlatformKey[]) =>
  z
    .array(profilePlatformsSchema(known))
    .max(1000)
    .optional()
    .describe('Per profile, the platforms its videos go to (a profile not named takes the toggles)');

/** Each platform's own title/caption and options (src/contract/platform-posts.ts); absent = as before. */
const postsField = PlatformPostsSchema.optional().describe("Per platform, the post's own text and options");

/** SPEC §5 "at least one platform": a toggle, or a platform chosen for some profile. */
const somePlatform = (p: Choice) =>
  p.inYouTube || p.inTikTok || p.inInstagram || !!p.profiles?.some((x) => x.platforms.length);

/**
 * POST /api/upload-video/{idUpload}: SPEC §5 publish form. The shared title/description/tags/date are the
 * defaults the form copies into each video; the server publishes what each video says. Every date within
 * `horizon` when one is given (the server's route and the form give the configured one).
 */
export const publicationCreateSchema = (horizon?: PublishHorizon, known?: readonly PlatformKey[]) =>
  z
    .object({
      title,
      description,
      tags: tags.refine((t) => t.length > 0, PM.minOneTag),
      accounts: z.array(z.number().int().positive()).min(1, PM.minOneAccount),
      video: z.array(publishVideoInputSchema(horizon)).min(1, PM.minOneVideo),
      inYouTube: flag,
      inTikTok: flag,
      inInstagram: flag,
      date: publishDate(horizon),
      profiles: profilesField(known),
      posts: postsField,
      queue: z
        .boolean()
        .optional()
        .describe("Add to queue: each post at its profile's next free posting slot (the dates are not used)"),
    })
    .refine(somePlatform, { path: ['inYouTube'], message: PM.minOnePlatform });
export const PublicationCreateSchema = publicationCreateSchema();
export type PublicationCreate = z.input<typeof PublicationCreateSchema>;

/** The platforms a profile's videos are meant for: its own choice, else the publication's toggles. */
export function chosenPlatforms(body: Choice, account: number): PlatformKey[] {
  const own = body.profiles?.find((p) => p.account === account);
  if (own) return inListOrder(own.platforms);
  return toggledPlatforms(body);
}

/** The platforms the spec's toggles (inYouTube, inTikTok, inInstagram) turn on. */
export function toggledPlatforms(t: { inYouTube?: boolean; inTikTok?: boolean; inInstagram?: boolean }): PlatformKey[] {
  const on = { youtube: t.inYouTube, tiktok: t.inTikTok, instagram: t.inInstagram };
  return SPEC_PLATFORMS.filter((k) => on[k]);
}

/**
 * What a publish form will do, the same rule on the panel (before saving) and the server: each video goes to its
 * profile's chosen platforms that the profile is connected to; a chosen one it is not connected to is skipped
 * and said, never a refusal of the whole form. `connected(account)` undefined = not known yet (nothing skipped).
 */
export function publishPlan(
  videos: readonly { id: number; account: number | null }[],
  body: Choice,
  connected: (account: number) => readonly PlatformKey[] | undefined,
): { publish: Map<number, PlatformKey[]>; skipped: PublishSkip[] } {
  const publish = new Map<number, PlatformKey[]>();
  const skipped: PublishSkip[] = [];
  for (const v of videos) {
    if (!v.account) continue;
    const on = connected(v.account);
    const chosen = chosenPlatforms(body, v.account);
    publish.set(
      v.id,
      chosen.filter((p) => !on || on.includes(p)),
    );
    for (const platform of chosen)
      if (on && !on.includes(platform))
        skipped.push({ video: v.id, account: v.account, platform, reason: 'not_connected' });
  }
  return { publish, skipped };
}

/** GET /api/upload-video/rules: the rules of a publication date the publish form checks as it is typed. */
export const PublishRulesSchema = z.object({
  horizonDays: z.number().int().describe('PUBLISH_HORIZON_DAYS: how many days ahead a date may lie'),
});
export type PublishRules = z.infer<typeof PublishRulesSchema>;

/**
 * PATCH /api/upload-video/{id}: SPEC §5 publication edit (title required, tags at least 1), with the platforms per
 * profile as the publish form chooses them (the same plan: what a profile is not connected to is skipped).
 */
export const publicationPatchSchema = (known?: readonly PlatformKey[]) =>
  z
    .object({
      title,
      description,
      tags: tags.refine((t) => t.length > 0, PM.minOneTag),
      inYouTube: flag,
      inTikTok: flag,
      inInstagram: flag,
      profiles: profilesField(known),
      posts: postsField,
      video: z
        .array(z.object({ id: z.number().int().positive(), posts: videoPostsField }))
        .max(1000)
        .optional()
        .describe(
          "Videos' own texts per platform: a video named with `posts` takes them (empty = none); one not named, or a video some platform has started, keeps its own",
        ),
    })
    .refine(somePlatform, { path: ['inYouTube'], message: PM.minOnePlatform });
export const PublicationPatchSchema = publicationPatchSchema();
export type PublicationPatch = z.input<typeof PublicationPatchSchema>;

/** POST /api/upload-video/upload: publish one video again (status error or loading). */
export const PublishOneSchema = z.object({
  videoId: z.number().int().positive(),
  youTubeId: z.number().int().positive().describe('The publication id'),
});

/**
 * Why a post past its time is trying again (issue 18 item 2): a passing fault (the worker backs off and looks
 * again), a quota or rate limit (it waits for the window), or the public step's outcome being asked of the
 * platform (reconcile). A retrying post is not "scheduled": the panel says so with the attempt and the next try.
 */
export const RETRY_REASONS = ['fault', 'quota', 'reconcile'] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

export const PostRetrySchema = z.object({
  reason: z.enum(RETRY_REASONS),
  /** Failed tries in a row so far; the next try is number attempt + 1. */
  attempt: z.number().int(),
  /** When the worker looks again (null: as soon as a worker is free). */
  nextTryAt: z.string().nullable(),
});
export type PostRetry = z.infer<typeof PostRetrySchema>;

/** POST /api/upload-video/video/{videoId}/{platform}/{action}: what can be done to one post (a video on one platform). */
export const POST_ACTIONS = ['retry', 'cancel', 'stats'] as const;
export type PostAction = (typeof POST_ACTIONS)[number];

/** The refusals of a post action. */
export const POST_ACTION_MESSAGES = {
  notRetrying: 'kadr.posts.errors.not_retrying',
  alreadyTrying: 'kadr.posts.errors.already_trying',
  notCancellable: 'kadr.posts.errors.not_cancellable',
  notPublished: 'kadr.posts.errors.stats_not_published',
  statsCooldown: 'kadr.posts.errors.stats_cooldown',
  statsQuota: 'kadr.posts.errors.stats_quota',
} as const;

/** How often one post's stats may be read on demand (the platforms' quotas are per app and per day). */
export const STATS_REFRESH_COOLDOWN_MS = 5 * 60_000;

/** A video's state on one platform, for the detail page and the live progress. */
export const PlatformPublishSchema = z.object({
  platform: platformOut,
  state: z.enum(PUBLISH_STATES),
  /** Bytes the platform has acknowledged, of the file's size (upload percent). */
  bytesSent: z.number(),
  bytesTotal: z.number(),
  url: z.string().nullable(),
  /** A readable reason: a stored i18n message (src/contract/stored-message.ts) the panel translates. */
  error: z.string().nullable(),
  errorKind: z.enum(PUBLISH_ERROR_KINDS).nullable(),
  /** While waiting for a quota or rate limit: until when. */
  waitUntil: z.string().nullable(),
  views: z.number(),
  likes: z.number(),
  comments: z.number(),
  /** Retrying past its time (faults with backoff, a quota wait, reconciling), else null. */
  retry: PostRetrySchema.nullable(),
  /** When views, likes and comments were last read (null: never). */
  statsAt: z.string().nullable(),
  /** When an on-demand stats read is allowed again (null: now). */
  statsRefreshAt: z.string().nullable(),
});
export type PlatformPublish = z.infer<typeof PlatformPublishSchema>;

/** SPEC §3 Video item, as the publication detail lists it, with its state per platform and a player link. */
export const PublicationVideoSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  account: z
    .object({
      id: z.number().int(),
      name: z.string(),
      /** The profile's IANA zone its dates are shown in (issue 21 item 2); 'UTC' for a profile without one. */
      timeZone: z.string().describe("The profile's IANA time zone ('UTC' when it has none)"),
      ...profileIdentityFields,
    })
    .nullable(),
  date: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  status: z.enum(VIDEO_STATUSES),
  urlYouTube: z.string().nullable(),
  urlInstagram: z.string().nullable(),
  urlTikTok: z.string().nullable(),
  error: z.string().nullable(),
  errorInstagram: z.string().nullable(),
  errorTikTok: z.string().nullable(),
  /** A signed, expiring link to the rendered file (plays and seeks with Range). */
  mediaUrl: z.string().nullable(),
  /** Retention removed the rendered file (docs/retention.md): the panel says so; it cannot be published. */
  mediaRemoved: z.boolean().optional(),
  platforms: z.array(PlatformPublishSchema),
  /** Its own title/caption per platform (issue 21 item 6), as saved; {} = the publication's platform texts. */
  posts: VideoPostsSchema,
  /** One of its platforms is retrying past its time (the lists show "retrying", not "scheduled"). */
  retrying: z.boolean(),
});
export type PublicationVideo = z.infer<typeof PublicationVideoSchema>;

/** SPEC §3 YouTube item: a row of GET /api/upload-video?page. */
export const YouTubeItemSchema = z.object({
  id: z.number().int(),
  idUpload: z.string(),
  title: z.string().nullable(),
  status: z.enum(VIDEO_STATUSES),
  user: OwnerSchema,
  createdAt: z.string(),
  /** One of its posts is retrying past its time. */
  retrying: z.boolean(),
  /** Issue 18 item 6: the earliest planned date of its videos (null when none is planned). */
  date: z.string().nullable(),
  /** The platforms it goes to. */
  platforms: z.array(platformOut),
  /** Its videos' profiles, each once, in video order. */
  accounts: z.array(z.object({ id: z.number().int(), ...profileIdentityFields })),
});
export type YouTubeItem = z.infer<typeof YouTubeItemSchema>;

/** SPEC §3 Publication (request detail): GET /api/upload-video/{id}. */
export const PublicationSchema = z
  .object({
    id: z.number().int(),
    idUpload: z.string(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    inYouTube: z.boolean(),
    inTikTok: z.boolean(),
    inInstagram: z.boolean(),
    status: z.enum(VIDEO_STATUSES),
    version: z.number().int(),
    user: OwnerSchema,
    video: z.array(PublicationVideoSchema),
    /** Each platform's own text and options, as saved (issue 21 item 6). */
    posts: PlatformPostsSchema.optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Publication' });
export type Publication = z.infer<typeof PublicationSchema>;

/**
 * POST /api/upload-video/{idUpload}'s and PATCH /api/upload-video/{id}'s answer: the publication and what it left
 * out (a profile × platform the profile is not connected to; on creating, a video none of whose platforms could
 * take it stays out of the publication; on editing, its pending posts are cancelled).
 */
export const PublicationCreatedSchema = PublicationSchema.extend({ skipped: z.array(PublishSkipSchema) });

/** POST /api/upload-video/ai/{id}: an AI video published through the publish form. */
export const AiPublishedSchema = z.object({
  id: z.number().int().describe('The publication id'),
  videoId: z.number().int().describe('The video row the AI video is published as'),
  skipped: z.array(PublishSkipSchema),
});

/**
 * GET /api/upload-video/form/{idUpload} and /form/ai/{id}: what the publish form starts from. A finished
 * request's rendered outputs, or one AI video with its title, description, tags and its session's profile;
 * `publicationId` names the publication when it was already sent (the form opens that instead).
 */
export const PublishSourceSchema = z.object({
  kind: z.enum(['request', 'ai']),
  id: z.number().int().describe("The request's id, or the AI video's id"),
  ready: z.boolean().describe('Finished and publishable'),
  publicationId: z.number().int().nullable(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  account: z.number().int().nullable().describe("The AI session's profile (null for a request)"),
  video: z.array(
    z.object({
      id: z.number().int().describe('The video id (an AI video: its AI video id)'),
      index: z.number().int().describe("The request's output number, from 0"),
      url: z.string().nullable(),
    }),
  ),
});
export type PublishSource = z.infer<typeof PublishSourceSchema>;

/** GET /api/upload-video/connections?accounts=1,2: the platforms each of the caller's profiles is connected to. */
export const ProfileConnectionsSchema = z.array(
  z.object({ account: z.number().int(), connected: z.array(platformOut) }),
);
export type ProfileConnections = z.infer<typeof ProfileConnectionsSchema>;

/**
 * A failure Kadr's own pre-upload check gave (the file does not fit the platform, or it is missing or unreadable):
 * publishing the same file again can only fail the same way, so "Publish" is not offered for it.
 */
export function refusedByCheck(p: Pick<PlatformPublish, 'state' | 'error'>): boolean {
  if (p.state !== 'failed' || !p.error) return false;
  const key = p.error.split(' ', 1)[0]!;
  return (
    /^kadr\.platform_errors\.(youtube|tiktok|instagram)_file_/.test(key) ||
    key === 'kadr.publish.file_missing' ||
    key === 'kadr.publish.file_unreadable'
  );
}

/** The publication's status from its videos': error if any failed, loading while any is on its way, else. */
export function publicationStatus(
  videoStatuses: readonly (typeof VIDEO_STATUSES)[number][],
): (typeof VIDEO_STATUSES)[number] {
  if (videoStatuses.length === 0) return 'noactive';
  if (videoStatuses.includes('error')) return 'error';
  if (videoStatuses.includes('loading')) return 'loading';
  if (videoStatuses.includes('publication')) return 'publication';
  if (videoStatuses.every((s) => s === 'success')) return 'success';
  return 'noactive';
}

/** A video's SPEC status from its platform states: what the list badges show. */
export function videoStatusOf(states: readonly PublishState[]): (typeof VIDEO_STATUSES)[number] {
  const live = states.filter((s) => s !== 'cancelled');
  if (live.length === 0) return 'noactive';
  if (live.includes('failed')) return 'error';
  if (live.every((s) => s === 'published')) return 'success';
  if (live.some((s) => s === 'uploading' || s === 'processing' || s === 'publishing' || s === 'reconcile'))
    return 'loading';
  return 'publication';
}

/** States in which a post is done: nothing will happen to it without the operator. */
export const DONE_STATES: readonly PublishState[] = ['published', 'failed', 'cancelled'];

/**
 * Whether a post is retrying (see RETRY_REASONS): not done, and it met a fault (attempt above 0), waits for a
 * quota or rate limit, or is asking the platform about its public step. The lists' SQL says the same
 * (publications.repository.ts retryingVideos).
 */
export function isRetrying(r: { state: PublishState; attempt: number; waitUntil: string | null }): boolean {
  if (DONE_STATES.includes(r.state) || r.state === 'awaiting_approval') return false;
  return r.attempt > 0 || r.state === 'waiting' || r.state === 'reconcile' || r.waitUntil !== null;
}

/** The panel's badge for a video or publication: "retrying" in place of scheduled or in progress, never of an outcome. */
export function shownStatus(status: (typeof VIDEO_STATUSES)[number], retrying: boolean): string {
  return retrying && (status === 'publication' || status === 'loading') ? 'retrying' : status;
}
