import type { Insertable } from 'kysely';
import type { Db } from '../db/index';
import type { BackgroundItemsTable } from '../db/types';
import { paginate } from '../http/paginate';
import { matchesText, orderOf, sorted, type SortColumns } from '../http/list-query';
import type { FOLDER_SORTS, FolderListParams } from '../../src/contract/list-queries';

/** `?sort=` → column (the item count by its select alias). */
const FOLDER_SORT: SortColumns<(typeof FOLDER_SORTS)[number]> = {
  id: 'backgroundFolders.id',
  name: 'backgroundFolders.name',
  user: 'users.login',
  total: 'total',
  // Creation order is id order (both are set by the insert); never ISO text ordered as text (issue 17).
  createdAt: 'backgroundFolders.id',
};
import { BG_PAGE_SIZE, type BackgroundType } from '../../src/contract/backgrounds';
import type { SelectOption } from '../../src/contract/groups';

export type FolderRow = {
  id: number;
  name: string;
  userId: number;
  ownerLogin: string;
  createdAt: string;
  updatedAt: string;
};
export type ItemRow = {
  id: number;
  folderId: number;
  userId: number;
  type: BackgroundType;
  storageKey: string;
  previewKey: string | null;
  originalName: string;
  size: number;
};
export type NewItem = Insertable<BackgroundItemsTable>;

const ITEM_COLS = [
  'backgroundItems.id',
  'backgroundItems.folderId',
  'backgroundItems.userId',
  'backgroundItems.type',
  'backgroundItems.storageKey',
  'backgroundItems.previewKey',
  'backgroundItems.originalName',
  'backgroundItems.size',
] as const;

/** Background folders and items: Kysely only. `scope` is ownerScope(): null for an admin, else a user id. */
export class BackgroundsRepository {
  constructor(private db: Db) {}

