import type { Db } from '../db/index';
import type { Exec } from '../publications/publications.repository';

/** A rendered video as the import names it (by id, or its file's name). */
export type ImportVideo = {
  id: number;
  userId: number;
  storageKey: string | null;
  mediaRemovedAt: number | string | null;
  requestId: number | null;
  publicationId: number | null;
  accountId: number | null;
  version: number;
};

const VIDEO_COLS = [
  'id',
  'userId',
  'storageKey',
  'mediaRemovedAt',
  'requestId',
  'publicationId',
  'accountId',
  'version',
] as const;

/** The import's reads (Kysely only): the caller's videos, profiles and groups, and what is already live. */
export class ImportsRepository {
  constructor(private db: Db) {}

  /** Videos by id (`ids`) or by their file's name (`names`: the storage key or its end), within `scope`. */
  async videos(scope: number | null, ids: number[], names: string[]): Promise<(ImportVideo & { name?: string })[]> {
    const out: (ImportVideo & { name?: string })[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      let q = this.db
        .selectFrom('videos')
        .select(VIDEO_COLS)
        .where('id', 'in', ids.slice(i, i + 500));
      if (scope !== null) q = q.where('userId', '=', scope);
      out.push(...(await q.execute()));
    }
    for (const name of names) {
      let q = this.db
        .selectFrom('videos')
        .select(VIDEO_COLS)
        .where((eb) =>
          eb.or([eb('storageKey', '=', name), eb('storageKey', 'like', `%/${name.replace(/[%_\\]/g, '')}`)]),
        )
        .orderBy('id')
        .limit(1);
      if (scope !== null) q = q.where('userId', '=', scope);
      out.push(...(await q.execute()).map((v) => ({ ...v, name })));
    }
    return out;
  }

  /** The caller's profiles (an admin: everyone's) with their comment, to match by id or name, and their time zone. */
  accounts(scope: number | null) {
    let q = this.db.selectFrom('accounts').select(['id', 'userId', 'comments', 'timeZone']);
    if (scope !== null) q = q.where('userId', '=', scope);
    return q.orderBy('id').execute();
  }

  /** The caller's groups with their members. */
  async groups(scope: number | null): Promise<{ id: number; name: string; members: number[] }[]> {
    let q = this.db
      .selectFrom('accountGroups')
      .leftJoin('groupAccounts', 'groupAccounts.groupId', 'accountGroups.id')
      .select(['accountGroups.id', 'accountGroups.name', 'groupAccounts.accountId']);
    if (scope !== null) q = q.where('accountGroups.userId', '=', scope);
    const rows = await q.orderBy('accountGroups.id').orderBy('groupAccounts.accountId').execute();
    const by = new Map<number, { id: number; name: string; members: number[] }>();
    for (const r of rows) {
      const g = by.get(r.id) ?? { id: r.id, name: r.name, members: [] };
      if (r.accountId !== null) g.members.push(r.accountId);
      by.set(r.id, g);
    }
    return [...by.values()];
  }

  /** Live posts (not cancelled) of the files `keys`: (file, profile, platform, video). */
  async livePosts(
    keys: string[],
  ): Promise<{ fileKey: string; accountId: number; platform: string; videoId: number }[]> {
    const out: { fileKey: string; accountId: number; platform: string; videoId: number }[] = [];
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await this.db
        .selectFrom('videoPublishes')
        .select(['fileKey', 'accountId', 'platform', 'videoId'])
        .where('fileKey', 'in', keys.slice(i, i + 500))
        .where('state', '!=', 'cancelled')
        .where('accountId', 'is not', null)
        .execute();
      for (const r of rows) out.push({ ...r, fileKey: r.fileKey!, accountId: r.accountId! });
    }
    return out;
  }

  /** The publication of a create-video request, if it has one, in `exec`. */
  async requestPublication(exec: Exec, requestId: number): Promise<number | undefined> {
    const r = await exec.selectFrom('publications').select('id').where('requestId', '=', requestId).executeTakeFirst();
    return r?.id;
  }

  /** The publications of create-video requests `ids` (those that have one), in `exec`: request to publication. */
  async requestPublications(exec: Exec, ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await exec
        .selectFrom('publications')
        .select(['id', 'requestId'])
        .where('requestId', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) if (r.requestId !== null) out.set(r.requestId, r.id);
    }
    return out;
  }

  /** The platforms a publication is on, in `exec`. */
  async platformsOf(exec: Exec, publicationId: number): Promise<string[]> {
    const rows = await exec
      .selectFrom('publicationPlatforms')
      .select('platform')
      .where('publicationId', '=', publicationId)
      .execute();
    return rows.map((r) => r.platform);
  }

  /** The videos `ids` as they are in `exec` (their version and publication now). */
  async videosIn(exec: Exec, ids: number[]): Promise<ImportVideo[]> {
    const out: ImportVideo[] = [];
    for (let i = 0; i < ids.length; i += 500)
      out.push(
        ...(await exec
          .selectFrom('videos')
          .select(VIDEO_COLS)
          .where('id', 'in', ids.slice(i, i + 500))
          .execute()),
      );
    return out;
  }

  /** What the export writes: the caller's videos in publications with their live posts. */
  async exportRows(scope: number | null) {
    let q = this.db
      .selectFrom('videos')
      .innerJoin('videoPublishes', 'videoPublishes.videoId', 'videos.id')
      .select([
        'videos.id',
        'videos.accountId',
        'videos.title',
        'videos.description',
        'videos.tags',
        'videos.date',
        'videoPublishes.platform',
        'videoPublishes.repeatOf',
        'videoPublishes.dueAt',
      ])
      .where('videos.publicationId', 'is not', null)
      .where('videoPublishes.state', '!=', 'cancelled');
    if (scope !== null) q = q.where('videos.userId', '=', scope);
    return q.orderBy('videos.id').orderBy('videoPublishes.id').execute();
  }
}
