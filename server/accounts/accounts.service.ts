import { actorOf, record } from '../audit/audit';
import type { Acting } from '../auth/guards';
import type { Db } from '../db/index';
import type { AuthUser } from '../../src/contract/auth';
import { AccountFormSchema, type AccountRecord, type PlatformKey } from '../../src/contract/accounts';
import type { PlatformId } from '../platforms/types';
import type { AccountListParams } from '../../src/contract/list-queries';
import { AppError, notFound } from '../http/errors';

/** PATCH /api/accounts/gpt/{id}: idGPT must be an AI session of the profile's owner. */
const GPT_ID_INVALID = 'kadr.ai_errors.gpt_id_invalid';
import { validate } from '../http/validate';
import { ownerScope } from '../auth/guards';
import { accountStatus, b, profileColumns, saveAccount, toVideoItem, type AccountMapper } from './account-record';
import { COLS } from './platform-state';
import type { AccountPatch, AccountRow, AccountsRepository } from './accounts.repository';
import { notConnected, type CallbackResult, type PlatformConnections } from './platform-connections';
import { isProxyFailure } from '../../src/contract/stored-message';
import type { Enqueue } from '../jobs/index';
import { proxyCheckJob } from './accounts.jobs';

export type { CallbackResult } from './platform-connections';

/**
 * Profiles (SPEC §3, §4, §7 Accounts): owner rules, validation, the stored records and the platform panels.
 * Platform calls go through PlatformConnections; ownership is checked here first.
 */
/** The profile form's secret fields (sealed at rest): a change is audited by name. */
const SECRET_FIELDS = [
  'proxy',
  'YouTubeAuthClientSecret',
  'YouTubePassword',
  'InstagramPassword',
  'InstagramTwofaCode',
  'passwordGPT',
  'passwordDeepSeek',
  'proxyGPT',
] as const;

export class AccountsService {
  constructor(
    private repo: AccountsRepository,
    private mapper: AccountMapper,
    private connections: PlatformConnections,
    /** Whether `sessionId` is an AI session of `userId` (server/ai): the idGPT a profile may store. */
    private isGptSessionOf: (userId: number, sessionId: number) => Promise<boolean> = async () => true,
    /** A signed media link to a stored file (the rendered video the profile's list shows a frame of). */
    private mediaUrl: (key: string) => string | null = () => null,
    /** Queues the proxy check after a save that sets a proxy (none: not checked). */
    private enqueue?: Enqueue,
  ) {}

  /** Queues the check of the profile's proxy, in the save's transaction (each save its own check: key 'id:ms'). */
  private checkProxyLater(id: number, trx: Db) {
    return this.enqueue?.(proxyCheckJob, { accountId: id }, { key: `${id}:${Date.now()}` }, trx);
  }

  // ---- records ----------------------------------------------------------------------------------

  async list(actor: AuthUser, params: AccountListParams) {
    const p = await this.repo.list(ownerScope(actor), params);
    return { ...p, data: p.data.map((r) => this.mapper.listItem(r)) };
  }

  async get(actor: AuthUser, id: number): Promise<AccountRecord> {
    const row = await this.load(actor, id);
    const group = await this.repo.firstGroup(id);
    return { ...this.mapper.record(row), group: group ?? null };
  }

  async create(actor: Acting, input: unknown): Promise<AccountRecord> {
    const form = validate(AccountFormSchema, input);
    const values = this.mapper.columns(form);
    const fields = SECRET_FIELDS.filter((f) => form[f]);
    const id = await this.repo.transaction(async (trx) => {
      const id = await this.repo.insert(
        { userId: actor.id, ...values, status: accountStatus(values as AccountRow) },
        trx,
      );
      if (fields.length) await this.auditSecrets(trx, actor, id, fields);
      if (form.proxy) await this.checkProxyLater(id, trx);
      return id;
    });
    return this.get(actor, id);
  }

  /** The audit entry of a profile's secrets set or changed: their field names, never their values. */
  private auditSecrets(trx: Db, actor: Acting, id: number, fields: string[]) {
    return record(trx, {
      ...actorOf(actor),
      action: 'profile.secrets_changed',
      objectType: 'profile',
      objectId: id,
      detail: { fields },
    });
  }

