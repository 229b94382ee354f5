import type { AuthUser } from '../../src/contract/auth';
import {
  AccountFormSchema, type AccountForm, type AccountRecord, type AccountVideoItem, type IpVersion, type PlatformKey,
} from '../../src/contract/accounts';
import type { AccountStatus, VideoStatus } from '../../src/contract/statuses';
import { accountTitle } from '../../src/contract/groups';
import type { Config } from '../config';
import type { Sealer } from '../crypto/seal';
import { AppError, notFound } from '../http/errors';
import { validate } from '../http/validate';
import { ownerScope } from '../auth/guards';
import {
  PLATFORM_TITLES, PlatformError, createDriver, createPlatformHttp, grantLapsesAt, isPlatformError, signOAuthState, verifyOAuthState, withFreshToken,
  type FreshTokenOptions, type PlatformDriver, type PlatformHttp, type PlatformProfile, type TokenSet,
} from '../platforms/index';
import type { AccountPatch, AccountRow, AccountsRepository } from './accounts.repository';

/** Column names per platform (DB side). */
const COLS = {
  youtube: { active: 'isActiveYouTube', in: 'inYouTube', error: 'errorYouTube', tokens: 'tokensYouTubeSealed' },
  tiktok: { active: 'isActiveTikTok', in: 'inTikTok', error: 'errorTikTok', tokens: 'tokensTikTokSealed' },
  instagram: { active: 'isActiveInstagram', in: 'inInstagram', error: 'errorInstagram', tokens: 'tokensInstagramSealed' },
} as const satisfies Record<PlatformKey, Record<string, keyof AccountRow>>;

/** Capabilities the panel needs (the drivers' flags, kept static so reading a profile makes no platform call). */
const CAPABILITIES: AccountRecord['capabilities'] = {
  youtube: { updateProfileName: false, updateDescription: true },
  tiktok: { updateProfileName: false, updateDescription: false },
  instagram: { updateProfileName: false, updateDescription: false },
};

const b = (v: number | null | undefined) => v === 1;
const i = (v: boolean | undefined) => (v ? 1 : 0);

/**
 * SPEC §4 account status: error when something needs attention (the profile's error, or a platform error of a
 * platform that is toggled on), success when a toggled platform is connected.
 */
export function accountStatus(r: Pick<AccountRow, 'error' | 'errorYouTube' | 'errorTikTok' | 'errorInstagram' | 'inYouTube' | 'isActiveYouTube' | 'inTikTok' | 'isActiveTikTok' | 'inInstagram' | 'isActiveInstagram'>): AccountStatus {
  if (r.error || (b(r.inYouTube) && r.errorYouTube) || (b(r.inTikTok) && r.errorTikTok) || (b(r.inInstagram) && r.errorInstagram)) return 'error';
  if ((b(r.inYouTube) && b(r.isActiveYouTube)) || (b(r.inTikTok) && b(r.isActiveTikTok)) || (b(r.inInstagram) && b(r.isActiveInstagram))) return 'success';
  return 'noactive';
}

/** How a PlatformError reaches the caller. */
const STATUS_OF_KIND: Record<PlatformError['kind'], number> = { 'bad-request': 400, 'refresh-token': 409, reconnect: 409, proxy: 502, 'retry-later': 503 };

export type CallbackResult = { location: string };

/** Profiles: owner rules, validation, sealing, platform connections. */
export class AccountsService {
  private readonly stateKey: string;

  constructor(private repo: AccountsRepository, private sealer: Sealer, private config: Config) {
    this.stateKey = sealer.subKey('oauth-state');
  }

  // ---- CRUD -------------------------------------------------------------------------------------

