import { sql } from 'kysely';
import type { Db } from '../db/index';
import { paginate } from '../http/paginate';
import { matchesText, orderOf, sorted, type SortColumns } from '../http/list-query';
import type { GROUP_SORTS, GroupListParams } from '../../src/contract/list-queries';
import type { GroupListItem } from '../../src/contract/groups';
import type { AccountOption } from '../../src/contract/profile-identity';
import { accountOption, handleSearchText, IDENTITY_COLUMNS, IDENTITY_TEXT_COLUMNS } from '../accounts/account-identity';
import { handleMatches, withPlatformRows } from '../accounts/platform-state';
import { toId } from '../../src/contract/ids';

export type GroupRow = {
  id: number;
  name: string;
  userId: number;
  ownerLogin: string;
  ownerRole: string;
  createdAt: string;
  updatedAt: string;
};

/** Account groups and their members: Kysely only. `scope` is ownerScope(): null for an admin, else a user id. */
/** `?sort=` → column (the member count by its select alias). */
const GROUP_SORT: SortColumns<(typeof GROUP_SORTS)[number]> = {
  id: 'accountGroups.id',
  name: 'accountGroups.name',
  accountsCount: 'accountsCount',
  user: 'users.login',
};

export class GroupsRepository {
  constructor(private db: Db) {}

  private base(scope: number | null) {
    const q = this.db.selectFrom('accountGroups');
    return scope === null ? q : q.where('accountGroups.userId', '=', scope);
  }

  list(scope: number | null, params: GroupListParams) {
    let base = this.base(scope);
    if (params.q) base = base.where(matchesText(params.q, ['accountGroups.name'], { id: 'accountGroups.id' }));
    if (params.userId) base = base.where('accountGroups.userId', '=', params.userId);
    const order = orderOf(params, GROUP_SORT, { sort: 'id', order: 'DESC' }, 'accountGroups.id');
    return paginate(
      base,
      params.page,
      (q) =>
        sorted(
          q
            .innerJoin('users', 'users.id', 'accountGroups.userId')
            .select((eb) => [
              'accountGroups.id',
              'accountGroups.name',
              'accountGroups.userId',
              'users.login as ownerLogin',
              eb
                .selectFrom('groupAccounts')
                .whereRef('groupAccounts.groupId', '=', 'accountGroups.id')
                .select(eb.fn.countAll<number>().as('c'))
                .as('accountsCount'),
            ]),
          order,
        ),
      (r): GroupListItem => ({
        id: r.id,
        name: r.name,
        accountsCount: Number(r.accountsCount ?? 0),
        user: { id: r.userId, login: r.ownerLogin },
      }),
    );
  }

  /** One group within the scope, with its owner's login and role (undefined when missing or someone else's). */
  get(scope: number | null, id: number): Promise<GroupRow | undefined> {
    return this.base(scope)
      .innerJoin('users', 'users.id', 'accountGroups.userId')
      .select([
        'accountGroups.id',
        'accountGroups.name',
        'accountGroups.userId',
        'users.login as ownerLogin',
        'users.role as ownerRole',
        'accountGroups.createdAt',
        'accountGroups.updatedAt',
      ])
      .where('accountGroups.id', '=', id)
      .executeTakeFirst();
  }

  async members(groupId: number): Promise<AccountOption[]> {
    const rows = await this.db
      .selectFrom('groupAccounts')
      .innerJoin('accounts', 'accounts.id', 'groupAccounts.accountId')
      .$call(withPlatformRows)
      .select(TITLE_COLUMNS)
      .where('groupAccounts.groupId', '=', groupId)
      .orderBy('accounts.id', 'asc')
      .execute();
    return rows.map(toOption);
  }

  /** Owners of the given profiles (missing ids are simply absent). */
  accountOwners(ids: number[]) {
    if (!ids.length) return Promise.resolve([] as { id: number; userId: number }[]);
    return this.db.selectFrom('accounts').select(['id', 'userId']).where('id', 'in', ids).execute();
  }

  async insert(userId: number, name: string, accountIds: number[]): Promise<number> {
    const at = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('accountGroups')
        .values({ userId, name, createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('groupAccounts')
        .values(accountIds.map((accountId) => ({ groupId: id, accountId })))
        .execute();
      return id;
    });
  }

  async update(id: number, v: { name?: string; accounts?: number[] }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accountGroups')
        .set({ ...(v.name !== undefined ? { name: v.name } : {}), updatedAt: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      if (v.accounts) {
        await trx.deleteFrom('groupAccounts').where('groupId', '=', id).execute();
        await trx
          .insertInto('groupAccounts')
          .values(v.accounts.map((accountId) => ({ groupId: id, accountId })))
          .execute();
      }
    });
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('accountGroups').where('id', '=', id).execute();
  }

  /**
   * Profiles a select menu offers: those in `scope` (null = every profile), optionally filtered by `q`
   * (a part of the comment, a title or a handle with or without its '@', or the id as "12" / "#12"), at most
   * `limit`, ordered by id.
   */
  async options(scope: number | null, q: string, limit: number): Promise<AccountOption[]> {
    let query = this.db.selectFrom('accounts').$call(withPlatformRows).select(TITLE_COLUMNS);
    if (scope !== null) query = query.where('accounts.userId', '=', scope);
    const text = handleSearchText(q).toLowerCase();
    if (text) {
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const id = toId(text.replace(/^#/, ''));
      query = query.where((eb) =>
        eb.or([
          ...IDENTITY_TEXT_COLUMNS.map((c) =>
            eb(sql`lower(coalesce(${sql.ref(c)}, ''))`, 'like', sql`${pattern} escape '\\'`),
          ),
          handleMatches(pattern),
          ...(id > 0 ? [eb('accounts.id', '=', id)] : []),
        ]),
      );
    }
    const rows = await query.orderBy('accounts.id', 'asc').limit(limit).execute();
    return rows.map(toOption);
  }
}

const TITLE_COLUMNS = ['accounts.id', 'accounts.status', ...IDENTITY_COLUMNS] as const;
const toOption = accountOption;