  /** PATCH: the body (often only the changed fields) is merged over the stored form, then validated whole. */
  async update(actor: Acting, id: number, input: unknown): Promise<AccountRecord> {
    const row = await this.load(actor, id);
    const body = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
    const known = Object.entries(body).filter(([k]) => k in AccountFormSchema.shape);
    const form = validate(AccountFormSchema, { ...this.mapper.form(row), ...Object.fromEntries(known) });
    const patch: AccountPatch = this.mapper.columns(form);
    // A new proxy may well fix the last connection error, and what the old one broke on each platform (the page
    // would still say "Помилка" and name the old address); a platform's other errors (a lost grant) stay.
    if (form.proxy !== this.mapper.proxy(row)) {
      patch.error = null;
      for (const cols of Object.values(COLS)) if (isProxyFailure(row[cols.error])) patch[cols.error] = null;
    }
    // Turning a platform off drops its error, and the profile's error when that was the platform's.
    for (const cols of Object.values(COLS)) {
      if (patch[cols.in] === 0 && row[cols.error]) {
        patch[cols.error] = null;
        if (row.error === row[cols.error]) patch.error = null;
      }
    }
    const before = this.mapper.form(row);
    const changed = SECRET_FIELDS.filter((f) => (before[f] ?? '') !== (form[f] ?? ''));
    await this.repo.transaction(async (trx) => {
      await saveAccount(this.repo, row, patch, trx);
      if (changed.length) await this.auditSecrets(trx, actor, id, changed);
      if (form.proxy && form.proxy !== this.mapper.proxy(row)) await this.checkProxyLater(id, trx);
    });
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
    return { ...p, data: p.data.map((v) => toVideoItem(v, this.mediaUrl)) };
  }

  async setGpt(actor: AuthUser, id: number, body: { idGPT: string | null }) {
    const row = await this.load(actor, id);
    const sid = body.idGPT === null ? 0 : /^\d{1,9}$/.test(body.idGPT) ? Number(body.idGPT) : -1;
    if (body.idGPT !== null && !(sid > 0 && (await this.isGptSessionOf(row.userId, sid))))
      throw new AppError(400, GPT_ID_INVALID, { idGPT: GPT_ID_INVALID });
    await saveAccount(this.repo, row, { idGpt: body.idGPT, isActiveGpt: body.idGPT ? 1 : 0 });
    return this.get(actor, id);
  }

  // ---- platform panels --------------------------------------------------------------------------

  /** YouTube channel panel 'Змінити': channels.update (read-modify-write of brandingSettings), then locally. */
  async updateChannel(actor: AuthUser, id: number, body: { description: string }) {
    const row = await this.load(actor, id);
    if (!b(row.isActiveYouTube)) throw notConnected('youtube');
    const profile = await this.connections.withPlatform(row, 'youtube', (driver, token) =>
      driver.updateDescription!(token, body.description),
    );
    await saveAccount(this.repo, row, { ...profileColumns('youtube', profile) });
    return this.get(actor, id);
  }

  /**
   * Instagram panel 'Змінити'. The official Instagram API cannot change a profile's name or biography
   * (capability flags updateProfileName/updateDescription are false), so the values are kept in Kadr only
   * and the answer says so; the next profile refresh from Instagram shows what Instagram has.
   */
  async updateInstagramProfile(actor: AuthUser, id: number, body: { profileName: string; profileDescription: string }) {
    const row = await this.load(actor, id);
    await saveAccount(this.repo, row, {
      profileNameInstagram: body.profileName || row.profileNameInstagram,
      profileDescriptionInstagram: body.profileDescription || row.profileDescriptionInstagram,
    });
    return { ...(await this.get(actor, id)), notice: 'kadr.accounts.instagram.saved_locally' };
  }

  /** Re-reads a connected platform's profile (name, description, link); refreshes the token when needed. */
  async syncProfile(actor: AuthUser, id: number, platform: PlatformKey) {
    const row = await this.load(actor, id);
    if (!(await this.repo.platformRows(row.id)).get(platform)?.active) throw notConnected(platform);
    const profile = await this.connections.withPlatform(row, platform, (driver, token) => driver.getProfile(token));
    await saveAccount(this.repo, row, profileColumns(platform, profile));
    return this.get(actor, id);
  }

  // ---- connections (ownership checked here, the work done by PlatformConnections) ----------------

  async authorizeUrl(actor: AuthUser, id: number, platform: PlatformId): Promise<{ url: string }> {
    return this.connections.authorizeUrl(await this.load(actor, id), platform, actor.id);
  }

  /** Public: the signed state decides whose profile it is. */
  callback(platform: PlatformId, query: Record<string, string | undefined>): Promise<CallbackResult> {
    return this.connections.callback(platform, query);
  }

  /** The row when the actor may see it; another user's profile is a 404 (never its data). */
  private async load(actor: AuthUser, id: number): Promise<AccountRow> {
    const row = await this.repo.get(id);
    const scope = ownerScope(actor);
    if (!row || (scope !== null && row.userId !== scope)) throw notFound();
    return row;
  }
}
