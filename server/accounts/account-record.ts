import type { AccountForm, AccountRecord, AccountVideoItem, IpVersion } from '../../src/contract/accounts';
import type { AccountStatus, VideoStatus } from '../../src/contract/statuses';
import { accountTitle } from '../../src/contract/groups';
import type { Sealer } from '../crypto/seal';
import type { Db } from '../db/index';
import { identityOf } from './account-identity';
import { SPEC_PLATFORMS, isSpecPlatform, type SpecPlatform } from '../../src/contract/platforms';
import { DEFAULT_TIME_ZONE } from '../../src/contract/time-zones';
import { PLATFORM_REGISTRY } from '../platforms/registry';
import type { PlatformId, PlatformProfile, TokenSet } from '../platforms/types';
import type { AccountPatch, AccountRow, AccountsRepository } from './accounts.repository';
import { COLS, statePatch } from './platform-state';

/** Capabilities the panel needs (the adapters' flags, static: reading a profile makes no platform call). */
const CAPABILITIES = Object.fromEntries(
  SPEC_PLATFORMS.map((k) => {
    const { updateProfileName, updateDescription } = PLATFORM_REGISTRY[k].capabilities;
    return [k, { updateProfileName, updateDescription }];
  }),
) as AccountRecord['capabilities'];

/** Each platform's error (SPEC §3 platformErrors). */
const platformErrors = (r: Pick<AccountRow, (typeof COLS)[SpecPlatform]['error']>) =>
  Object.fromEntries(SPEC_PLATFORMS.map((k) => [k, r[COLS[k].error]])) as Record<SpecPlatform, string | null>;

export const b = (v: number | null | undefined) => v === 1;
const i = (v: boolean | undefined) => (v ? 1 : 0);

type StatusColumns =
  | 'error'
  | 'errorYouTube'
  | 'errorTikTok'
  | 'errorInstagram'
  | 'inYouTube'
  | 'isActiveYouTube'
  | 'inTikTok'
  | 'isActiveTikTok'
  | 'inInstagram'
  | 'isActiveInstagram';

/**
 * SPEC §4 account status: error when something needs attention (the profile's error, or a platform error of a
 * platform that is toggled on), success when a toggled platform is connected.
 */
export function accountStatus(r: Pick<AccountRow, StatusColumns>): AccountStatus {
  const on = SPEC_PLATFORMS.map((k) => COLS[k]).filter((c) => b(r[c.in]));
  if (r.error || on.some((c) => r[c.error])) return 'error';
  if (on.some((c) => b(r[c.active]))) return 'success';
  return 'noactive';
}

/** Writes a patch and the status it leads to (read over the latest stored row), in `exec` when given. */
export async function saveAccount(
  repo: AccountsRepository,
  row: AccountRow,
  patch: AccountPatch,
  exec?: Db,
): Promise<void> {
  const current = (await repo.get(row.id, exec)) ?? row;
  await repo.update(row.id, { ...patch, status: accountStatus({ ...current, ...patch } as AccountRow) }, exec);
}

/** The columns the list reads (no sealed values). */
export type AccountSummaryRow = Pick<
  AccountRow,
  | 'id'
  | 'userId'
  | 'ownerLogin'
  | 'comments'
  | 'status'
  | 'idGpt'
  | 'isActiveYouTube'
  | 'isActiveTikTok'
  | 'isActiveInstagram'
  | 'isActiveGpt'
  | 'inYouTube'
  | 'inTikTok'
  | 'inInstagram'
  | 'inGpt'
  | 'titleChannel'
  | 'profileNameInstagram'
  | 'titleTikTok'
  | 'handleYouTube'
  | 'handleTikTok'
  | 'handleInstagram'
  | 'avatarYouTube'
  | 'avatarTikTok'
  | 'avatarInstagram'
  | 'error'
  | 'errorYouTube'
  | 'errorTikTok'
  | 'errorInstagram'
  | 'createdAt'
>;

