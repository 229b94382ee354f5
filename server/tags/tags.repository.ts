import type { Db } from '../db/index';
import { paginate } from '../http/paginate';
import { matchesText, orderOf, sorted, type SortColumns } from '../http/list-query';
import type { TAG_SET_SORTS, TagSetListParams } from '../../src/contract/list-queries';
import type { TagSetRecord } from '../../src/contract/tags';

type Row = {
  id: number;
  name: string;
  tags: string;
  userId: number;
  ownerLogin: string;
  createdAt: string;
  updatedAt: string;
};

/** Saved tag sets: Kysely only. `scope` is ownerScope(): null for an admin (all rows), else the user id. */
const TAG_SET_SORT: SortColumns<(typeof TAG_SET_SORTS)[number]> = {
  id: 'tagSets.id',
  name: 'tagSets.name',
  user: 'users.login',
};

/** A tag set's columns with its owner's login (the users join), for the list and for one set. */
const TAG_SET_COLUMNS = [
  'tagSets.id',
  'tagSets.name',
  'tagSets.tags',
  'tagSets.userId',
  'users.login as ownerLogin',
  'tagSets.createdAt',
  'tagSets.updatedAt',
] as const;

export class TagsRepository {
  constructor(private db: Db) {}

  private base(scope: number | null) {
    const q = this.db.selectFrom('tagSets');
    return scope === null ? q : q.where('tagSets.userId', '=', scope);
  }

  list(scope: number | null, params: TagSetListParams) {
    let base = this.base(scope);
    if (params.q) base = base.where(matchesText(params.q, ['tagSets.name', 'tagSets.tags'], { id: 'tagSets.id' }));
    if (params.userId) base = base.where('tagSets.userId', '=', params.userId);
    const order = orderOf(params, TAG_SET_SORT, { sort: 'id', order: 'DESC' }, 'tagSets.id');
    return paginate(
      base,
      params.page,
      (q) => sorted(q.innerJoin('users', 'users.id', 'tagSets.userId').select(TAG_SET_COLUMNS), order),
      toRecord,
    );
  }

  /** One set within the scope (undefined when missing or someone else's). */
  async get(scope: number | null, id: number): Promise<TagSetRecord | undefined> {
    const row = await this.base(scope)
      .innerJoin('users', 'users.id', 'tagSets.userId')
      .select(TAG_SET_COLUMNS)
      .where('tagSets.id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(userId: number, v: { name: string; tags: string[] }): Promise<number> {
    const at = new Date().toISOString();
    const row = await this.db
      .insertInto('tagSets')
      .values({ userId, name: v.name, tags: JSON.stringify(v.tags), createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, v: { name?: string; tags?: string[] }): Promise<void> {
    await this.db
      .updateTable('tagSets')
      .set({
        ...(v.name !== undefined ? { name: v.name } : {}),
        ...(v.tags !== undefined ? { tags: JSON.stringify(v.tags) } : {}),
        updatedAt: new Date().toISOString(),
      })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('tagSets').where('id', '=', id).execute();
  }
}

const parseTags = (s: string): string[] => {
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

const toRecord = (r: Row): TagSetRecord => ({
  id: r.id,
  name: r.name,
  tags: parseTags(r.tags),
  user: { id: r.userId, login: r.ownerLogin },
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
