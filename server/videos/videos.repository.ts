import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Db } from '../db/index';
import type { CreateVideoRequestsTable, Database, VideosTable } from '../db/types';
import { paginate } from '../http/paginate';
import { matchesText, orderOf, sorted, type SortColumns } from '../http/list-query';
import type { REQUEST_SORTS, RequestListParams } from '../../src/contract/list-queries';

const REQUEST_SORT: SortColumns<(typeof REQUEST_SORTS)[number]> = {
  id: 'createVideoRequests.id',
  // Creation order is id order (both are set by the insert); never ISO text ordered as text (issue 17).
  createdAt: 'createVideoRequests.id',
  clipName: 'createVideoRequests.clipName',
  count: 'createVideoRequests.count',
  status: 'createVideoRequests.status',
  user: 'users.login',
};

export type RequestRow = {
  id: number;
  userId: number;
  ownerLogin: string;
  idUpload: string;
  status: CreateVideoRequestsTable['status'];
  progress: number;
  count: number;
  isVideo: number;
  isPhoto: number;
  isGenerator: number;
  folders: string;
  clipKey: string;
  clipName: string;
  error: string | null;
  createdAt: string;
  done: number;
  /** 026: when retention removed the clip (epoch ms), or null. */
  clipRemovedAt: number | string | null;
};
/** What the render worker writes on a request as it goes. */
export type RenderPatch = { status?: CreateVideoRequestsTable['status']; progress?: number; error?: string | null };
export type OutputRow = {
  id: number;
  outputIndex: number;
  status: string;
  storageKey: string | null;
  /** 026: when retention removed the file (epoch ms), or null. */
  mediaRemovedAt: number | string | null;
};
type Exec = Kysely<Database> | Transaction<Database>;

/**
 * Create-video requests and their rendered outputs (video rows): Kysely only. `scope` = ownerScope(). The one
 * writer of `videos`: render outputs, AI videos, their publication fields, detaching them and media retention's
 * dates, sizes and claims; publications, publishing, AI, profiles and media retention call it.
 */
export class VideosRepository {
  constructor(private db: Db) {}

