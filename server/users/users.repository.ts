import type { CompiledQuery } from 'kysely';
import type { Db } from '../db/index';
import { paginate } from '../http/paginate';
import { matchesText, orderOf, sorted, type SortColumns } from '../http/list-query';
import type { USER_SORTS, UserListParams } from '../../src/contract/list-queries';
import { PAGE_SIZE, type Page } from '../../src/contract/pagination';
import type { Role } from '../../src/contract/roles';
import type { UserRecord } from '../../src/contract/users';
import { accountTitle } from '../../src/contract/groups';
import { IDENTITY_COLUMNS, identityOf } from '../accounts/account-identity';
import { stateOf, withPlatformRows } from '../accounts/platform-state';

/** `?sort=` → column (the counts by their select aliases). */
const USER_SORT: SortColumns<(typeof USER_SORTS)[number]> = {
  id: 'users.id',
  login: 'users.login',
  role: 'users.role',
  videosCount: 'videosCount',
  accountsCount: 'accountsCount',
};

export class UsersRepository {
  constructor(private db: Db) {}

  private withCounts(base = this.db.selectFrom('users')) {
    return base.select((eb) => [
      'users.id',
      'users.login',
      'users.role',
      'users.needsApproval',
      'users.createdAt',
      eb.case().when('users.totpSecretSealed', 'is not', null).then(1).else(0).end().as('twoFactor'),
      eb
        .selectFrom('videos')
        .whereRef('videos.userId', '=', 'users.id')
        .select(eb.fn.countAll<number>().as('c'))
        .as('videosCount'),
      eb
        .selectFrom('accounts')
        .whereRef('accounts.userId', '=', 'users.id')
        .select(eb.fn.countAll<number>().as('c'))
        .as('accountsCount'),
    ]);
  }

  // The users page is the hottest list (bench/api.bench.ts): its two queries are built and compiled once,
  // and only the offset changes (with the SQLite statement cache, nothing is parsed again per request).
  private compiled?: {
    page: CompiledQuery<PageRow>;
    offsetAt: number;
    count: CompiledQuery<{ total: number | string }>;
  };

  /** A searched, filtered or sorted page (`?q` login or id, `?role`); the plain page takes the compiled path. */
  async list(params: UserListParams): Promise<Page<UserRecord>> {
    if (!params.q && !params.role && !params.sort && !params.order) return this.plainPage(params.page);
    let base = this.db.selectFrom('users');
    if (params.q) base = base.where(matchesText(params.q, ['users.login'], { id: 'users.id' }));
    if (params.role) base = base.where('users.role', '=', params.role);
    const order = orderOf(params, USER_SORT, { sort: 'id', order: 'ASC' }, 'users.id');
    return paginate(base, params.page, (q) => sorted(this.withCounts(q), order), toRecord);
  }

  private async plainPage(page: number): Promise<Page<UserRecord>> {
    const c = (this.compiled ??= this.compile());
    const parameters = [...c.page.parameters];
    parameters[c.offsetAt] = (page - 1) * PAGE_SIZE;
    const [rows, count] = await Promise.all([
      this.db.executeQuery<PageRow>({ ...c.page, parameters }),
      this.db.executeQuery(c.count),
    ]);
    const total = Number(count.rows[0]?.total ?? 0);
    return { data: rows.rows.map(toRecord), page, totalPages: Math.ceil(total / PAGE_SIZE), total };
  }

  private compile() {
    const SENTINEL = 987_654_321; // a marker for the offset's place among the parameters
    const page = this.withCounts().orderBy('users.id', 'asc').limit(PAGE_SIZE).offset(SENTINEL).compile();
    const offsetAt = page.parameters.indexOf(SENTINEL);
    if (offsetAt < 0) throw new Error('users page query: offset parameter not found');
    const count = this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .compile();
    return { page, offsetAt, count };
  }

  async get(id: number): Promise<UserRecord | undefined> {
    const row = await this.withCounts().where('users.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  findByLogin(login: string) {
    return this.db.selectFrom('users').select(['id']).where('login', '=', login).executeTakeFirst();
  }

  async insert(
    trx: Db,
    v: { login: string; passwordHash: string; role: Role; needsApproval?: number },
  ): Promise<number> {
    const at = new Date().toISOString();
    const row = await trx
      .insertInto('users')
      .values({ ...v, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The stored password hash (to tell whether an edit changes the password). */
  async passwordHash(id: number): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('passwordHash').where('id', '=', id).executeTakeFirst())
      ?.passwordHash;
  }

  /** Writes the user in `trx`; answers whether they still existed. */
  async update(
    trx: Db,
    id: number,
    v: { login: string; passwordHash?: string; role?: Role; needsApproval?: number },
  ): Promise<boolean> {
    const r = await trx
      .updateTable('users')
      .set({ ...v, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async delete(trx: Db, id: number): Promise<void> {
    await trx.deleteFrom('users').where('id', '=', id).execute();
  }

  async countAdmins(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    return Number(r.c);
  }

  accountsOf(userId: number, page: number) {
    return paginate(
      this.db.selectFrom('accounts').where('userId', '=', userId),
      page,
      (q) =>
        q
          .$call(withPlatformRows)
          .select(['id', ...IDENTITY_COLUMNS, 'status', ...stateOf('active'), 'createdAt'])
          .orderBy('id', 'desc'),
      (r) => ({
        id: r.id,
        name: accountTitle(r),
        ...identityOf(r),
        status: r.status,
        isActiveYouTube: r.isActiveYouTube === 1,
        isActiveTikTok: r.isActiveTikTok === 1,
        isActiveInstagram: r.isActiveInstagram === 1,
        createdAt: r.createdAt,
      }),
    );
  }

  videosOf(userId: number, page: number) {
    return paginate(
      this.db.selectFrom('videos').where('userId', '=', userId),
      page,
      (q) => q.select(['id', 'accountId', 'status', 'createdAt']).orderBy('id', 'desc'),
      (r) => ({
        id: r.id,
        status: r.status,
        createdAt: r.createdAt,
        account: r.accountId ? { id: r.accountId } : null,
      }),
    );
  }
}

type PageRow = {
  id: number;
  login: string;
  role: Role;
  needsApproval: number | string | boolean;
  createdAt: string;
  twoFactor: number | string | boolean | null;
  videosCount: number | string | null;
  accountsCount: number | string | null;
};

const toRecord = (r: PageRow): UserRecord => ({
  id: r.id,
  login: r.login,
  role: r.role,
  needsApproval: Boolean(Number(r.needsApproval)),
  createdAt: r.createdAt,
  twoFactor: Number(r.twoFactor) === 1,
  videosCount: Number(r.videosCount ?? 0),
  accountsCount: Number(r.accountsCount ?? 0),
});
