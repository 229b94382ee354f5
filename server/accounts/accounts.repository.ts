import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { DONE_STATES } from '../../src/contract/publications';
import type { Db } from '../db/index';
import type { VideosRepository } from '../videos/videos.repository';
import { forgetProfileDays } from '../analytics/stats-history.repository';
import type { AccountPlatformsTable, AccountsTable } from '../db/types';
import { camelRows, compiledOnce } from '../db/compiled-once';
import { pageOfRows, pageStatement, paginate, paginateByKeys } from '../http/paginate';
import { containsPattern, matchesText, orderOf, sorted, unindexed, type SortColumns } from '../http/list-query';
import type { ACCOUNT_SORTS, AccountListParams } from '../../src/contract/list-queries';
import { PAGE_SIZE } from '../../src/contract/pagination';
import { IDENTITY_COLUMNS, handleSearchText } from './account-identity';
import type { PlatformId } from '../platforms/types';
import {
  STATE_OF_NAME,
  fieldsOf,
  connectedTo,
  handleMatches,
  holdsAnyGrant,
  rowFieldOf,
  stateOf,
  withPlatformRows,
  type OtherRows,
  type PlatformFields,
  type PlatformState,
  type PlatformStatePatch,
  type StateField,
} from './platform-state';

/** `?sort=` → column (`name` is the stored lower-cased title, migration 011). */
const ACCOUNT_SORT: SortColumns<(typeof ACCOUNT_SORTS)[number]> = {
  id: 'accounts.id',
  name: 'accounts.nameKey',
  user: 'users.login',
  status: 'accounts.status',
  // Creation order is id order (both are set by the insert); never ISO text ordered as text (issue 17).
  createdAt: 'accounts.id',
};
/** The list's columns: summary only, no sealed value. */
const SUMMARY = [
  'accounts.id',
  'accounts.userId',
  'users.login as ownerLogin',
  'accounts.status',
  'accounts.idGpt',
  ...stateOf('active'),
  'accounts.isActiveGpt',
  'accounts.inYouTube',
  'accounts.inTikTok',
  'accounts.inInstagram',
  'accounts.inGpt',
  ...IDENTITY_COLUMNS,
  'accounts.error',
  ...stateOf('error'),
  'accounts.createdAt',
] as const;
/** `?platform=`: the profiles connected to it (GPT's flag is a column of `accounts`, the platforms' are rows). */
const connectedFilter = (platform: NonNullable<AccountListParams['platform']>): Expression<SqlBool> =>
  platform === 'gpt' ? sql<SqlBool>`accounts.is_active_gpt = 1` : connectedTo(platform);

/**
 * What `?q=` finds: the titles and the comment (the stored `search` column of 011), the id, and the platform
 * handles with or without their '@'.
 */
function profileSearch(q: string): Expression<SqlBool> {
  const titles = matchesText(q, ['accounts.search'], { id: 'accounts.id', folded: true });
  const handle = handleSearchText(q);
  return handle ? sql<SqlBool>`(${titles} or ${handleMatches(containsPattern(handle))})` : titles;
}

/** A profile as the services read it: its `accounts` columns and its platforms' state under their row names. */
export type AccountRow = Selectable<AccountsTable> & PlatformState & { ownerLogin: string };
export type AccountPatch = Updateable<AccountsTable> & PlatformStatePatch & OtherRows;

/** Every column of a profile with its platforms' state and its owner's login. */
const FULL_ROW = [
  ...stateOf('active'),
  ...stateOf('error'),
  ...stateOf('tokens'),
  ...stateOf('handle'),
  ...stateOf('avatar'),
  'users.login as ownerLogin',
] as const;

/** A patch split between the profile's columns and its platforms' rows (each platform's changed fields). */
function splitPatch(patch: AccountPatch) {
  const columns: Record<string, unknown> = {};
  const rows = new Map<PlatformId, Partial<Record<StateField, unknown>>>();
  const { platformRows, ...named } = patch;
  for (const [platform, fields] of Object.entries(platformRows ?? {})) rows.set(platform, { ...fields });
  for (const [name, value] of Object.entries(named)) {
    if (value === undefined) continue;
    const state = STATE_OF_NAME.get(name);
    if (!state) columns[name] = value;
    else rows.set(state.platform, { ...rows.get(state.platform), [state.field]: value });
  }
  return { columns: columns as Updateable<AccountsTable>, rows };
}