  async list(actor: AuthUser, page: number) {
    const p = await this.repo.list(ownerScope(actor), page);
    return {
      ...p,
      data: p.data.map((r) => ({
        id: r.id,
        name: accountTitle(r),
        comments: r.comments,
        user: { id: r.userId, login: r.ownerLogin },
        group: null,
        status: r.status as AccountStatus,
        idGPT: r.idGpt,
        isActiveYouTube: b(r.isActiveYouTube), isActiveTikTok: b(r.isActiveTikTok), isActiveInstagram: b(r.isActiveInstagram), isActiveGPT: b(r.isActiveGpt),
        inYouTube: b(r.inYouTube), inTikTok: b(r.inTikTok), inInstagram: b(r.inInstagram), inGPT: b(r.inGpt),
        titleChannel: r.titleChannel, profileNameInstagram: r.profileNameInstagram, titleTikTok: r.titleTikTok,
        error: r.error, createdAt: r.createdAt,
      })),
    };
  }

  async get(actor: AuthUser, id: number): Promise<AccountRecord> {
    const row = await this.load(actor, id);
    const group = await this.repo.firstGroup(id);
    return { ...this.toRecord(row), group: group ?? null };
  }

  async create(actor: AuthUser, input: unknown): Promise<AccountRecord> {
    const form = validate(AccountFormSchema, input);
    const values = this.formColumns(form);
    const id = await this.repo.insert({ userId: actor.id, ...values, status: accountStatus(values as AccountRow) });
    return this.get(actor, id);
  }

  /** PATCH: the body (often only the changed fields) is merged over the stored form, then validated whole. */
  async update(actor: AuthUser, id: number, input: unknown): Promise<AccountRecord> {
    const row = await this.load(actor, id);
    const body = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
    const merged = { ...this.formOf(row), ...Object.fromEntries(Object.entries(body).filter(([k]) => k in AccountFormSchema.shape)) };
    const form = validate(AccountFormSchema, merged);
    const patch: AccountPatch = this.formColumns(form);
    // A new proxy may well fix the last connection error.
    if (form.proxy !== this.sealer.openOpt(row.proxySealed)) patch.error = null;
    // Turning a platform off drops its error, and the profile's error when that was the platform's.
    for (const cols of Object.values(COLS)) {
      if (patch[cols.in] === 0 && row[cols.error]) {
        patch[cols.error] = null;
        if (row.error === row[cols.error]) patch.error = null;
      }
    }
    await this.save(row, patch);
    return this.get(actor, id);
  }

  async remove(actor: AuthUser, id: number) {
    await this.load(actor, id);
    await this.repo.delete(id);
    return { id, videosKept: true };
  }

  async videos(actor: AuthUser, id: number, page: number) {
    await this.load(actor, id);
    const p = await this.repo.videos(id, page);
    return { ...p, data: p.data.map(toVideoItem) };
  }

  async setGpt(actor: AuthUser, id: number, body: { idGPT: string | null }) {
    const row = await this.load(actor, id);
    await this.save(row, { idGpt: body.idGPT, isActiveGpt: body.idGPT ? 1 : 0 });
    return this.get(actor, id);
  }

  // ---- Platform panels --------------------------------------------------------------------------

  /** YouTube channel panel 'Змінити': channels.update (read-modify-write of brandingSettings), then locally. */
  async updateChannel(actor: AuthUser, id: number, body: { description: string }) {
    const row = await this.load(actor, id);
    if (!b(row.isActiveYouTube)) throw new AppError(409, 'kadr.accounts.errors.not_connected', undefined, { platform: 'YouTube' });
    const profile = await this.withPlatform(row, 'youtube', (driver, token) => driver.updateDescription!(token, body.description));
    await this.save(row, { ...profileColumns('youtube', profile) });
    return this.get(actor, id);
  }

  /**
   * Instagram panel 'Змінити'. The official Instagram API cannot change a profile's name or biography
   * (capability flags updateProfileName/updateDescription are false), so the values are kept in Kadr only
   * and the answer says so; the next profile refresh from Instagram shows what Instagram has.
   */
  async updateInstagramProfile(actor: AuthUser, id: number, body: { profileName: string; profileDescription: string }) {
    const row = await this.load(actor, id);
    await this.save(row, {
      profileNameInstagram: body.profileName || row.profileNameInstagram,
      profileDescriptionInstagram: body.profileDescription || row.profileDescriptionInstagram,
    });
    return { ...(await this.get(actor, id)), notice: 'kadr.accounts.instagram.saved_locally' };
  }