/** What the list item and the full record share. */
function summaryOf(r: AccountSummaryRow) {
  return {
    id: r.id,
    comments: r.comments,
    user: { id: r.userId, login: r.ownerLogin },
    group: null,
    status: r.status as AccountStatus,
    idGPT: r.idGpt,
    isActiveYouTube: b(r.isActiveYouTube),
    isActiveTikTok: b(r.isActiveTikTok),
    isActiveInstagram: b(r.isActiveInstagram),
    isActiveGPT: b(r.isActiveGpt),
    inYouTube: b(r.inYouTube),
    inTikTok: b(r.inTikTok),
    inInstagram: b(r.inInstagram),
    inGPT: b(r.inGpt),
    titleChannel: r.titleChannel,
    profileNameInstagram: r.profileNameInstagram,
    titleTikTok: r.titleTikTok,
    error: r.error,
    createdAt: r.createdAt,
  };
}

/**
 * The one mapping between profile rows and what the API shows or takes: list items, SPEC §3 records (secrets
 * opened for the owner; tokens never leave), the stored form for merging a PATCH, and form → columns (sealed).
 */
export class AccountMapper {
  constructor(private sealer: Sealer) {}

  listItem(r: AccountSummaryRow) {
    return {
      ...summaryOf(r),
      name: accountTitle(r),
      handles: identityOf(r).handles,
      platformErrors: platformErrors(r),
    };
  }

  /** SPEC §3 Account. Only the owner or an admin gets here (the service checks); tokens never leave. */
  record(r: AccountRow): AccountRecord {
    const o = (v: string | null) => this.sealer.openOpt(v);
    return {
      ...summaryOf(r),
      proxy: o(r.proxySealed),
      ipVersion: (r.ipVersion as IpVersion) ?? 'ipv4',
      YouTubeAuthClientId: r.youTubeAuthClientId,
      YouTubeAuthClientSecret: o(r.youTubeAuthClientSecretSealed),
      YouTubeLogin: r.youTubeLogin,
      YouTubePassword: o(r.youTubePasswordSealed),
      InstagramLogin: r.instagramLogin,
      InstagramPassword: o(r.instagramPasswordSealed),
      InstagramTwofaCode: o(r.instagramTwofaCodeSealed),
      description: r.description,
      urlChannel: r.urlChannel,
      profileDescriptionInstagram: r.profileDescriptionInstagram,
      urlInstagram: r.urlInstagram,
      descriptionTikTok: r.descriptionTikTok,
      urlTikTok: r.urlTikTok,
      emailGPT: r.emailGpt,
      passwordGPT: o(r.passwordGptSealed),
      passwordDeepSeek: o(r.passwordDeepSeekSealed),
      proxyGPT: o(r.proxyGptSealed),
      // The zone its dates are planned in: a profile that never chose one is planned in UTC (035), and says so.
      timeZone: r.timeZone ?? DEFAULT_TIME_ZONE,
      platformErrors: platformErrors(r),
      capabilities: CAPABILITIES,
      updatedAt: r.updatedAt,
    };
  }

  /** The stored proxy, opened. */
  proxy(r: AccountRow): string | null {
    return this.sealer.openOpt(r.proxySealed);
  }

  /**
   * The profile's own OAuth client and the login it signs in (SPEC §3: YouTubeAuthClientId / Secret and
   * YouTubeLogin), for a platform whose adapter signs in with the profile's own client.
   */
  ownClient(r: AccountRow): { clientId: string | null; clientSecret: string | null; login: string | null } {
    return {
      clientId: r.youTubeAuthClientId,
      clientSecret: this.sealer.openOpt(r.youTubeAuthClientSecretSealed),
      login: r.youTubeLogin,
    };
  }

  /** The stored form (secrets opened) for merging a PATCH. */
  form(r: AccountRow): Record<string, unknown> {
    const o = (v: string | null) => this.sealer.openOpt(v);
    return {
      proxy: o(r.proxySealed) ?? '',
      ipVersion: r.ipVersion,
      comments: r.comments,
      inYouTube: b(r.inYouTube),
      inTikTok: b(r.inTikTok),
      inInstagram: b(r.inInstagram),
      inGPT: b(r.inGpt),
      YouTubeAuthClientId: r.youTubeAuthClientId,
      YouTubeAuthClientSecret: o(r.youTubeAuthClientSecretSealed),
      YouTubeLogin: r.youTubeLogin,
      YouTubePassword: o(r.youTubePasswordSealed),
      InstagramLogin: r.instagramLogin,
      InstagramPassword: o(r.instagramPasswordSealed),
      InstagramTwofaCode: o(r.instagramTwofaCodeSealed),
      emailGPT: r.emailGpt,
      passwordGPT: o(r.passwordGptSealed),
      passwordDeepSeek: o(r.passwordDeepSeekSealed),
      proxyGPT: o(r.proxyGptSealed),
      timeZone: r.timeZone,
    };
  }

