import { z } from 'zod';
import { ACCOUNT_STATUSES, VIDEO_STATUSES } from './statuses';
import { OwnerSchema } from './http';
import { M } from './messages';
import { PLATFORMS } from './platforms';
import { isValidProxy } from './proxy';
import { ProfileHandleSchema } from './profile-identity';
import { isTimeZone, TZM } from './time-zones';

/** Kept for importers of the profile contract; the list itself lives in ./platforms. */
export type { PlatformKey } from './platforms';

/** Validation messages of the profile forms (i18n keys, SPEC §5 strings in i18n/uk.ts). */
export const AM = {
  proxyRequired: 'kadr.validation.proxy_required',
  proxyInvalid: 'kadr.validation.proxy_invalid',
  clientIdRequired: 'kadr.validation.client_id_required',
  clientSecretRequired: 'kadr.validation.client_secret_required',
  instagramLoginRequired: 'kadr.validation.instagram_login_required',
  instagramPasswordRequired: 'kadr.validation.instagram_password_required',
  nameRequired: 'kadr.validation.name_required',
  descriptionRequired: 'kadr.validation.description_required',
  descriptionNoAngleBrackets: 'kadr.validation.description_no_angle_brackets',
  tooLong: 'kadr.validation.too_long',
} as const;

export const IP_VERSIONS = ['ipv4', 'ipv6'] as const;
export type IpVersion = (typeof IP_VERSIONS)[number];

/** Optional text: trimmed; empty becomes null. */
const text = (max = 500) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : typeof v === 'number' ? String(v) : (v ?? null)),
      z.string().max(max, AM.tooLong).nullable(),
    )
    .optional();
const flag = () =>
  z.preprocess(
    (v) =>
      v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' || v == null ? false : v,
    z.boolean(),
  );

const blank = (v: unknown) => v == null || (typeof v === 'string' && !v.trim());

/** SPEC §5 account form, used by the panel (zodResolver) and the API (create, and update after merging). */
export const AccountFormSchema = z
  .object({
    // Checked in superRefine so that every field's message shows at once (zod skips refinements after a failed field).
    proxy: z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string()),
    ipVersion: z.preprocess((v) => (v == null || v === '' ? 'ipv4' : v), z.enum(IP_VERSIONS)),
    comments: text(1000),
    inYouTube: flag(),
    inTikTok: flag(),
    inInstagram: flag(),
    inGPT: flag(),
    YouTubeAuthClientId: text(),
    YouTubeAuthClientSecret: text(),
    YouTubeLogin: text(),
    YouTubePassword: text(),
    InstagramLogin: text(),
    InstagramPassword: text(),
    InstagramTwofaCode: text(),
    emailGPT: text(),
    passwordGPT: text(),
    passwordDeepSeek: text(),
    proxyGPT: text(),
    /** Issue 21: the profile's IANA time zone (empty: UTC on the server, and read back as UTC; a new profile's form offers the operator's). */
    timeZone: z
      .preprocess((v) => (typeof v === 'string' ? v.trim() || null : (v ?? null)), z.string().nullable())
      .refine((v) => v === null || isTimeZone(v), TZM.invalid)
      .optional()
      .meta({ description: 'An IANA time zone', example: 'Europe/Kyiv' }),
  })
  .superRefine(
    (v, ctx) => {
      const need = (ok: boolean, path: string, message: string) => {
        if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
      };
      if (!v.proxy) need(false, 'proxy', AM.proxyRequired);
      else if (v.proxy.length > 500) need(false, 'proxy', AM.tooLong);
      else need(isValidProxy(v.proxy), 'proxy', AM.proxyInvalid);
      if (v.inYouTube) {
        need(!blank(v.YouTubeAuthClientId), 'YouTubeAuthClientId', AM.clientIdRequired);
        need(!blank(v.YouTubeAuthClientSecret), 'YouTubeAuthClientSecret', AM.clientSecretRequired);
      }
      if (v.inInstagram) {
        need(!blank(v.InstagramLogin), 'InstagramLogin', AM.instagramLoginRequired);
        need(!blank(v.InstagramPassword), 'InstagramPassword', AM.instagramPasswordRequired);
      }
    },
    { when: (p) => typeof p.value === 'object' && p.value !== null },
  );
