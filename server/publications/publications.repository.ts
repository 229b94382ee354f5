import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { inListOrder, isSpecPlatform, type PlatformKey } from '../../src/contract/platforms';
import type { PlatformId } from '../platforms/types';
import type { Db } from '../db/index';
import type { Database, PublicationsTable, VideosTable } from '../db/types';
import type { PublishRow } from '../publishing/publishing.repository';
import { paginate } from '../http/paginate';
import { orderOf, sorted } from '../http/list-query';
import type { PublicationListParams } from '../../src/contract/list-queries';
import { DONE_STATES } from '../../src/contract/publications';
import { parsePost, type PlatformPosts } from '../../src/contract/platform-posts';
import { filterPublications, PUBLICATION_SORT } from './publication-list';
import { IDENTITY_COLUMNS, type IdentityRowColumns } from '../accounts/account-identity';
import { withPlatformRows } from '../accounts/platform-state';

export type Exec = Kysely<Database> | Transaction<Database>;

type StoredPublication = Selectable<PublicationsTable> & { idUpload: string; ownerLogin: string };
/** A publication with the platforms it is on (its publication_platforms rows, 024). */
export type PublicationRow = StoredPublication & { platforms: PlatformKey[]; posts: PlatformPosts };
export type { PublishRow };
export type PublicationVideoRow = Pick<
  Selectable<VideosTable>,
  | 'id'
  | 'userId'
  | 'accountId'
  | 'outputIndex'
  | 'date'
  | 'title'
  | 'description'
  | 'tags'
  | 'status'
  | 'storageKey'
  | 'urlYouTube'
  | 'urlInstagram'
  | 'urlTikTok'
  | 'error'
  | 'errorInstagram'
  | 'errorTikTok'
  | 'version'
  | 'publicationId'
  | 'requestId'
  | 'mediaRemovedAt'
  | 'posts'
> &
  IdentityRowColumns & { timeZone: string | null };

/** A video as the publication list reads it (src/contract/publications.ts YouTubeItem). */
export type ListVideoRow = {
  status: string;
  date: string | null;
  accountId: number | null;
} & IdentityRowColumns;

/** What the service needs of a profile to publish to it: its owner and which platforms are connected. */
export type PublishAccount = {
  id: number;
  userId: number;
  connected: Partial<Record<PlatformId, boolean>>;
};

/** Publications, their videos and per-platform publish rows: Kysely only. `scope` = ownerScope(). */
export class PublicationsRepository {
  constructor(private db: Db) {}

  private base(scope: number | null) {
    const q = this.db.selectFrom('publications');
    return scope === null ? q : q.where('publications.userId', '=', scope);
  }

  private withCols<T extends ReturnType<PublicationsRepository['base']>>(q: T) {
    return q
      .innerJoin('users', 'users.id', 'publications.userId')
      .innerJoin('createVideoRequests', 'createVideoRequests.id', 'publications.requestId')
      .selectAll('publications')
      .select(['users.login as ownerLogin', 'createVideoRequests.idUpload']);
  }

  async list(scope: number | null, params: PublicationListParams) {
    const order = orderOf(params, PUBLICATION_SORT, { sort: 'id', order: 'DESC' }, 'publications.id');
    const page = await paginate(
      filterPublications(this.base(scope), params),
      params.page,
      (q) => sorted(this.withCols(q), order),
      (r) => r as StoredPublication,
    );
    return { ...page, data: await this.withPlatforms(page.data) };
  }

  /** The rows with the platforms each is on, read in `exec`. */
  private async withPlatforms(rows: StoredPublication[], exec: Exec = this.db): Promise<PublicationRow[]> {
    const on = rows.length
      ? await exec
          .selectFrom('publicationPlatforms')
          .select(['publicationId', 'platform', 'post'])
          .where(
            'publicationId',
            'in',
            rows.map((r) => r.id),
          )
          .execute()
      : [];
    return rows.map((r) => {
      const own = on.filter((p) => p.publicationId === r.id);
      const mine = new Set(own.map((p) => p.platform));
      const posts: Record<string, unknown> = {};
      for (const p of own) if (p.post) posts[p.platform] = parsePost(p.post);
      return { ...r, platforms: inListOrder(mine) as PlatformKey[], posts: posts as PlatformPosts };
    });
  }