  /** Re-reads a connected platform's profile (name, description, link); refreshes the token when needed. */
  async syncProfile(actor: AuthUser, id: number, platform: PlatformKey) {
    const row = await this.load(actor, id);
    if (!b(row[COLS[platform].active])) throw new AppError(409, 'kadr.accounts.errors.not_connected', undefined, { platform: PLATFORM_TITLES[platform] });
    const profile = await this.withPlatform(row, platform, (driver, token) => driver.getProfile(token));
    await this.save(row, profileColumns(platform, profile));
    return this.get(actor, id);
  }

  // ---- OAuth ------------------------------------------------------------------------------------

  /** The authorization link (SPEC: copied to the clipboard by the panel). */
  async authorizeUrl(actor: AuthUser, id: number, platform: PlatformKey): Promise<{ url: string }> {
    const row = await this.load(actor, id);
    const state = signOAuthState({ accountId: row.id, platform, userId: actor.id }, this.stateKey);
    const { driver, http } = this.driverFor(row, platform);
    try {
      return { url: driver.authorizationUrl({ state, redirectUri: this.redirectUri(platform), loginHint: platform === 'youtube' ? row.youTubeLogin ?? undefined : undefined }) };
    } catch (e) {
      throw toAppError(e);
    } finally {
      await http.close();
    }
  }

  /**
   * GET /api/oauth/{platform}/callback: verifies the signed state (account, platform, issuer, expiry),
   * exchanges the code through the profile's proxy, seals the tokens, marks the platform active and reads
   * the profile. Failures (denied consent, bad proxy, …) are stored on the profile as readable errors.
   * Returns where the browser goes next: the profile page.
   */
  async callback(platform: PlatformKey, query: Record<string, string | undefined>): Promise<CallbackResult> {
    // A link that cannot be tied to a profile the issuer may use ends on the profile list with a reason
    // (a code the panel translates, never text taken from the query).
    const toList = (reason: 'link_invalid' | 'link_profile_gone') => ({ location: `/accounts/list?connect_error=${platform}&reason=${reason}` });
    let accountId: number;
    let issuer: number;
    try {
      const payload = verifyOAuthState(String(query.state ?? ''), this.stateKey, { platform });
      accountId = Number(payload.accountId);
      issuer = Number(payload.userId);
    } catch {
      return toList('link_invalid');
    }
    const row = await this.repo.get(accountId);
    const who = await this.repo.userRole(issuer);
    if (!row || !who || (who.role !== 'admin' && row.userId !== who.id)) return toList('link_profile_gone');
    const { driver, http } = this.driverFor(row, platform);
    const cols = COLS[platform];
    try {
      const cb = driver.parseCallback(query);
      const tokens = await driver.exchangeCode({ code: cb.code, redirectUri: this.redirectUri(platform) });
      const profile = await driver.getProfile(tokens.accessToken);
      await this.save(row, {
        [cols.tokens]: this.sealer.seal(JSON.stringify(tokens)),
        [cols.active]: 1,
        [cols.in]: 1,
        [cols.error]: null,
        error: null,
        ...profileColumns(platform, profile),
      });
      return { location: `/accounts/${row.id}?connected=${platform}` };
    } catch (e) {
      const message = isPlatformError(e) ? e.message : 'kadr.accounts.errors.connect_failed';
      await this.save(row, { error: message, [cols.error]: message });
      return { location: `/accounts/${row.id}?connect_error=${platform}` };
    } finally {
      await http.close();
    }
  }