  /** A validated form as columns, secrets sealed. */
  columns(f: AccountForm) {
    const s = (v: string | null | undefined) => this.sealer.sealOpt(v ?? null);
    return {
      proxySealed: s(f.proxy),
      ipVersion: f.ipVersion,
      comments: f.comments ?? null,
      inYouTube: i(f.inYouTube),
      inTikTok: i(f.inTikTok),
      inInstagram: i(f.inInstagram),
      inGpt: i(f.inGPT),
      youTubeAuthClientId: f.YouTubeAuthClientId ?? null,
      youTubeAuthClientSecretSealed: s(f.YouTubeAuthClientSecret),
      youTubeLogin: f.YouTubeLogin ?? null,
      youTubePasswordSealed: s(f.YouTubePassword),
      instagramLogin: f.InstagramLogin ?? null,
      instagramPasswordSealed: s(f.InstagramPassword),
      instagramTwofaCodeSealed: s(f.InstagramTwofaCode),
      emailGpt: f.emailGPT ?? null,
      passwordGptSealed: s(f.passwordGPT),
      passwordDeepSeekSealed: s(f.passwordDeepSeek),
      proxyGptSealed: s(f.proxyGPT),
      timeZone: f.timeZone ?? null,
    };
  }

  /** The platform's sealed token set, opened. */
  tokens(sealed: string): TokenSet {
    const t = JSON.parse(this.sealer.open(sealed));
    return {
      ...t,
      expiresAt: new Date(t.expiresAt),
      refreshExpiresAt: t.refreshExpiresAt ? new Date(t.refreshExpiresAt) : null,
    };
  }

  sealTokens(t: TokenSet): string {
    return this.sealer.seal(JSON.stringify(t));
  }
}

/** A platform profile (name, description, link) as the platform's columns. */
export function profileColumns(platform: PlatformId, p: PlatformProfile): AccountPatch {
  const identity = statePatch(platform, { handle: p.username?.replace(/^@/, '') || null, avatar: p.avatarUrl || null });
  // The name, description and link are the spec's columns of its platforms; another platform keeps its handle.
  if (!isSpecPlatform(platform)) return identity;
  const c = COLS[platform];
  return {
    [c.title]: p.title,
    [c.description]: p.description,
    [c.url]: p.url,
    ...identity,
  };
}

type VideoRow = Awaited<ReturnType<AccountsRepository['videos']>>['data'][number];

/** A row of the profile's video list. */
export function toVideoItem(r: VideoRow, mediaUrl: (key: string) => string | null = () => null): AccountVideoItem {
  let tags: string[] = [];
  if (r.tags) {
    try {
      const v = JSON.parse(r.tags);
      tags = Array.isArray(v) ? v.map(String) : [];
    } catch {
      tags = r.tags
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }
  }
  const n = (v: number | null) => Number(v ?? 0);
  return {
    id: r.id,
    url: r.url,
    idUpload: r.idUpload,
    createdAt: r.createdAt,
    account: r.accountId ? { id: r.accountId } : null,
    date: r.date,
    title: r.title,
    description: r.description,
    tags,
    status: r.status as VideoStatus,
    views: Number(r.views ?? 0),
    viewsInstagram: Number(r.viewsInstagram ?? 0),
    likes: Number(r.likes ?? 0),
    likesInstagram: Number(r.likesInstagram ?? 0),
    comments: Number(r.comments ?? 0),
    commentsInstagram: Number(r.commentsInstagram ?? 0),
    totalViews: n(r.views) + n(r.viewsInstagram),
    totalLikes: n(r.likes) + n(r.likesInstagram),
    totalComments: n(r.comments) + n(r.commentsInstagram),
    urlYouTube: r.urlYouTube,
    urlInstagram: r.urlInstagram,
    urlTikTok: r.urlTikTok,
    error: r.error,
    errorInstagram: r.errorInstagram,
    errorTikTok: r.errorTikTok,
    retrying: Boolean(Number(r.retrying)),
    mediaUrl: r.storageKey ? mediaUrl(r.storageKey) : null,
  };
}