export type AccountForm = z.infer<typeof AccountFormSchema>;
export const ACCOUNT_FORM_FIELDS = Object.keys(AccountFormSchema.shape ?? {}) as (keyof AccountForm)[];

/** SPEC §5 YouTube panel: description required (YouTube allows up to 1000 characters, and no < or >). */
export const ChannelDescriptionSchema = z.object({
  description: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : ''),
    z
      .string()
      .min(1, AM.descriptionRequired)
      .max(1000, AM.tooLong)
      .refine((s) => !/[<>]/.test(s), AM.descriptionNoAngleBrackets),
  ),
});

/** SPEC §5 Instagram panel: a name or a description; when both are empty, both fields say so. */
export const InstagramProfileSchema = z
  .object({
    profileName: z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string().max(100, AM.tooLong)),
    profileDescription: z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string().max(150, AM.tooLong)),
  })
  .superRefine((v, ctx) => {
    if (!v.profileName && !v.profileDescription) {
      ctx.addIssue({ code: 'custom', path: ['profileName'], message: AM.nameRequired });
      ctx.addIssue({ code: 'custom', path: ['profileDescription'], message: AM.descriptionRequired });
    }
  });

/** PATCH /api/accounts/gpt/{id}: the AI service's session id (null clears it). */
export const GptIdSchema = z.object({
  idGPT: z.preprocess((v) => (v === '' || v == null ? null : String(v)), z.string().max(100, AM.tooLong).nullable()),
});

/** `?platform=`: an unknown one is a 400 naming the field. */
export const PlatformQuerySchema = z.object({ platform: z.enum(PLATFORMS, { error: M.invalidValue }) });

/** What a platform sends back to the OAuth callback (other parameters are ignored; repeated ones are not read). */
const callbackParam = z
  .unknown()
  .optional()
  .meta({ type: 'string' })
  .transform((v) => {
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === 'string' ? first : undefined;
  });
export const OAuthCallbackQuerySchema = z.object({
  state: callbackParam.describe('The signed state of the link'),
  code: callbackParam.describe('The one-time authorization code'),
  error: callbackParam.describe("The platform's refusal, when the user declined"),
  error_description: callbackParam,
  error_reason: callbackParam,
});

const str = z.string().nullable();
const flagOut = z.boolean();
const platformMap = <T extends z.ZodType>(v: T) => z.object({ youtube: v, tiktok: v, instagram: v });

/** A row of GET /api/accounts (the list carries no secrets). */
export const AccountListItemSchema = z.object({
  id: z.number().int(),
  name: z.string().meta({ description: "The profile's title: channel, Instagram or TikTok name, comment, else #id" }),
  comments: str,
  user: OwnerSchema,
  group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  idGPT: str,
  isActiveYouTube: flagOut,
  isActiveTikTok: flagOut,
  isActiveInstagram: flagOut,
  isActiveGPT: flagOut,
  inYouTube: flagOut,
  inTikTok: flagOut,
  inInstagram: flagOut,
  inGPT: flagOut,
  titleChannel: str,
  profileNameInstagram: str,
  titleTikTok: str,
  /** Issue 18: the connected platforms' names, @handles and avatars (the panel names a profile by them). */
  handles: z.array(ProfileHandleSchema),
  error: str,
  /** Per platform: why it fails (a lost grant), null when fine; the list shows it under the status. */
  platformErrors: platformMap(str),
  createdAt: z.string(),
});

export type AccountListItem = z.infer<typeof AccountListItemSchema>;