  /**
   * The publication's platforms become `platforms` (its publication_platforms rows), in `trx`, each with its post
   * (038): the one `posts` gives it when given, else the one it had.
   */
  async setPlatforms(trx: Exec, id: number, platforms: readonly PlatformKey[], posts?: PlatformPosts): Promise<void> {
    const before = await trx
      .selectFrom('publicationPlatforms')
      .select(['platform', 'post'])
      .where('publicationId', '=', id)
      .execute();
    const postOf = (platform: PlatformKey) => {
      if (!posts) return before.find((b) => b.platform === platform)?.post ?? null;
      const own = isSpecPlatform(platform) ? posts[platform] : undefined;
      return own && Object.keys(own).length ? JSON.stringify(own) : null;
    };
    await trx.deleteFrom('publicationPlatforms').where('publicationId', '=', id).execute();
    if (platforms.length)
      await trx
        .insertInto('publicationPlatforms')
        .values(platforms.map((platform) => ({ publicationId: id, platform, post: postOf(platform) })))
        .execute();
  }

  /** By publication id, or by its request's id / idUpload. */
  async get(
    scope: number | null,
    by: { id: number } | { requestId: number } | { idUpload: string },
    exec: Exec = this.db,
  ): Promise<PublicationRow | undefined> {
    let q = this.withCols(
      scope === null
        ? exec.selectFrom('publications')
        : exec.selectFrom('publications').where('publications.userId', '=', scope),
    );
    if ('id' in by) q = q.where('publications.id', '=', by.id);
    else if ('requestId' in by) q = q.where('publications.requestId', '=', by.requestId);
    else q = q.where('createVideoRequests.idUpload', '=', by.idUpload);
    const row = (await q.executeTakeFirst()) as StoredPublication | undefined;
    return row && (await this.withPlatforms([row], exec))[0];
  }

