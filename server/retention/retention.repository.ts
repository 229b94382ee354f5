import type { ExpressionBuilder, Transaction } from 'kysely';
import type { Db } from '../db/index';
import type { Database } from '../db/types';
import { renderJobKey } from '../videos/index';
import type { VideosRepository } from '../videos/videos.repository';
import type { MediaUsage } from '../../src/contract/media';
import { FILE_IN_USE, type Cutoffs } from './retention-rules';

/** One stored object a row names, by the row's id. */
export type StoredObject = { id: number; key: string };

const DONE = ['success', 'error'] as const;

/** Thrown inside a claim's transaction to roll it back: the object turned out to be in use. */
class InUse extends Error {}

/** Rolls back when `body` finds the object in use; true when the claim is committed. */
async function claim(db: Db, body: (trx: Transaction<Database>) => Promise<boolean>): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (!(await body(trx))) throw new InUse();
      return true;
    });
  } catch (err) {
    if (err instanceof InUse) return false;
    throw err;
  }
}

/**
 * A rendered video whose file a rule lets go (its row id aside): a video of a create-video request, no post of it
 * scheduled or on its way (FILE_IN_USE), and either never published with its render ended at or before the
 * `unpublished` cutoff, or first seen published at or before the `published` cutoff. Null when no rule is on.
 */
function outputExpired(eb: ExpressionBuilder<Database, 'videos'>, c: Cutoffs) {
  const posts = (states: readonly string[]) =>
    eb
      .selectFrom('videoPublishes')
      .select('videoPublishes.id')
      .whereRef('videoPublishes.videoId', '=', 'videos.id')
      .where('videoPublishes.state', 'in', states);
  const rules = [];
  if (c.unpublished !== null)
    rules.push(
      eb.and([
        eb.not(eb.exists(posts(['published']))),
        eb.exists(
          eb
            .selectFrom('createVideoRequests')
            .select('createVideoRequests.id')
            .whereRef('createVideoRequests.id', '=', 'videos.requestId')
            .where('createVideoRequests.doneAt', '<=', c.unpublished),
        ),
      ]),
    );
  if (c.published !== null) rules.push(eb('videos.publishedMs', '<=', c.published));
  if (!rules.length) return null;
  return eb.and([
    eb('videos.storageKey', 'is not', null),
    eb('videos.requestId', 'is not', null),
    eb.not(eb.exists(posts(FILE_IN_USE))),
    eb.or(rules),
  ]);
}

/**
 * The retention pass's reads and claims (server/media/retention), and the space each user's media takes.
 *
 * A claim is a compare-and-set on the row that names the object, taken before the object is deleted: the row is
 * marked removed (which takes its write lock) and then, in a new statement of the same transaction (so it reads
 * everything committed before the lock was granted), the rule is checked again against what may be using the
 * object; when something does, the transaction rolls back and the object stays. The users of an object write the
 * same row first: a render marks its request 'loading' only while its clip is not removed (VideosRepository.
 * setState), and a publication locks the video's row while its file is not removed (VideosRepository.holdFile) in the
 * transaction that schedules the post. Whichever writes the row first wins; the other sees its change.
 */
export class RetentionRepository {
  constructor(
    private db: Db,
    /** The one writer of `videos`: its dates, sizes and claims are written there. */
    private videos: VideosRepository,
  ) {}

  /** Requests that ended (success or error) before retention dated them: dated `nowMs` (their age starts now). */
  async dateEndedRequests(nowMs: number, limit: number): Promise<number> {
    const ids = await this.db
      .selectFrom('createVideoRequests')
      .select('id')
      .where('doneAt', 'is', null)
      .where('status', 'in', DONE)
      .limit(limit)
      .execute();
    if (!ids.length) return 0;
    await this.db
      .updateTable('createVideoRequests')
      .set({ doneAt: nowMs })
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .where('doneAt', 'is', null)
      .execute();
    return ids.length;
  }

  /** Videos with a published post that retention has not dated yet: dated `nowMs`. */
  async datePublished(nowMs: number, limit: number): Promise<number> {
    const ids = await this.db
      .selectFrom('videoPublishes')
      .innerJoin('videos', 'videos.id', 'videoPublishes.videoId')
      .select('videos.id')
      .distinct()
      .where('videoPublishes.state', '=', 'published')
      .where('videos.publishedMs', 'is', null)
      .limit(limit)
      .execute();
    await this.videos.datePublished(
      ids.map((r) => r.id),
      nowMs,
    );
    return ids.length;
  }

  /** Clips whose size is not recorded (stored before 026). */
  unmeasuredClips(limit: number): Promise<StoredObject[]> {
    return this.db
      .selectFrom('createVideoRequests')
      .select(['id', 'clipKey as key'])
      .where('clipSize', 'is', null)
      .where('clipRemovedAt', 'is', null)
      .limit(limit)
      .execute();
  }

  async setClipSize(id: number, size: number): Promise<void> {
    await this.db.updateTable('createVideoRequests').set({ clipSize: size }).where('id', '=', id).execute();
  }