/** SPEC §3 Account as the API returns it (secrets only to the owner or an admin; tokens never). */
export const AccountRecordSchema = z
  .object({
    id: z.number().int(),
    comments: str,
    proxy: str,
    ipVersion: z.enum(IP_VERSIONS),
    group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    user: OwnerSchema,
    status: z.enum(ACCOUNT_STATUSES),
    idGPT: str,
    isActiveYouTube: flagOut,
    isActiveTikTok: flagOut,
    isActiveInstagram: flagOut,
    isActiveGPT: flagOut,
    inYouTube: flagOut,
    inTikTok: flagOut,
    inInstagram: flagOut,
    inGPT: flagOut,
    YouTubeAuthClientId: str,
    YouTubeAuthClientSecret: str,
    YouTubeLogin: str,
    YouTubePassword: str,
    InstagramLogin: str,
    InstagramPassword: str,
    InstagramTwofaCode: str,
    description: str,
    titleChannel: str,
    urlChannel: str,
    profileNameInstagram: str,
    profileDescriptionInstagram: str,
    urlInstagram: str,
    titleTikTok: str,
    descriptionTikTok: str,
    urlTikTok: str,
    emailGPT: str,
    passwordGPT: str,
    passwordDeepSeek: str,
    proxyGPT: str,
    timeZone: str.describe("The IANA time zone the profile's dates are planned in (UTC when none was chosen)"),
    /** The latest readable error (proxy, reconnect needed, …); shown as a toast when the profile opens. */
    error: str.describe('The latest readable error (an i18n key or text)'),
    /** Per platform: why it needs reconnecting (null when fine). */
    platformErrors: platformMap(str),
    /** What the official APIs allow (drivers' capability flags). */
    capabilities: platformMap(z.object({ updateProfileName: z.boolean(), updateDescription: z.boolean() })),
    createdAt: z.string(),
    updatedAt: str,
  })
  .meta({ id: 'Account', description: 'A profile. Secrets only to its owner or an admin; platform tokens never.' });
export type AccountRecord = z.infer<typeof AccountRecordSchema>;

/** PATCH /api/accounts/update-profile-inst/{id}: the profile plus a notice (kept in Kadr only). */
export const AccountWithNoticeSchema = AccountRecordSchema.extend({ notice: z.string() });

/** PATCH /api/accounts/{id}: any subset of the form; validated whole after merging over the stored profile. */
export const AccountPatchSchema = z.object(AccountFormSchema.shape).partial();

/** DELETE /api/accounts/{id}: the profile's videos are kept, detached. */
export const AccountDeletedSchema = z.object({ id: z.number().int(), videosKept: z.boolean() });

/** The authorization link (SPEC: copied to the clipboard by the panel). */
export const AuthorizeUrlSchema = z.object({
  url: z.string().meta({ example: 'https://accounts.google.com/o/oauth2/v2/auth?…' }),
});

/** SPEC §3 Video item. */
export const AccountVideoItemSchema = z.object({
  id: z.number().int(),
  url: str,
  idUpload: str,
  createdAt: z.string(),
  account: z.object({ id: z.number().int() }).nullable(),
  date: str,
  title: str,
  description: str,
  tags: z.array(z.string()),
  status: z.enum(VIDEO_STATUSES),
  views: z.number(),
  viewsInstagram: z.number(),
  likes: z.number(),
  likesInstagram: z.number(),
  comments: z.number(),
  commentsInstagram: z.number(),
  /** SPEC §2 profile video list: each count is the main platform's (YouTube or TikTok) plus Instagram's. */
  totalViews: z.number(),
  totalLikes: z.number(),
  totalComments: z.number(),
  urlYouTube: str,
  urlInstagram: str,
  urlTikTok: str,
  error: str,
  errorInstagram: str,
  errorTikTok: str,
  /** A post of it is retrying past its time (the list says so instead of "scheduled"). */
  retrying: z.boolean(),
  /** Issue 18: a signed link to the rendered file (the list shows its frame at 0.1 s); null when none is stored. */
  mediaUrl: str,
});
export type AccountVideoItem = z.infer<typeof AccountVideoItemSchema>;
