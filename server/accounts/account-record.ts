import type { AccountForm, AccountRecord, AccountVideoItem, IpVersion, PlatformKey } from '../../src/contract/accounts';
import type { AccountStatus, VideoStatus } from '../../src/contract/statuses';
import { accountTitle } from '../../src/contract/groups';
import type { Sealer } from '../crypto/seal';
import { identityOf } from './account-identity';
import type { PlatformProfile, TokenSet } from '../platforms/types';
import type { AccountPatch, AccountRow, AccountsRepository } from './accounts.repository';

/** Column names per platform (DB side). */
export const COLS = {
  youtube: { active: 'isActiveYouTube', in: 'inYouTube', error: 'errorYouTube', tokens: 'tokensYouTubeSealed' },
  tiktok: { active: 'isActiveTikTok', in: 'inTikTok', error: 'errorTikTok', tokens: 'tokensTikTokSealed' },
  instagram: {
    active: 'isActiveInstagram',
    in: 'inInstagram',
    error: 'errorInstagram',
    tokens: 'tokensInstagramSealed',
  },
} as const satisfies Record<PlatformKey, Record<string, keyof AccountRow>>;

/** Capabilities the panel needs (the drivers' flags, kept static so reading a profile makes no platform call). */
const CAPABILITIES: AccountRecord['capabilities'] = {
  youtube: { updateProfileName: false, updateDescription: true },
  tiktok: { updateProfileName: false, updateDescription: false },
  instagram: { updateProfileName: false, updateDescription: false },
};

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
  if (
    r.error ||
    (b(r.inYouTube) && r.errorYouTube) ||
    (b(r.inTikTok) && r.errorTikTok) ||
    (b(r.inInstagram) && r.errorInstagram)
  ) {
    return 'error';
  }
  if (
    (b(r.inYouTube) && b(r.isActiveYouTube)) ||
    (b(r.inTikTok) && b(r.isActiveTikTok)) ||
    (b(r.inInstagram) && b(r.isActiveInstagram))
  ) {
    return 'success';
  }
  return 'noactive';
}

/** Writes a patch and the status it leads to (read over the latest stored row). */
export async function saveAccount(repo: AccountsRepository, row: AccountRow, patch: AccountPatch): Promise<void> {
  const current = (await repo.get(row.id)) ?? row;
  await repo.update(row.id, { ...patch, status: accountStatus({ ...current, ...patch } as AccountRow) });
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
    const platformErrors = { youtube: r.errorYouTube, tiktok: r.errorTikTok, instagram: r.errorInstagram };
    return { ...summaryOf(r), name: accountTitle(r), handles: identityOf(r).handles, platformErrors };
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
      platformErrors: { youtube: r.errorYouTube, tiktok: r.errorTikTok, instagram: r.errorInstagram },
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
export function profileColumns(platform: PlatformKey, p: PlatformProfile): AccountPatch {
  const handle = p.username?.replace(/^@/, '') || null;
  const avatar = p.avatarUrl || null;
  if (platform === 'youtube')
    return {
      titleChannel: p.title,
      description: p.description,
      urlChannel: p.url,
      handleYouTube: handle,
      avatarYouTube: avatar,
    };
  if (platform === 'tiktok')
    return {
      titleTikTok: p.title,
      descriptionTikTok: p.description,
      urlTikTok: p.url,
      handleTikTok: handle,
      avatarTikTok: avatar,
    };
  return {
    profileNameInstagram: p.title,
    profileDescriptionInstagram: p.description,
    urlInstagram: p.url,
    handleInstagram: handle,
    avatarInstagram: avatar,
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
