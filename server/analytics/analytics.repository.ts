import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';

/** Sums of the five counters, named as the contract names them. */
const SUMS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;
type Sums = Record<(typeof SUMS)[number], number | string | null>;

/** The profile's name columns (named by src/contract/profile-identity.ts; its comment apart from the counters'). */
const PROFILE_COLUMNS = [
  'a.comments as profileComments',
  'a.titleChannel',
  'a.titleTikTok',
  'a.profileNameInstagram',
] as const;

/**
 * The analytics' reads (issue 22): sums of daily increments over a range of days, never of snapshots. Each
 * profile's days are its own time zone's (as StatsHistoryRepository wrote them): a sum across profiles adds each
 * one's local days.
 * `scope` is the owner's user id (null: an admin, everyone): a profile's days count for its owner
 * (`accounts.user_id`), a post's for its video's owner (`videos.user_id`). Each query reads one range of one
 * index (profile_stat_days_day, post_stat_days_day; migration 033).
 */
export class AnalyticsRepository {
  constructor(private db: Kysely<Database>) {}

  private sums(table: 'd' | 'p') {
    return SUMS.map((k) => sql<number | string | null>`sum(${sql.ref(`${table}.${k}`)})`.as(k));
  }

  /** Per day and platform, what every profile in scope grew by, from `from` to `to` (both included). */
  profileDays(scope: number | null, from: string, to: string, accountId?: number) {
    let q = this.db
      .selectFrom('profileStatDays as d')
      .innerJoin('accounts as a', 'a.id', 'd.accountId')
      .select(['d.day', 'd.platform'])
      .select(this.sums('d'))
      .where('d.day', '>=', from)
      .where('d.day', '<=', to)
      .groupBy(['d.day', 'd.platform'])
      .orderBy('d.day')
      .orderBy('d.platform');
    if (scope !== null) q = q.where('a.userId', '=', scope);
    if (accountId !== undefined) q = q.where('d.accountId', '=', accountId);
    return q.execute() as Promise<({ day: string; platform: string } & Sums)[]>;
  }

  /** The profiles in scope that grew most in views over the range. */
  topProfiles(scope: number | null, from: string, to: string, limit: number) {
    let q = this.db
      .selectFrom('profileStatDays as d')
      .innerJoin('accounts as a', 'a.id', 'd.accountId')
      .select(['d.accountId', ...PROFILE_COLUMNS])
      .select(this.sums('d'))
      .where('d.day', '>=', from)
      .where('d.day', '<=', to)
      .groupBy(['d.accountId', 'a.comments', 'a.titleChannel', 'a.titleTikTok', 'a.profileNameInstagram'])
      .orderBy(sql`sum(d.views)`, 'desc')
      .orderBy('d.accountId')
      .limit(limit);
    if (scope !== null) q = q.where('a.userId', '=', scope);
    return q.execute();
  }

  /**
   * The videos in scope that grew most in views over the range (all their platforms together): the range is
   * summed per post first (one walk of post_stat_days_day), then posts are joined to their videos.
   */
  topVideos(scope: number | null, from: string, to: string, limit: number) {
    const perPost = this.db
      .selectFrom('postStatDays as p')
      .select('p.publishId')
      .select(this.sums('p'))
      .where('p.day', '>=', from)
      .where('p.day', '<=', to)
      .groupBy('p.publishId')
      .as('s');
    let q = this.db
      .selectFrom(perPost)
      .innerJoin('videoPublishes as vp', 'vp.id', 's.publishId')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .select(['v.id as videoId', 'v.publicationId', 'v.title'])
      .select(SUMS.map((k) => sql<number | string | null>`sum(${sql.ref(`s.${k}`)})`.as(k)))
      .groupBy(['v.id', 'v.publicationId', 'v.title'])
      .orderBy(sql`sum(s.views)`, 'desc')
      .orderBy('v.id')
      .limit(limit);
    if (scope !== null) q = q.where('v.userId', '=', scope);
    return q.execute();
  }

  /** The owner of a publication (undefined: there is none). */
  publicationOwner(id: number) {
    return this.db.selectFrom('publications').select('userId').where('id', '=', id).executeTakeFirst();
  }

  /** The owner of a profile, and its time zone (its stats days are counted in it). */
  profileOwner(id: number) {
    return this.db.selectFrom('accounts').select(['userId', 'timeZone']).where('id', '=', id).executeTakeFirst();
  }

  /** The time zones of the profiles in scope (null: a profile without one). */
  async profileZones(scope: number | null): Promise<(string | null)[]> {
    let q = this.db.selectFrom('accounts').select('timeZone').distinct();
    if (scope !== null) q = q.where('userId', '=', scope);
    return (await q.execute()).map((r) => r.timeZone);
  }

  /** The time zones of the profiles a publication's posts went to. */
  async publicationZones(publicationId: number): Promise<(string | null)[]> {
    const rows = await this.db
      .selectFrom('videoPublishes as vp')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .innerJoin('accounts as a', 'a.id', 'vp.accountId')
      .select('a.timeZone')
      .distinct()
      .where('v.publicationId', '=', publicationId)
      .execute();
    return rows.map((r) => r.timeZone);
  }

  /** Per day and platform, what a publication's posts grew by, over their whole history. */
  publicationDays(publicationId: number) {
    return this.db
      .selectFrom('postStatDays as p')
      .innerJoin('videoPublishes as vp', 'vp.id', 'p.publishId')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .select(['p.day', 'vp.platform'])
      .select(this.sums('p'))
      .where('v.publicationId', '=', publicationId)
      .groupBy(['p.day', 'vp.platform'])
      .orderBy('p.day')
      .orderBy('vp.platform')
      .execute() as Promise<({ day: string; platform: string } & Sums)[]>;
  }

  /** What a profile grew by before `from` (the running total's start). */
  async profileBefore(accountId: number, from: string) {
    return this.db
      .selectFrom('profileStatDays as d')
      .select(['d.platform'])
      .select(this.sums('d'))
      .where('d.accountId', '=', accountId)
      .where('d.day', '<', from)
      .groupBy('d.platform')
      .execute();
  }

  /** A create-video request with its owner and options, and its outputs. */
  request(id: number) {
    return this.db
      .selectFrom('createVideoRequests')
      .select(['id', 'userId', 'idUpload', 'isPhoto', 'isVideo', 'isGenerator'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The posts of a request's outputs (published or not), with their profile. */
  requestPosts(requestId: number) {
    return this.db
      .selectFrom('videos as v')
      .leftJoin('videoPublishes as vp', (j) => j.onRef('vp.videoId', '=', 'v.id').on('vp.state', '=', 'published'))
      .leftJoin('accounts as a', 'a.id', 'vp.accountId')
      .select([
        'v.id as videoId',
        'v.outputIndex',
        'v.title',
        'vp.id as publishId',
        'vp.platform',
        'vp.accountId',
        'vp.publishedAt',
        'vp.views',
        'vp.likes',
        'vp.comments',
        ...PROFILE_COLUMNS,
      ])
      .where('v.requestId', '=', requestId)
      .orderBy('v.outputIndex')
      .orderBy('vp.id')
      .execute();
  }

  /** A post's views at `atMs`: its last snapshot at or before then (undefined: none yet). */
  async viewsAt(publishId: number, atMs: number): Promise<number | undefined> {
    const r = await this.db
      .selectFrom('postStats')
      .select('views')
      .where('publishId', '=', publishId)
      .where('atMs', '<=', atMs)
      .orderBy('atMs', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? Number(r.views) : undefined;
  }
}
