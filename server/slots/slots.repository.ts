import type { Kysely, Transaction } from 'kysely';
import type { PlatformKey } from '../../src/contract/platforms';
import type { DbKind } from '../db/index';
import type { Database } from '../db/types';

type Exec = Kysely<Database> | Transaction<Database>;

/** The states of a post that no longer holds a slot: it will not go out (or it failed and waits for a person). */
export const SLOT_FREE_STATES = ['cancelled', 'failed'] as const;

/** A profile's slot row, as stored (days and times as JSON text). */
export type SlotsRow = {
  accountId: number;
  platform: string;
  days: string;
  times: string;
  minGapMinutes: number;
};

/** One planned post as the queue and the capacity view read it. */
export type PlannedPost = { id: number; accountId: number; platform: string; dueAt: string };

/**
 * Posting slots (036) and the planned posts around them: a profile's posts on one platform in a time range
 * (index video_publishes_account_due, 036), in the caller's transaction when it writes posts itself.
 */
export class SlotsRepository {
  constructor(
    private db: Kysely<Database>,
    private kind: DbKind,
  ) {}

  /**
   * The profile's owner and zone; undefined when it does not exist. `lock` (in a transaction that places or moves
   * its posts) holds the profile's row until the transaction ends, so two placements for one profile never read
   * the same free slot (PostgreSQL; SQLite runs one writing transaction at a time).
   */
  account(accountId: number, exec: Exec = this.db, lock = false) {
    const q = exec.selectFrom('accounts').select(['id', 'userId', 'timeZone']).where('id', '=', accountId);
    return (lock && this.kind === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
  }

  /** The zones of profiles (for the capacity view). */
  zones(accountIds: readonly number[]) {
    if (!accountIds.length) return Promise.resolve([]);
    return this.db.selectFrom('accounts').select(['id', 'timeZone']).where('id', 'in', accountIds).execute();
  }

  slotsOf(accountId: number, exec: Exec = this.db): Promise<SlotsRow[]> {
    return exec
      .selectFrom('postingSlots')
      .select(['accountId', 'platform', 'days', 'times', 'minGapMinutes'])
      .where('accountId', '=', accountId)
      .orderBy('platform')
      .execute();
  }

  async save(row: SlotsRow): Promise<void> {
    const updatedAt = new Date().toISOString();
    await this.db
      .insertInto('postingSlots')
      .values({ ...row, updatedAt })
      .onConflict((oc) =>
        oc
          .columns(['accountId', 'platform'])
          .doUpdateSet({ days: row.days, times: row.times, minGapMinutes: row.minGapMinutes, updatedAt }),
      )
      .execute();
  }

  async remove(accountId: number, platform: PlatformKey): Promise<boolean> {
    const r = await this.db
      .deleteFrom('postingSlots')
      .where('accountId', '=', accountId)
      .where('platform', '=', platform)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** The profile's posts on `platform` due in [from, to) that still hold their time. */
  planned(accountId: number, platform: PlatformKey, from: string, to: string, exec: Exec = this.db) {
    return exec
      .selectFrom('videoPublishes')
      .select(['id', 'dueAt'])
      .where('accountId', '=', accountId)
      .where('platform', '=', platform)
      .where('dueAt', '>=', from)
      .where('dueAt', '<', to)
      .where('state', 'not in', SLOT_FREE_STATES)
      .execute();
  }

  /** Posts due in [from, to) that still hold their time, of one profile or of every profile in `scope`. */
  plannedInRange(scope: number | null, from: string, to: string, accountId?: number): Promise<PlannedPost[]> {
    let q = this.db
      .selectFrom('videoPublishes as vp')
      .innerJoin('accounts as a', 'a.id', 'vp.accountId')
      .select(['vp.id', 'vp.accountId', 'vp.platform', 'vp.dueAt'])
      .where('vp.dueAt', '>=', from)
      .where('vp.dueAt', '<', to)
      .where('vp.state', 'not in', SLOT_FREE_STATES);
    if (scope !== null) q = q.where('a.userId', '=', scope);
    if (accountId) q = q.where('vp.accountId', '=', accountId);
    return q.orderBy('vp.dueAt').execute() as Promise<PlannedPost[]>;
  }

  /** Posts with their owner (the publication's user) and state, for the queue. */
  posts(ids: readonly number[]) {
    return this.db
      .selectFrom('videoPublishes as vp')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .select(['vp.id', 'vp.videoId', 'vp.accountId', 'vp.platform', 'vp.state', 'v.userId', 'v.version'])
      .where('vp.id', 'in', ids)
      .where('v.publicationId', 'is not', null)
      .execute();
  }
}