  /**
   * Keeps idle grants alive (the 'accounts.keep-alive' job): refreshes each connected platform whose grant
   * would lapse within `marginMs` (Instagram's 60-day token, TikTok's refresh token, a Google grant idle for
   * about five months), through the profile's proxy. A refused refresh marks the platform for reconnection
   * with a readable error, as any call does. Walks the profiles by id in batches.
   */
  async keepGrantsAlive(opts: { now?: Date; marginMs?: number; batch?: number } = {}): Promise<{ refreshed: number; failed: number }> {
    const now = (opts.now ?? new Date()).getTime();
    const margin = opts.marginMs ?? 7 * 24 * 3600_000;
    const counts = { refreshed: 0, failed: 0 };
    for (let after = 0; ;) {
      const rows = await this.repo.withGrants(after, opts.batch ?? 200);
      if (!rows.length) return counts;
      after = rows[rows.length - 1]!.id;
      for (const row of rows) {
        for (const platform of Object.keys(COLS) as PlatformKey[]) {
          const sealed = row[COLS[platform].tokens] as string | null;
          if (!sealed || !b(row[COLS[platform].active])) continue;
          try {
            if (grantLapsesAt(parseTokens(this.sealer.open(sealed))) - now > margin) continue;
            await this.withPlatform(row, platform, async () => undefined, { refreshAheadMs: Number.POSITIVE_INFINITY });
            counts.refreshed++;
          } catch {
            counts.failed++; // a platform's refusal is stored on the profile by withPlatform; the walk goes on
          }
        }
      }
    }
  }

  // ---- internals --------------------------------------------------------------------------------

  /** The row when the actor may see it; another user's profile is a 404 (never its data). */
  private async load(actor: AuthUser, id: number): Promise<AccountRow> {
    const row = await this.repo.get(id);
    const scope = ownerScope(actor);
    if (!row || (scope !== null && row.userId !== scope)) throw notFound();
    return row;
  }

  /** Writes a patch and the status it leads to. */
  private async save(row: AccountRow, patch: AccountPatch) {
    const current = (await this.repo.get(row.id)) ?? row;
    const next = { ...current, ...patch } as AccountRow;
    await this.repo.update(row.id, { ...patch, status: accountStatus(next) });
  }

  private redirectUri(platform: PlatformKey) {
    return `${this.config.publicUrl}/api/oauth/${platform}/callback`;
  }

  private driverFor(row: AccountRow, platform: PlatformKey): { driver: PlatformDriver; http: PlatformHttp } {
    let http: PlatformHttp;
    try {
      http = createPlatformHttp({
        proxy: this.sealer.openOpt(row.proxySealed),
        ipVersion: (row.ipVersion as IpVersion) ?? 'ipv4',
        platform,
        timeoutMs: this.config.platformTimeoutMs,
        connectTimeoutMs: Math.min(10_000, this.config.platformTimeoutMs),
      });
    } catch (e) {
      throw toAppError(e);
    }
    const credentials = platform === 'youtube'
      ? { clientId: row.youTubeAuthClientId ?? '', clientSecret: this.sealer.openOpt(row.youTubeAuthClientSecretSealed) ?? '' }
      : undefined;
    return { driver: createDriver(platform, { http, config: this.config.platforms, credentials }), http };
  }

