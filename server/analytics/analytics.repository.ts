import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import { dayBefore } from './stat-day';

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
 * (`accounts.user_id`, whose days are `user_stat_days`), a post's for its video's owner (`videos.user_id`). The
 * dashboard reads the smallest table that answers each figure (migration 045): its series and totals the owners'
 * days, its top profiles the running totals (two index reads per profile × platform), its top videos each post's
 * latest totals (046: at most one index read per post).
 */
export class AnalyticsRepository {
  constructor(private db: Kysely<Database>) {}

  private sums(table: 'd' | 'p') {
    return SUMS.map((k) => sql<number | string | null>`sum(${sql.ref(`${table}.${k}`)})`.as(k));
  }

  /** Per day and platform, what the profiles of the owners in scope grew by, from `from` to `to` (both included). */
  ownerDays(scope: number | null, from: string, to: string) {
    let q = this.db
      .selectFrom('userStatDays as d')
      .select(['d.day', 'd.platform'])
      .select(this.sums('d'))
      .where('d.day', '>=', from)
      .where('d.day', '<=', to)
      .groupBy(['d.day', 'd.platform'])
      .orderBy('d.day')
      .orderBy('d.platform');
    if (scope !== null) q = q.where('d.userId', '=', scope);
    return q.execute() as Promise<({ day: string; platform: string } & Sums)[]>;
  }

  /** Per day and platform, what one profile grew by, from `from` to `to` (both included). */
  profileDays(accountId: number, from: string, to: string) {
    return this.db
      .selectFrom('profileStatDays as d')
      .select(['d.day', 'd.platform'])
      .select(this.sums('d'))
      .where('d.accountId', '=', accountId)
      .where('d.day', '>=', from)
      .where('d.day', '<=', to)
      .groupBy(['d.day', 'd.platform'])
      .orderBy('d.day')
      .orderBy('d.platform')
      .execute() as Promise<({ day: string; platform: string } & Sums)[]>;
  }

  /**
   * The profiles in scope that grew most in views over the range, on `platforms` (those with days in the range):
   * ranked by the running totals (per profile × platform, the total at its last day in the range less the one
   * before the range: two index reads each, whatever the range's length), then their five sums over the range.
   */
  async topProfiles(scope: number | null, from: string, to: string, platforms: string[], limit: number) {
    if (!platforms.length) return [];
    const total = (platform: string, range: 'in' | 'before') =>
      sql<
        number | null
      >`(select t.views_total from profile_stat_days t where t.account_id = a.id and t.platform = ${platform} and ${
        range === 'in' ? sql`t.day >= ${from} and t.day <= ${to}` : sql`t.day < ${from}`
      } order by t.day desc limit 1)`;
    const grew = sql.join(
      platforms.map((p) => sql`coalesce(${total(p, 'in')} - coalesce(${total(p, 'before')}, 0), 0)`),
      sql` + `,
    );
    const present = sql.join(
      platforms.map((p) => sql`${total(p, 'in')} is not null`),
      sql` or `,
    );
    let ranked = this.db
      .selectFrom('accounts as a')
      .select(['a.id as accountId', ...PROFILE_COLUMNS])
      .where(sql<boolean>`(${present})`)
      .orderBy(sql`${grew}`, 'desc')
      .orderBy('a.id')
      .limit(limit);
    if (scope !== null) ranked = ranked.where('a.userId', '=', scope);
    const top = await ranked.execute();
    if (!top.length) return [];
    const sums = await this.db
      .selectFrom('profileStatDays as d')
      .select('d.accountId')
      .select(this.sums('d'))
      .where(
        'd.accountId',
        'in',
        top.map((p) => p.accountId),
      )
      .where('d.day', '>=', from)
      .where('d.day', '<=', to)
      .groupBy('d.accountId')
      .execute();
    const of = new Map(sums.map((r) => [r.accountId, r]));
    return top.map((p) => ({ ...p, ...of.get(p.accountId)! }));
  }

  /**
   * The videos in scope that grew most in views over the range (all their platforms together), ranked from each
   * post's latest totals (`post_stat_latest`, 046) without reading its days one post at a time:
   * - a post whose latest day is before the range has no day in it and adds nothing (a video with none such is
   *   left out);
   * - one whose latest day is in the range grew by its latest totals less its running total before the range:
   *   none when its first day is in the range, else its day just before the range (one range of the index by day
   *   for every post, joined), else (no read that day) its last day before the range, read from its days;
   * - one whose latest day is after the range (a zone further east than the range's end, rare): both ends read
   *   from its days.
   * Then the top ones' titles and five sums over the range.
   */
  async topVideos(scope: number | null, from: string, to: string, limit: number) {
    const before = dayBefore(from, 1);
    const totalIn = sql`(select t.views_total from post_stat_days t where t.publish_id = l.publish_id and t.day >= ${from} and t.day <= ${to} order by t.day desc limit 1)`;
    const totalBefore = sql`coalesce((select t.views_total from post_stat_days t where t.publish_id = l.publish_id and t.day < ${from} order by t.day desc limit 1), 0)`;
    const grew = sql<number | null>`sum(case
      when l.day < ${from} then null
      when l.day <= ${to} then l.views_total - case when l.first_day >= ${from} then 0 when b.publish_id is not null then b.views_total else ${totalBefore} end
      else ${totalIn} - ${totalBefore} end)`;
    let ranked = this.db
      .selectFrom('postStatLatest as l')
      .innerJoin('videoPublishes as vp', 'vp.id', 'l.publishId')
      .leftJoin('postStatDays as b', (j) => j.onRef('b.publishId', '=', 'l.publishId').on('b.day', '=', before))
      .select(['vp.videoId', grew.as('grew')])
      .groupBy('vp.videoId')
      .orderBy(sql`grew desc nulls last`)
      .orderBy('vp.videoId')
      .limit(limit);
    if (scope !== null) ranked = ranked.innerJoin('videos as v', 'v.id', 'vp.videoId').where('v.userId', '=', scope);
    const top = (await ranked.execute()).filter((v) => v.grew !== null).map((v) => v.videoId);
    if (!top.length) return [];
    const rows = await this.db
      .selectFrom('postStatDays as p')
      .innerJoin('videoPublishes as vp', 'vp.id', 'p.publishId')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .select(['v.id as videoId', 'v.publicationId', 'v.title'])
      .select(this.sums('p'))
      .where('v.id', 'in', top)
      .where('p.day', '>=', from)
      .where('p.day', '<=', to)
      .groupBy(['v.id', 'v.publicationId', 'v.title'])
      .execute();
    const of = new Map(rows.map((r) => [r.videoId, r]));
    return top.map((id) => of.get(id)!);
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