  /**
   * Which of `keys` a request (its uploaded clip) or a rendered output still refers to. A file retention removed
   * is not referred to any more: when its delete failed, the orphan sweep removes it.
   */
  async knownKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const [clips, outputs] = await Promise.all([
      this.db
        .selectFrom('createVideoRequests')
        .select('clipKey as key')
        .where('clipKey', 'in', keys)
        .where('clipRemovedAt', 'is', null)
        .execute(),
      this.db
        .selectFrom('videos')
        .select('storageKey as key')
        .where('storageKey', 'in', keys)
        .where('mediaRemovedAt', 'is', null)
        .execute(),
    ]);
    return new Set([...clips, ...outputs].flatMap((r) => (r.key ? [r.key] : [])));
  }

  private requests(scope: number | null, exec: Exec = this.db) {
    const q = exec.selectFrom('createVideoRequests');
    return scope === null ? q : q.where('createVideoRequests.userId', '=', scope);
  }

  private withCols<T extends ReturnType<VideosRepository['requests']>>(q: T) {
    return q
      .innerJoin('users', 'users.id', 'createVideoRequests.userId')
      .select((eb) => [
        'createVideoRequests.id',
        'createVideoRequests.userId',
        'users.login as ownerLogin',
        'createVideoRequests.idUpload',
        'createVideoRequests.status',
        'createVideoRequests.progress',
        'createVideoRequests.count',
        'createVideoRequests.isVideo',
        'createVideoRequests.isPhoto',
        'createVideoRequests.isGenerator',
        'createVideoRequests.folders',
        'createVideoRequests.clipKey',
        'createVideoRequests.clipName',
        'createVideoRequests.error',
        'createVideoRequests.createdAt',
        'createVideoRequests.clipRemovedAt',
        eb
          .selectFrom('videos')
          .whereRef('videos.requestId', '=', 'createVideoRequests.id')
          .select(eb.fn.countAll<number>().as('c'))
          .as('done'),
      ]);
  }

  /** `?q` clip name, idUpload or id; filters `status`, `userId`; sort by REQUEST_SORT. */
  list(scope: number | null, params: RequestListParams) {
    let base = this.requests(scope);
    if (params.q) {
      const cols = ['createVideoRequests.clipName', 'createVideoRequests.idUpload'];
      base = base.where(matchesText(params.q, cols, { id: 'createVideoRequests.id' }));
    }
    if (params.status) base = base.where('createVideoRequests.status', '=', params.status);
    if (params.userId) base = base.where('createVideoRequests.userId', '=', params.userId);
    const order = orderOf(params, REQUEST_SORT, { sort: 'id', order: 'DESC' }, 'createVideoRequests.id');
    return paginate(
      base,
      params.page,
      (q) => sorted(this.withCols(q), order),
      (r) => ({ ...r, done: Number(r.done ?? 0) }) as RequestRow,
    );
  }

  /** Folder names by id (the request list's options column). */
  async folderNames(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('backgroundFolders').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The request `by` names within `scope`; read in `exec` when given (a transaction's own view). */
  async get(
    scope: number | null,
    by: { id: number } | { idUpload: string },
    exec: Exec = this.db,
  ): Promise<RequestRow | undefined> {
    const q =
      'id' in by
        ? this.requests(scope, exec).where('createVideoRequests.id', '=', by.id)
        : this.requests(scope, exec).where('createVideoRequests.idUpload', '=', by.idUpload);
    const r = await this.withCols(q).executeTakeFirst();
    return r ? ({ ...r, done: Number(r.done ?? 0) } as RequestRow) : undefined;
  }

  async insert(trx: Exec, row: Omit<Insertable<CreateVideoRequestsTable>, 'id'>): Promise<number> {
    const r = await trx.insertInto('createVideoRequests').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  outputs(requestId: number): Promise<OutputRow[]> {
    return this.db
      .selectFrom('videos')
      .select(['id', 'outputIndex', 'status', 'storageKey', 'mediaRemovedAt'])
      .where('requestId', '=', requestId)
      .orderBy('outputIndex')
      .execute() as Promise<OutputRow[]>;
  }

  /** Deletes the request (its video rows cascade in the same transaction); returns whether it existed. */
  async delete(trx: Exec, id: number): Promise<boolean> {
    await trx.deleteFrom('videos').where('requestId', '=', id).execute();
    const r = await trx.deleteFrom('createVideoRequests').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * A render's write on its request. Its start ('loading') is a compare-and-set against retention: refused (false)
   * once the clip is removed. Its end (success, error) dates the request for retention (done_at).
   */
  async setState(trx: Exec, id: number, patch: RenderPatch): Promise<boolean> {
    const ended = patch.status === 'success' || patch.status === 'error';
    let q = trx
      .updateTable('createVideoRequests')
      .set({ ...patch, updatedAt: new Date().toISOString(), ...(ended ? { doneAt: Date.now() } : {}) })
      .where('id', '=', id);
    if (patch.status === 'loading') q = q.where('clipRemovedAt', 'is', null);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Records one output. Idempotent: the unique (request_id, output_index) makes a second insert a no-op.
   * Returns false when the request no longer exists (deleted mid-render): the caller removes the file.
   */
  async recordOutput(
    trx: Exec,
    req: { id: number; userId: number; idUpload: string },
    index: number,
    stored: { key: string; size: number },
  ): Promise<boolean> {
    const alive = await trx.selectFrom('createVideoRequests').select('id').where('id', '=', req.id).executeTakeFirst();
    if (!alive) return false;
    await trx
      .insertInto('videos')
      .values({
        userId: req.userId,
        accountId: null,
        createdAt: new Date().toISOString(),
        status: 'noactive',
        url: null,
        idUpload: req.idUpload,
        requestId: req.id,
        outputIndex: index,
        storageKey: stored.key,
        size: stored.size,
      })
      .onConflict((oc) => oc.columns(['requestId', 'outputIndex']).doNothing())
      .execute();
    return true;
  }

  /** Ids of requests that still exist among `ids` (the worker's sweep of stray work folders). */
  async existing(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('createVideoRequests').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async userRole(userId: number): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst())?.role;
  }

  /** The `videos` row an AI video is published as (the publish worker posts it like a rendered one). */
  async insertAiVideo(
    trx: Exec,
    v: {
      userId: number;
      accountId: number;
      storageKey: string;
      title: string;
      description: string;
      tags: string;
      date: string;
    },
  ): Promise<number> {
    const at = new Date().toISOString();
    const r = await trx
      .insertInto('videos')
      .values({ ...v, dateMs: dateMsOf(v.date), status: 'publication', createdAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * A new placement of a rendered video's file (issue 21: a repeat, or the same file for another profile): a
   * `videos` row of the same owner and storage key, outside any request's outputs, in publication
   * `publicationId`. Answers its id.
   */
  async insertPlacement(
    trx: Exec,
    sourceId: number,
    v: {
      accountId: number;
      title: string;
      description: string;
      tags: string;
      date: string;
      publicationId: number;
      /** Its own texts per platform (047, JSON), as the form gave the video. */
      posts?: string | null;
    },
  ): Promise<number> {
    const src = await trx
      .selectFrom('videos')
      .select(['userId', 'storageKey', 'idUpload'])
      .where('id', '=', sourceId)
      .executeTakeFirstOrThrow();
    const r = await trx
      .insertInto('videos')
      .values({
        ...v,
        userId: src.userId,
        storageKey: src.storageKey,
        idUpload: src.idUpload,
        dateMs: dateMsOf(v.date),
        status: 'publication',
        createdAt: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** A video's publication fields (its plan, status, links, errors, stats), in `exec`. */
  async update(exec: Exec, id: number, patch: Updateable<VideosTable>): Promise<void> {
    // The planned date is kept twice: ISO text for the answers, epoch ms for the list's date filter (018).
    const dated = patch.date === undefined ? patch : { ...patch, dateMs: dateMsOf(patch.date) };
    await exec.updateTable('videos').set(dated).where('id', '=', id).execute();
  }

  /** Media retention: the videos `ids` first seen published, dated `nowMs` (those not dated yet). */
  async datePublished(ids: number[], nowMs: number): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable('videos')
      .set({ publishedMs: nowMs })
      .where('id', 'in', ids)
      .where('publishedMs', 'is', null)
      .execute();
  }

  /** Media retention: a rendered video's file size (bytes), measured after the fact. */
  async setSize(id: number, size: number): Promise<void> {
    await this.db.updateTable('videos').set({ size }).where('id', '=', id).execute();
  }

  /**
   * Media retention's claim on a video's file, in its transaction `trx`: marked removed at `nowMs` (taking the
   * row's write lock). False when it was removed already.
   */
  async markMediaRemoved(trx: Exec, id: number, nowMs: number): Promise<boolean> {
    const r = await trx
      .updateTable('videos')
      .set({ mediaRemovedAt: nowMs })
      .where('id', '=', id)
      .where('mediaRemovedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * For the transaction `trx` that schedules a post of `id` (server/publications): locks the video's row while
   * its file is stored (a write of the row to itself) and answers false when retention removed it. A retention
   * claim that comes later sees the post; one that came first makes this false.
   */
  async holdFile(trx: Exec, id: number): Promise<boolean> {
    const r = await trx
      .updateTable('videos')
      .set({ mediaRemovedAt: null })
      .where('id', '=', id)
      .where('mediaRemovedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** holdFile for many videos: of `ids`, those whose file is still there (now held), with their rendered file. */
  async holdFiles(trx: Exec, ids: number[]): Promise<Map<number, string | null>> {
    const out = new Map<number, string | null>();
    for (let i = 0; i < ids.length; i += 500) {
      const r = await trx
        .updateTable('videos')
        .set({ mediaRemovedAt: null })
        .where('id', 'in', ids.slice(i, i + 500))
        .where('mediaRemovedAt', 'is', null)
        .returning(['id', 'storageKey'])
        .execute();
      for (const x of r) out.set(x.id, x.storageKey);
    }
    return out;
  }

  /** The videos of a publication being deleted leave it (they stay as render outputs). */
  async detachPublication(trx: Exec, publicationId: number): Promise<void> {
    await trx.updateTable('videos').set({ publicationId: null }).where('publicationId', '=', publicationId).execute();
  }

  /** The videos of a profile being deleted stay with their owner, detached (account_id = null). */
  async detachProfile(trx: Exec, accountId: number): Promise<void> {
    await trx.updateTable('videos').set({ accountId: null }).where('accountId', '=', accountId).execute();
  }
}

/** A planned date as the list's filter compares it (018): epoch ms, or null when there is none or it is unreadable. */
export function dateMsOf(date: string | null): number | null {
  const ms = date === null ? NaN : Date.parse(date);
  return Number.isFinite(ms) ? ms : null;
}