/** Profiles: Kysely only. Ownership is decided by the service. */
export class AccountsRepository {
  /** The same database without the camel-case plugin: the plain page keys its own rows (camelRows). */
  private bare: Db;

  constructor(
    private db: Db,
    /** The one writer of `videos` (a deleted profile's videos are detached). */
    private videoWriter: VideosRepository,
  ) {
    this.bare = db.withoutPlugins();
  }

  private base(scope: number | null) {
    const q = this.db.selectFrom('accounts');
    return scope === null ? q : q.where('accounts.userId', '=', scope);
  }

  /**
   * One page for the list: summary columns only (no sealed values are read); `?q`, filters and sort. A search
   * or a sort other than the default picks the page's ids first from the narrow indexes of migration 011 and
   * reads only those ~3 KB rows (paginateByKeys); the plain page keeps its one simple statement.
   */
  list(scope: number | null, params: AccountListParams) {
    if (!params.q && !params.sort && !params.status && !params.platform && !params.userId)
      return this.plainList(scope, params.page, params.order === 'ASC' ? 'asc' : 'desc');
    let base = this.base(scope);
    if (params.q) base = base.where(profileSearch(params.q));
    if (params.status) base = base.where('accounts.status', '=', params.status);
    if (params.platform) base = base.where(connectedFilter(params.platform));
    if (params.userId) base = base.where('accounts.userId', '=', params.userId);
    const order = orderOf(params, ACCOUNT_SORT, { sort: 'id', order: 'DESC' }, 'accounts.id');
    const full = (q: typeof base) =>
      sorted(q.innerJoin('users', 'users.id', 'accounts.userId').$call(withPlatformRows).select(SUMMARY), order);
    if ((!params.q && !params.sort) || params.sort === 'user') return paginate(base, params.page, full, (r) => r);
    return paginateByKeys(
      base,
      params.page,
      (q) => sorted(q.select('accounts.id as key'), params.q ? unindexed(order) : order),
      (q, keys) => full(q.where('accounts.id', 'in', keys)),
      (r) => r,
    );
  }

  /**
   * The plain page (no search, filter or sort: what the list opens on, the hottest request of the panel),
   * built and compiled once per scope and direction (an admin's all, a user's own): only the values change.
   * The same statement as the general path's, run without the camel-case plugin: camelRows keys its rows.
   */
  private async plainList(scope: number | null, page: number, dir: 'asc' | 'desc') {
    const plain = (this.plain[dir] ??= this.compilePlain(dir));
    const offset = (page - 1) * PAGE_SIZE;
    const query = scope === null ? plain.all(offset) : plain.own(scope, offset);
    const { rows } = await this.bare.executeQuery(query);
    return pageOfRows(
      camelRows<(typeof rows)[number]>(rows as Array<Record<string, unknown>>),
      page,
      () => this.countAlone(scope),
      (r) => r,
    );
  }

  private plain: Partial<Record<'asc' | 'desc', ReturnType<AccountsRepository['compilePlain']>>> = {};

  private compilePlain(dir: 'asc' | 'desc') {
    const page = (base: ReturnType<AccountsRepository['base']>, offset: number) =>
      pageStatement(
        base,
        (q) =>
          q
            .innerJoin('users', 'users.id', 'accounts.userId')
            .$call(withPlatformRows)
            .select(SUMMARY)
            .orderBy('accounts.id', dir),
        offset,
      );
    return {
      all: compiledOnce((offset: number) => page(this.base(null), offset)),
      own: compiledOnce((userId: number, offset: number) => page(this.base(userId), offset)),
    };
  }

  private countAlone(scope: number | null) {
    return this.base(scope)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
  }

  get(id: number, exec: Db = this.db): Promise<AccountRow | undefined> {
    return exec
      .selectFrom('accounts')
      .innerJoin('users', 'users.id', 'accounts.userId')
      .$call(withPlatformRows)
      .selectAll('accounts')
      .select(FULL_ROW)
      .where('accounts.id', '=', id)
      .executeTakeFirst();
  }

  /** Profiles holding any platform grant with an id above `afterId`, in id order (the keep-alive walk). */
  withGrants(afterId: number, limit: number): Promise<AccountRow[]> {
    return this.db
      .selectFrom('accounts')
      .innerJoin('users', 'users.id', 'accounts.userId')
      .$call(withPlatformRows)
      .selectAll('accounts')
      .select(FULL_ROW)
      .where('accounts.id', '>', afterId)
      .where(holdsAnyGrant())
      .orderBy('accounts.id', 'asc')
      .limit(limit)
      .execute();
  }