  /** Inserts the publication unless its request already has one (then undefined). */
  async insert(trx: Exec, row: Insertable<PublicationsTable>): Promise<number | undefined> {
    const r = await trx
      .insertInto('publications')
      .values(row)
      .onConflict((oc) => oc.column('requestId').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r?.id;
  }

  /** Applies an edit and counts the version up. */
  async update(trx: Exec, id: number, patch: Updateable<PublicationsTable>): Promise<void> {
    await trx
      .updateTable('publications')
      .set((eb) => ({ ...patch, version: eb('version', '+', 1), updatedAt: new Date().toISOString() }))
      .where('id', '=', id)
      .execute();
  }

  /** Deletes the publication (its videos detached first: VideosRepository.detachPublication). */
  async delete(trx: Exec, id: number): Promise<void> {
    await trx.deleteFrom('publications').where('id', '=', id).execute();
  }

  /** What the list shows of each of `ids`' publications' videos: status, planned date, the profile's identity. */
  async listVideos(ids: number[]): Promise<Map<number, ListVideoRow[]>> {
    const out = new Map<number, ListVideoRow[]>(ids.map((id) => [id, []]));
    if (!ids.length) return out;
    const rows = await this.db
      .selectFrom('videos')
      .leftJoin('accounts', 'accounts.id', 'videos.accountId')
      .$call(withPlatformRows)
      .select(['videos.publicationId', 'videos.status', 'videos.date', 'videos.accountId', ...IDENTITY_COLUMNS])
      .where('videos.publicationId', 'in', ids)
      .orderBy('videos.outputIndex')
      .orderBy('videos.id')
      .execute();
    for (const r of rows) out.get(r.publicationId!)?.push(r);
    return out;
  }

  /**
   * The ids among `videoIds` with a post retrying past its time: isRetrying (src/contract/publications.ts) in
   * SQL, so a list page asks once.
   */
  async retryingVideos(videoIds: number[]): Promise<Set<number>> {
    if (!videoIds.length) return new Set();
    const rows = await this.db
      .selectFrom('videoPublishes')
      .select('videoId')
      .distinct()
      .where('videoId', 'in', videoIds)
      .where('state', 'not in', [...DONE_STATES, 'awaiting_approval'])
      .where((eb) =>
        eb.or([eb('attempt', '>', 0), eb('state', 'in', ['waiting', 'reconcile']), eb('waitUntil', 'is not', null)]),
      )
      .execute();
    return new Set(rows.map((r) => r.videoId));
  }

  /** The publications among `ids` with a video whose post is retrying (the list's badge). */
  async retryingPublications(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const videos = await this.db
      .selectFrom('videos')
      .select(['id', 'publicationId'])
      .where('publicationId', 'in', ids)
      .execute();
    const retrying = await this.retryingVideos(videos.map((v) => v.id));
    return new Set(videos.filter((v) => retrying.has(v.id)).map((v) => v.publicationId!));
  }

  private videoCols(exec: Exec) {
    return exec
      .selectFrom('videos')
      .leftJoin('accounts', 'accounts.id', 'videos.accountId')
      .$call(withPlatformRows)
      .select([
        'videos.id',
        'videos.userId',
        'videos.accountId',
        'videos.outputIndex',
        'videos.date',
        'videos.title',
        'videos.description',
        'videos.tags',
        'videos.status',
        'videos.storageKey',
        'videos.urlYouTube',
        'videos.urlInstagram',
        'videos.urlTikTok',
        'videos.error',
        'videos.errorInstagram',
        'videos.errorTikTok',
        'videos.version',
        'videos.publicationId',
        'videos.requestId',
        'videos.mediaRemovedAt',
        'videos.posts',
        'accounts.timeZone',
        ...IDENTITY_COLUMNS,
      ]);
  }

  /** The publication's videos in output order. */
  videos(publicationId: number, exec: Exec = this.db): Promise<PublicationVideoRow[]> {
    return this.videoCols(exec)
      .where('videos.publicationId', '=', publicationId)
      .orderBy('videos.outputIndex')
      .orderBy('videos.id')
      .execute() as Promise<PublicationVideoRow[]>;
  }

  video(id: number, exec: Exec = this.db): Promise<PublicationVideoRow | undefined> {
    return this.videoCols(exec).where('videos.id', '=', id).executeTakeFirst() as Promise<
      PublicationVideoRow | undefined
    >;
  }

  /** The publish rows of `videoIds`, per platform in a fixed order. */
  publishes(videoIds: number[], exec: Exec = this.db): Promise<PublishRow[]> {
    if (!videoIds.length) return Promise.resolve([]);
    return exec
      .selectFrom('videoPublishes')
      .selectAll()
      .where('videoId', 'in', videoIds)
      .orderBy('videoId')
      .orderBy('id')
      .execute();
  }

  /** The profiles among `ids` that `scope` may use, with their connected platforms. */
  async accounts(ids: number[], scope: number | null): Promise<Map<number, PublishAccount>> {
    if (!ids.length) return new Map();
    let q = this.db.selectFrom('accounts').select(['accounts.id', 'accounts.userId']).where('id', 'in', ids);
    if (scope !== null) q = q.where('userId', '=', scope);
    const rows = await q.execute();
    // Connected: an active row of the profile × platform holding a grant (any platform of the registry).
    const links = await this.db
      .selectFrom('accountPlatforms')
      .select(['accountId', 'platform'])
      .where('accountId', 'in', ids)
      .where('active', '=', 1)
      .where('tokensSealed', 'is not', null)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          userId: r.userId,
          connected: Object.fromEntries(links.filter((l) => l.accountId === r.id).map((l) => [l.platform, true])),
        },
      ]),
    );
  }
}
