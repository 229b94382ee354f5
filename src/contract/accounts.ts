import { z } from 'zod';
import type { AccountStatus, VideoStatus } from './statuses';
import type { PlatformKey } from './platforms';
import { isValidProxy } from './proxy';

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
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : typeof v === 'number' ? String(v) : v ?? null), z.string().max(max, AM.tooLong).nullable()).optional();
const flag = () => z.preprocess((v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' || v == null ? false : v), z.boolean());

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
  })
  .superRefine((v, ctx) => {
    const need = (ok: boolean, path: string, message: string) => { if (!ok) ctx.addIssue({ code: 'custom', path: [path], message }); };
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
  }, { when: (p) => typeof p.value === 'object' && p.value !== null });
export type AccountForm = z.infer<typeof AccountFormSchema>;
export const ACCOUNT_FORM_FIELDS = Object.keys(AccountFormSchema.shape ?? {}) as (keyof AccountForm)[];

/** SPEC §5 YouTube panel: description required (YouTube allows up to 1000 characters, and no < or >). */
export const ChannelDescriptionSchema = z.object({
  description: z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''),
    z.string().min(1, AM.descriptionRequired).max(1000, AM.tooLong).refine((s) => !/[<>]/.test(s), AM.descriptionNoAngleBrackets)),
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

/** SPEC §3 Account as the API returns it (secrets only to the owner or an admin; tokens never). */
export interface AccountRecord {
  id: number;
  comments: string | null;
  proxy: string | null;
  ipVersion: IpVersion;
  group: { id: number; name: string } | null;
  user: { id: number; login: string };
  status: AccountStatus;
  idGPT: string | null;
  isActiveYouTube: boolean;
  isActiveTikTok: boolean;
  isActiveInstagram: boolean;
  isActiveGPT: boolean;
  inYouTube: boolean;
  inTikTok: boolean;
  inInstagram: boolean;
  inGPT: boolean;
  YouTubeAuthClientId: string | null;
  YouTubeAuthClientSecret: string | null;
  YouTubeLogin: string | null;
  YouTubePassword: string | null;
  InstagramLogin: string | null;
  InstagramPassword: string | null;
  InstagramTwofaCode: string | null;
  description: string | null;
  titleChannel: string | null;
  urlChannel: string | null;
  profileNameInstagram: string | null;
  profileDescriptionInstagram: string | null;
  urlInstagram: string | null;
  titleTikTok: string | null;
  descriptionTikTok: string | null;
  urlTikTok: string | null;
  emailGPT: string | null;
  passwordGPT: string | null;
  passwordDeepSeek: string | null;
  proxyGPT: string | null;
  /** The latest readable error (proxy, reconnect needed, …); shown as a toast when the profile opens. */
  error: string | null;
  /** Per platform: why it needs reconnecting (null when fine). */
  platformErrors: Record<PlatformKey, string | null>;
  /** What the official APIs allow (drivers' capability flags). */
  capabilities: Record<PlatformKey, { updateProfileName: boolean; updateDescription: boolean }>;
  createdAt: string;
  updatedAt: string | null;
}

/** SPEC §3 Video item. */
export interface AccountVideoItem {
  id: number;
  url: string | null;
  idUpload: string | null;
  createdAt: string;
  account: { id: number } | null;
  date: string | null;
  title: string | null;
  description: string | null;
  tags: string[];
  status: VideoStatus;
  views: number;
  viewsInstagram: number;
  likes: number;
  likesInstagram: number;
  comments: number;
  commentsInstagram: number;
  urlYouTube: string | null;
  urlInstagram: string | null;
  error: string | null;
  errorInstagram: string | null;
  errorTikTok: string | null;
}