  /**
   * Runs a platform call with fresh tokens through the profile's proxy. New tokens are sealed and stored
   * before use (TikTok rotates refresh tokens). A refused refresh marks the platform as needing reconnection;
   * a proxy or network failure is stored as the profile's error. Both come back as readable messages.
   * A refusal after another call (another process) stored newer tokens meanwhile is not the grant's fault
   * (TikTok's refresh token rotates, the one we held was spent): the call is tried once more with those.
   */
  private async withPlatform<T>(
    row: AccountRow, platform: PlatformKey, fn: (driver: PlatformDriver, accessToken: string) => Promise<T>, fresh?: FreshTokenOptions,
  ): Promise<T> {
    const cols = COLS[platform];
    const sealedTokens = row[cols.tokens] as string | null;
    if (!sealedTokens) throw new AppError(409, 'kadr.accounts.errors.not_connected', undefined, { platform: PLATFORM_TITLES[platform] });
    const { driver, http } = this.driverFor(row, platform);
    const attempt = (sealed: string) => withFreshToken(parseTokens(this.sealer.open(sealed)), driver,
      (t) => this.repo.update(row.id, { [cols.tokens]: this.sealer.seal(JSON.stringify(t)) }),
      (token) => fn(driver, token), fresh);
    try {
      let result: T;
      try {
        result = await attempt(sealedTokens);
      } catch (e) {
        const stored = isPlatformError(e) && e.kind === 'reconnect' ? (await this.repo.get(row.id))?.[cols.tokens] as string | null | undefined : null;
        if (!stored || stored === sealedTokens) throw e;
        result = await attempt(stored);
      }
      if (row.error || row[cols.error]) await this.save(row, { error: null, [cols.error]: null });
      return result;
    } catch (e) {
      if (isPlatformError(e)) {
        if (e.kind === 'reconnect') await this.save(row, { [cols.active]: 0, [cols.error]: e.message, error: e.message });
        else if (e.kind === 'proxy' || e.kind === 'retry-later') await this.save(row, { error: e.message });
      }
      throw toAppError(e);
    } finally {
      await http.close();
    }
  }

  /** The stored form (secrets opened) for merging a PATCH. */
  private formOf(r: AccountRow): Record<string, unknown> {
    const o = (v: string | null) => this.sealer.openOpt(v);
    return {
      proxy: o(r.proxySealed) ?? '', ipVersion: r.ipVersion, comments: r.comments,
      inYouTube: b(r.inYouTube), inTikTok: b(r.inTikTok), inInstagram: b(r.inInstagram), inGPT: b(r.inGpt),
      YouTubeAuthClientId: r.youTubeAuthClientId, YouTubeAuthClientSecret: o(r.youTubeAuthClientSecretSealed),
      YouTubeLogin: r.youTubeLogin, YouTubePassword: o(r.youTubePasswordSealed),
      InstagramLogin: r.instagramLogin, InstagramPassword: o(r.instagramPasswordSealed), InstagramTwofaCode: o(r.instagramTwofaCodeSealed),
      emailGPT: r.emailGpt, passwordGPT: o(r.passwordGptSealed), passwordDeepSeek: o(r.passwordDeepSeekSealed), proxyGPT: o(r.proxyGptSealed),
    };
  }

  private formColumns(f: AccountForm) {
    const s = (v: string | null | undefined) => this.sealer.sealOpt(v ?? null);
    return {
      proxySealed: s(f.proxy), ipVersion: f.ipVersion, comments: f.comments ?? null,
      inYouTube: i(f.inYouTube), inTikTok: i(f.inTikTok), inInstagram: i(f.inInstagram), inGpt: i(f.inGPT),
      youTubeAuthClientId: f.YouTubeAuthClientId ?? null, youTubeAuthClientSecretSealed: s(f.YouTubeAuthClientSecret),
      youTubeLogin: f.YouTubeLogin ?? null, youTubePasswordSealed: s(f.YouTubePassword),
      instagramLogin: f.InstagramLogin ?? null, instagramPasswordSealed: s(f.InstagramPassword), instagramTwofaCodeSealed: s(f.InstagramTwofaCode),
      emailGpt: f.emailGPT ?? null, passwordGptSealed: s(f.passwordGPT), passwordDeepSeekSealed: s(f.passwordDeepSeek), proxyGptSealed: s(f.proxyGPT),
    };
  }