  /** Runs `work` in one transaction (a change and its audit entry commit together). */
  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(v: Omit<Insertable<AccountsTable>, 'createdAt'>, exec: Db = this.db): Promise<number> {
    const at = new Date().toISOString();
    const row = await exec
      .insertInto('accounts')
      .values({ ...v, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Writes a patch: its profile columns to `accounts` (with `updatedAt`), each platform's state fields to that
   * platform's row (made on the first write, the fields not in the patch left as they are), in one transaction.
   */
  async update(id: number, v: AccountPatch, exec: Db = this.db): Promise<void> {
    const { columns, rows } = splitPatch(v);
    const write = async (db: Db) => {
      await db
        .updateTable('accounts')
        .set({ ...columns, updatedAt: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      for (const [platform, fields] of rows) {
        const values = Object.fromEntries(
          Object.entries(fields).map(([field, value]) => [rowFieldOf(field as StateField), value]),
        ) as Updateable<AccountPlatformsTable>;
        await db
          .insertInto('accountPlatforms')
          .values({ ...values, accountId: id, platform })
          .onConflict((oc) => oc.columns(['accountId', 'platform']).doUpdateSet(values))
          .execute();
      }
    };
    if (!rows.size || exec.isTransaction) await write(exec);
    else await exec.transaction().execute(write);
  }

  /** Every platform row of the profile (any platform of the registry), by platform. */
  async platformRows(accountId: number, exec: Db = this.db): Promise<Map<PlatformId, PlatformFields>> {
    const rows = await exec.selectFrom('accountPlatforms').selectAll().where('accountId', '=', accountId).execute();
    return new Map(rows.map((r) => [r.platform, fieldsOf(r)]));
  }

  /**
   * Deletes the profile; its videos stay with their owner, detached (account_id = null), and its stats days leave
   * its owner's, in one transaction.
   */
  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.videoWriter.detachProfile(trx, id);
      await forgetProfileDays(trx, id);
      await trx.deleteFrom('accountPlatforms').where('accountId', '=', id).execute();
      await trx.deleteFrom('accounts').where('id', '=', id).execute();
    });
  }

  /** The profile's group for SPEC §3 Account.group (a profile may sit in several groups: the first one). */
  firstGroup(accountId: number) {
    return this.db
      .selectFrom('groupAccounts')
      .innerJoin('accountGroups', 'accountGroups.id', 'groupAccounts.groupId')
      .select(['accountGroups.id', 'accountGroups.name'])
      .where('groupAccounts.accountId', '=', accountId)
      .orderBy('accountGroups.id', 'asc')
      .limit(1)
      .executeTakeFirst();
  }

  userRole(id: number) {
    return this.db.selectFrom('users').select(['id', 'role']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * The profile's videos: those in a publication to it, or that went out (or failed) on it. A video taken out of
   * its publication before it went live is not the profile's any more (older rows may still name the profile).
   */
  videos(accountId: number, page: number) {
    return paginate(
      this.db
        .selectFrom('videos')
        .where('accountId', '=', accountId)
        .where((eb) => eb.or([eb('publicationId', 'is not', null), eb('status', '!=', 'noactive')])),
      page,
      (q) =>
        q
          .select([
            'id',
            'url',
            'idUpload',
            'createdAt',
            'accountId',
            'date',
            'title',
            'description',
            'tags',
            'status',
            'views',
            'viewsInstagram',
            'likes',
            'likesInstagram',
            'comments',
            'commentsInstagram',
            'urlYouTube',
            'urlInstagram',
            'urlTikTok',
            'error',
            'errorInstagram',
            'errorTikTok',
            'storageKey',
          ])
          // A post of the video retrying past its time: isRetrying (src/contract/publications.ts) in SQL.
          .select((eb) =>
            eb
              .exists(
                eb
                  .selectFrom('videoPublishes')
                  .select('videoPublishes.id')
                  .whereRef('videoPublishes.videoId', '=', 'videos.id')
                  .where('videoPublishes.state', 'not in', [...DONE_STATES])
                  .where((w) =>
                    w.or([
                      w('videoPublishes.attempt', '>', 0),
                      w('videoPublishes.state', 'in', ['waiting', 'reconcile']),
                      w('videoPublishes.waitUntil', 'is not', null),
                    ]),
                  ),
              )
              .as('retrying'),
          )
          .orderBy('id', 'desc'),
      (r) => r,
    );
  }
}