  /** Which of `keys` an item still refers to (as its file or its preview). */
  async knownKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db
      .selectFrom('backgroundItems')
      .select(['storageKey', 'previewKey'])
      .where((eb) => eb.or([eb('storageKey', 'in', keys), eb('previewKey', 'in', keys)]))
      .execute();
    return new Set(rows.flatMap((r) => (r.previewKey ? [r.storageKey, r.previewKey] : [r.storageKey])));
  }

  private folders(scope: number | null) {
    const q = this.db.selectFrom('backgroundFolders');
    return scope === null ? q : q.where('backgroundFolders.userId', '=', scope);
  }

  private items(scope: number | null) {
    const q = this.db.selectFrom('backgroundItems');
    return scope === null ? q : q.where('backgroundItems.userId', '=', scope);
  }

  listFolders(scope: number | null, params: FolderListParams) {
    let base = this.folders(scope);
    if (params.q) base = base.where(matchesText(params.q, ['backgroundFolders.name'], { id: 'backgroundFolders.id' }));
    if (params.userId) base = base.where('backgroundFolders.userId', '=', params.userId);
    const order = orderOf(params, FOLDER_SORT, { sort: 'id', order: 'DESC' }, 'backgroundFolders.id');
    return paginate(
      base,
      params.page,
      (q) =>
        sorted(
          q
            .innerJoin('users', 'users.id', 'backgroundFolders.userId')
            .select((eb) => [
              'backgroundFolders.id',
              'backgroundFolders.name',
              'backgroundFolders.userId',
              'backgroundFolders.createdAt',
              'users.login as ownerLogin',
              eb
                .selectFrom('backgroundItems')
                .whereRef('backgroundItems.folderId', '=', 'backgroundFolders.id')
                .select(eb.fn.countAll<number>().as('c'))
                .as('total'),
            ]),
          order,
        ),
      (r) => ({
        id: r.id,
        name: r.name,
        total: Number(r.total ?? 0),
        user: { id: r.userId, login: r.ownerLogin },
        createdAt: r.createdAt,
      }),
    );
  }

  async folderOptions(scope: number | null): Promise<SelectOption[]> {
    const rows = await this.folders(scope)
      .select(['backgroundFolders.id', 'backgroundFolders.name'])
      .orderBy('backgroundFolders.id', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, title: r.name, value: r.id }));
  }

  getFolder(scope: number | null, id: number): Promise<FolderRow | undefined> {
    return this.folders(scope)
      .innerJoin('users', 'users.id', 'backgroundFolders.userId')
      .select([
        'backgroundFolders.id',
        'backgroundFolders.name',
        'backgroundFolders.userId',
        'users.login as ownerLogin',
        'backgroundFolders.createdAt',
        'backgroundFolders.updatedAt',
      ])
      .where('backgroundFolders.id', '=', id)
      .executeTakeFirst();
  }

  async countItems(folderId: number): Promise<number> {
    const r = await this.db
      .selectFrom('backgroundItems')
      .where('folderId', '=', folderId)
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .executeTakeFirstOrThrow();
    return Number(r.c);
  }

  async insertFolder(userId: number, name: string): Promise<number> {
    const at = new Date().toISOString();
    const r = await this.db
      .insertInto('backgroundFolders')
      .values({ userId, name, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async renameFolder(id: number, name: string): Promise<void> {
    await this.db
      .updateTable('backgroundFolders')
      .set({ name, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a folder and its items in one transaction; returns the storage keys the caller must remove. */
  async deleteFolder(id: number): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('backgroundItems')
        .select(['storageKey', 'previewKey'])
        .where('folderId', '=', id)
        .execute();
      await trx.deleteFrom('backgroundItems').where('folderId', '=', id).execute();
      await trx.deleteFrom('backgroundFolders').where('id', '=', id).execute();
      return rows.flatMap((r) => (r.previewKey ? [r.storageKey, r.previewKey] : [r.storageKey]));
    });
  }

  /** A page of items: one folder's (newest first) or, with folderId null, every item within the scope. */
  listItems(scope: number | null, folderId: number | null, page: number) {
    const base =
      folderId === null
        ? this.items(scope)
        : this.db.selectFrom('backgroundItems').where('backgroundItems.folderId', '=', folderId);
    return paginate(
      base,
      page,
      (q) => q.select([...ITEM_COLS]).orderBy('backgroundItems.id', 'desc'),
      (r) => r as ItemRow,
      BG_PAGE_SIZE,
    );
  }

  getItem(scope: number | null, id: number): Promise<ItemRow | undefined> {
    return this.items(scope)
      .select([...ITEM_COLS])
      .where('backgroundItems.id', '=', id)
      .executeTakeFirst() as Promise<ItemRow | undefined>;
  }

  async deleteItem(id: number): Promise<void> {
    await this.db.deleteFrom('backgroundItems').where('id', '=', id).execute();
  }

  /** Inserts the rows in one transaction (all or none); returns their ids in order. */
  async insertItems(rows: NewItem[]): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 200) {
        const r = await trx
          .insertInto('backgroundItems')
          .values(rows.slice(i, i + 200))
          .returning('id')
          .execute();
        ids.push(...r.map((x) => x.id));
      }
      return ids;
    });
  }

  /** Folder ids among `ids` that exist within the scope. */
  async visibleFolderIds(ids: number[], scope: number | null): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.folders(scope)
      .select('backgroundFolders.id')
      .where('backgroundFolders.id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Every item of the given folders within the scope (ordered by id). */
  folderItems(folderIds: number[], scope: number | null) {
    if (!folderIds.length)
      return Promise.resolve([] as Array<{ id: number; folderId: number; type: BackgroundType; storageKey: string }>);
    return this.items(scope)
      .select(['backgroundItems.id', 'backgroundItems.folderId', 'backgroundItems.type', 'backgroundItems.storageKey'])
      .where('backgroundItems.folderId', 'in', folderIds)
      .orderBy('backgroundItems.id', 'asc')
      .execute();
  }
}