  /** SPEC §3 Account. Only the owner or an admin gets here (load() enforces it); tokens never leave. */
  private toRecord(r: AccountRow): AccountRecord {
    const o = (v: string | null) => this.sealer.openOpt(v);
    return {
      id: r.id,
      comments: r.comments,
      proxy: o(r.proxySealed),
      ipVersion: (r.ipVersion as IpVersion) ?? 'ipv4',
      group: null,
      user: { id: r.userId, login: r.ownerLogin },
      status: r.status as AccountStatus,
      idGPT: r.idGpt,
      isActiveYouTube: b(r.isActiveYouTube), isActiveTikTok: b(r.isActiveTikTok), isActiveInstagram: b(r.isActiveInstagram), isActiveGPT: b(r.isActiveGpt),
      inYouTube: b(r.inYouTube), inTikTok: b(r.inTikTok), inInstagram: b(r.inInstagram), inGPT: b(r.inGpt),
      YouTubeAuthClientId: r.youTubeAuthClientId,
      YouTubeAuthClientSecret: o(r.youTubeAuthClientSecretSealed),
      YouTubeLogin: r.youTubeLogin,
      YouTubePassword: o(r.youTubePasswordSealed),
      InstagramLogin: r.instagramLogin,
      InstagramPassword: o(r.instagramPasswordSealed),
      InstagramTwofaCode: o(r.instagramTwofaCodeSealed),
      description: r.description, titleChannel: r.titleChannel, urlChannel: r.urlChannel,
      profileNameInstagram: r.profileNameInstagram, profileDescriptionInstagram: r.profileDescriptionInstagram, urlInstagram: r.urlInstagram,
      titleTikTok: r.titleTikTok, descriptionTikTok: r.descriptionTikTok, urlTikTok: r.urlTikTok,
      emailGPT: r.emailGpt, passwordGPT: o(r.passwordGptSealed), passwordDeepSeek: o(r.passwordDeepSeekSealed), proxyGPT: o(r.proxyGptSealed),
      error: r.error,
      platformErrors: { youtube: r.errorYouTube, tiktok: r.errorTikTok, instagram: r.errorInstagram },
      capabilities: CAPABILITIES,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }
}

function profileColumns(platform: PlatformKey, p: PlatformProfile): AccountPatch {
  if (platform === 'youtube') return { titleChannel: p.title, description: p.description, urlChannel: p.url };
  if (platform === 'tiktok') return { titleTikTok: p.title, descriptionTikTok: p.description, urlTikTok: p.url };
  return { profileNameInstagram: p.title, profileDescriptionInstagram: p.description, urlInstagram: p.url };
}

function parseTokens(json: string): TokenSet {
  const t = JSON.parse(json);
  return { ...t, expiresAt: new Date(t.expiresAt), refreshExpiresAt: t.refreshExpiresAt ? new Date(t.refreshExpiresAt) : null };
}

/** A PlatformError becomes a readable API error; anything else is passed on (a 500 without internals). */
function toAppError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  if (isPlatformError(e)) return new AppError(STATUS_OF_KIND[e.kind] ?? 502, e.message);
  return e;
}

function toVideoItem(r: {
  id: number; url: string | null; idUpload: string | null; createdAt: string; accountId: number | null; date: string | null;
  title: string | null; description: string | null; tags: string | null; status: string;
  views: number | null; viewsInstagram: number | null; likes: number | null; likesInstagram: number | null; comments: number | null; commentsInstagram: number | null;
  urlYouTube: string | null; urlInstagram: string | null; error: string | null; errorInstagram: string | null; errorTikTok: string | null;
}): AccountVideoItem {
  let tags: string[] = [];
  if (r.tags) {
    try { const v = JSON.parse(r.tags); tags = Array.isArray(v) ? v.map(String) : []; } catch { tags = r.tags.split(',').map((s) => s.trim()).filter(Boolean); }
  }
  return {
    id: r.id, url: r.url, idUpload: r.idUpload, createdAt: r.createdAt, account: r.accountId ? { id: r.accountId } : null,
    date: r.date, title: r.title, description: r.description, tags, status: r.status as VideoStatus,
    views: Number(r.views ?? 0), viewsInstagram: Number(r.viewsInstagram ?? 0), likes: Number(r.likes ?? 0), likesInstagram: Number(r.likesInstagram ?? 0),
    comments: Number(r.comments ?? 0), commentsInstagram: Number(r.commentsInstagram ?? 0),
    urlYouTube: r.urlYouTube, urlInstagram: r.urlInstagram, error: r.error, errorInstagram: r.errorInstagram, errorTikTok: r.errorTikTok,
  };
}