  /** Rendered videos whose size is not recorded (stored before 026). */
  async unmeasuredOutputs(limit: number): Promise<StoredObject[]> {
    const rows = await this.db
      .selectFrom('videos')
      .select(['id', 'storageKey'])
      .where('size', 'is', null)
      .where('storageKey', 'is not', null)
      .where('mediaRemovedAt', 'is', null)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, key: r.storageKey! }));
  }

  setOutputSize(id: number, size: number): Promise<void> {
    return this.videos.setSize(id, size);
  }

  /** Clips of requests that ended at or before `cutoff` and are still stored, by id after `after`. */
  expiredClips(cutoff: number, after: number, limit: number): Promise<StoredObject[]> {
    return this.db
      .selectFrom('createVideoRequests')
      .select(['id', 'clipKey as key'])
      .where('clipRemovedAt', 'is', null)
      .where('doneAt', '<=', cutoff)
      .where('status', 'in', DONE)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * The claim on a request's clip: marked removed at `nowMs` while the request has ended (at or before
   * `cutoff`) and no render job of it is queued or running (an operator's retry of a dead render). False: left.
   */
  claimClip(id: number, cutoff: number, nowMs: number): Promise<boolean> {
    return claim(this.db, async (trx) => {
      const marked = await trx
        .updateTable('createVideoRequests')
        .set({ clipRemovedAt: nowMs })
        .where('id', '=', id)
        .where('clipRemovedAt', 'is', null)
        .where('status', 'in', DONE)
        .where('doneAt', '<=', cutoff)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      const render = await trx
        .selectFrom('jobs')
        .select('id')
        .where('key', '=', renderJobKey(id))
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return !render;
    });
  }

  /** Rendered videos whose file a rule lets go (see outputExpired), by id after `after`. */
  async expiredOutputs(c: Cutoffs, after: number, limit: number): Promise<StoredObject[]> {
    const rows = await this.db
      .selectFrom('videos')
      .select(['id', 'storageKey'])
      .where('mediaRemovedAt', 'is', null)
      .where((eb) => outputExpired(eb, c) ?? eb.val(false))
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, key: r.storageKey! }));
  }

  /** The claim on a rendered video's file: marked removed at `nowMs`, then the rule checked again. False: left. */
  claimOutput(id: number, c: Cutoffs, nowMs: number): Promise<boolean> {
    return claim(this.db, async (trx) => {
      if (!(await this.videos.markMediaRemoved(trx, id, nowMs))) return false;
      const still = await trx
        .selectFrom('videos')
        .select('id')
        .where('id', '=', id)
        .where((eb) => outputExpired(eb, c) ?? eb.val(false))
        .executeTakeFirst();
      return Boolean(still);
    });
  }

  /**
   * The space each user's media takes (`userId` given: that user's only): uploaded clips, rendered videos and
   * background items that are still stored. Every user is listed, with zeros when they store nothing.
   */
  async usage(userId: number | null): Promise<MediaUsage[]> {
    const sum = (eb: ExpressionBuilder<Database, 'users'>) => {
      const clips = eb
        .selectFrom('createVideoRequests as c')
        .whereRef('c.userId', '=', 'users.id')
        .where('c.clipRemovedAt', 'is', null);
      const outputs = eb
        .selectFrom('videos as v')
        .whereRef('v.userId', '=', 'users.id')
        .where('v.storageKey', 'is not', null)
        .where('v.requestId', 'is not', null)
        .where('v.mediaRemovedAt', 'is', null);
      const items = eb.selectFrom('backgroundItems as b').whereRef('b.userId', '=', 'users.id');
      return [
        clips.select((e) => e.fn.coalesce(e.fn.sum<number>('c.clipSize'), e.lit(0)).as('s')).as('clipBytes'),
        clips.select((e) => e.fn.countAll<number>().as('n')).as('clipFiles'),
        clips.select((e) => e.fn.count<number>('c.id').filterWhere('c.clipSize', 'is', null).as('n')).as('clipUnm'),
        outputs.select((e) => e.fn.coalesce(e.fn.sum<number>('v.size'), e.lit(0)).as('s')).as('outBytes'),
        outputs.select((e) => e.fn.countAll<number>().as('n')).as('outFiles'),
        outputs.select((e) => e.fn.count<number>('v.id').filterWhere('v.size', 'is', null).as('n')).as('outUnm'),
        items.select((e) => e.fn.coalesce(e.fn.sum<number>('b.size'), e.lit(0)).as('s')).as('bgBytes'),
        items.select((e) => e.fn.countAll<number>().as('n')).as('bgFiles'),
      ];
    };
    let q = this.db.selectFrom('users').select(['users.id', 'users.login']).select(sum).orderBy('users.id');
    if (userId !== null) q = q.where('users.id', '=', userId);
    const rows = await q.execute();
    const n = (v: unknown) => Number(v ?? 0);
    return rows.map((r) => ({
      userId: r.id,
      login: r.login,
      bytes: n(r.clipBytes) + n(r.outBytes) + n(r.bgBytes),
      files: n(r.clipFiles) + n(r.outFiles) + n(r.bgFiles),
      unmeasured: n(r.clipUnm) + n(r.outUnm),
    }));
  }
}
