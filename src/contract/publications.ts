import { z } from 'zod';
import { instantField } from './dates';
import { OwnerSchema } from './http';
import { PLATFORMS } from './platforms';
import { profileIdentityFields } from './profile-identity';
import { VIDEO_STATUSES } from './statuses';
import { encodeMessage } from './stored-message';
import { normalizeTags } from './tags';

/**
 * Publishing (SPEC §2 Video, §3 Publication / YouTube item / Video item, §5 publish and publication-edit rules,
 * §7 Videos). A publication belongs to one finished create-video request; each of its videos goes to one profile
 * at its own date, on each platform toggled on, as one publish job per video per platform.
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
 */
export const PUBLISH_STATES = [
  'scheduled',
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

/** One video of the publish form's right side (SPEC §2): its own title, description, tags, profile and date. */
export const publishVideoInputSchema = (horizon?: PublishHorizon) =>
  z.object({
    id: z.number().int().positive(),
    title,
    description,
    tags: tags.refine((t) => t.length > 0, PM.minOneTag),
    account: z.number({ error: PM.minOneAccount }).int().positive(PM.minOneAccount),
    date: publishDate(horizon),
  });
export const PublishVideoInputSchema = publishVideoInputSchema();
export type PublishVideoInput = z.infer<typeof PublishVideoInputSchema>;

/**
 * POST /api/upload-video/{idUpload}: SPEC §5 publish form. The shared title/description/tags/date are the
 * defaults the form copies into each video; the server publishes what each video says. Every date within
 * `horizon` when one is given (the server's route and the form give the configured one).
 */
export const publicationCreateSchema = (horizon?: PublishHorizon) =>
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
    })
    .refine((p) => p.inYouTube || p.inTikTok || p.inInstagram, { path: ['inYouTube'], message: PM.minOnePlatform });
export const PublicationCreateSchema = publicationCreateSchema();
export type PublicationCreate = z.input<typeof PublicationCreateSchema>;

/** GET /api/upload-video/rules: the rules of a publication date the publish form checks as it is typed. */
export const PublishRulesSchema = z.object({
  horizonDays: z.number().int().describe('PUBLISH_HORIZON_DAYS: how many days ahead a date may lie'),
});
export type PublishRules = z.infer<typeof PublishRulesSchema>;

/** PATCH /api/upload-video/{id}: SPEC §5 publication edit (title required, tags at least 1). */
export const PublicationPatchSchema = z
  .object({
    title,
    description,
    tags: tags.refine((t) => t.length > 0, PM.minOneTag),
    inYouTube: flag,
    inTikTok: flag,
    inInstagram: flag,
  })
  .refine((p) => p.inYouTube || p.inTikTok || p.inInstagram, { path: ['inYouTube'], message: PM.minOnePlatform });
export type PublicationPatch = z.input<typeof PublicationPatchSchema>;

/** POST /api/upload-video/upload: publish one video again (status error or loading). */
export const PublishOneSchema = z.object({
  videoId: z.number().int().positive(),
  youTubeId: z.number().int().positive().describe('The publication id'),
});

/** A video's state on one platform, for the detail page and the live progress. */
export const PlatformPublishSchema = z.object({
  platform: z.enum(PLATFORMS),
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
});
export type PlatformPublish = z.infer<typeof PlatformPublishSchema>;

/** SPEC §3 Video item, as the publication detail lists it, with its state per platform and a player link. */
export const PublicationVideoSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  account: z.object({ id: z.number().int(), name: z.string(), ...profileIdentityFields }).nullable(),
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
  platforms: z.array(PlatformPublishSchema),
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
  /** Issue 18 item 6: the earliest planned date of its videos (null when none is planned). */
  date: z.string().nullable(),
  /** The platforms it goes to. */
  platforms: z.array(z.enum(PLATFORMS)),
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
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Publication' });
export type Publication = z.infer<typeof PublicationSchema>;

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
