import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CalendarParams } from '../../src/contract/calendar';
import type { Database } from '../db/types';

/** One post as read for the calendar, before its profile is named. */
export type CalendarRow = {
  id: number;
  videoId: number;
  publicationId: number | null;
  accountId: number | null;
  platform: string;
  state: string;
  dueAt: string;
  publishedAt: string | null;
  /** 037: the live post an allowed repeat repeats (0: none). */
  repeatOf: number | string;
  title: string | null;
  comments: string | null;
  titleChannel: string | null;
  titleTikTok: string | null;
  profileNameInstagram: string | null;
};

/** A post's place in the month view: its day (an index into the asked days), rank in the day, and the day's count. */
export type DayHead = { id: number; day: number; rank: number | string; count: number | string };

/**
 * The calendar's reads: one range query over `video_publishes.due_at` (index video_publishes_due, 027), joined to
 * its video (title, publication, and its owner, the publication's: a user sees only their own) and the profile
 * (its name). Posts of videos taken out of their publication are not posts any more; cancelled ones are left out
 * unless the state filter names them. The month view reads the same range cut into days (dayHeads).
 */
export class CalendarRepository {
  constructor(private db: Kysely<Database>) {}

  posts(scope: number | null, q: CalendarParams, limit: number): Promise<CalendarRow[]> {
    return this.rangeQuery(scope, q, limit).execute();
  }

  /** The range query itself (its plan is checked on both databases: it walks video_publishes_due). */
  rangeQuery(scope: number | null, q: CalendarParams, limit: number) {
    return this.named(this.filtered(scope, q)).orderBy('vp.dueAt').orderBy('vp.id').limit(limit);
  }

  /** These posts, in full (a month's first posts of each day). */
  byIds(ids: number[]): Promise<CalendarRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.named(this.from()).where('vp.id', 'in', ids).execute();
  }

  /**
   * The month view's read: the same range and filters, each post put in the day it is drawn in (its published,
   * else due, instant against `bounds`: the days' first instants, then the range's end), ranked in its day as the
   * calendar draws (by that instant, then id) and counted per day (window functions, on both databases); only the
   * first `perDay` of each day come back. The range still walks video_publishes_due; the day is found by halving
   * (dayOf).
   */
  dayHeads(scope: number | null, q: CalendarParams, bounds: string[], perDay: number) {
    const at = drawnAt();
    const day = dayOf(at, bounds);
    const placed = this.filtered(scope, q).select(['vp.id', at.as('at'), day.as('day')]);
    const ranked = this.db
      .selectFrom(placed.as('p'))
      .select([
        'p.id',
        'p.day',
        sql<number>`row_number() over (partition by ${sql.ref('p.day')} order by ${sql.ref('p.at')}, ${sql.ref('p.id')})`.as(
          'rank',
        ),
        sql<number>`count(*) over (partition by ${sql.ref('p.day')})`.as('count'),
      ])
      .where('p.day', '>=', 0);
    return this.db
      .selectFrom(ranked.as('r'))
      .selectAll()
      .where('r.rank', '<=', perDay)
      .orderBy('r.day')
      .orderBy('r.rank');
  }

  /** One post, with its owner and its video's profile and version (what a move needs). */
  post(id: number) {
    return this.named(this.from())
      .select(['v.userId', 'v.accountId as videoAccountId', 'v.version'])
      .where('vp.id', '=', id)
      .executeTakeFirst();
  }

  /** The range and the filters: the owner (scope), profile, group, platform, state, and the drawn day if asked. */
  private filtered(scope: number | null, q: CalendarParams) {
    let query = this.from().where('vp.dueAt', '>=', q.start).where('vp.dueAt', '<', q.end);
    if (scope !== null) query = query.where('v.userId', '=', scope);
    if (q.accountId) query = query.where('vp.accountId', '=', q.accountId);
    if (q.groupId) {
      const group = q.groupId;
      query = query.where('vp.accountId', 'in', (s) =>
        s.selectFrom('groupAccounts').select('accountId').where('groupId', '=', group),
      );
    }
    if (q.platform.length) query = query.where('vp.platform', 'in', q.platform);
    query = q.state.length ? query.where('vp.state', 'in', q.state) : query.where('vp.state', '!=', 'cancelled');
    if (q.drawnStart) query = query.where(drawnAt(), '>=', q.drawnStart);
    if (q.drawnEnd) query = query.where(drawnAt(), '<', q.drawnEnd);
    return query;
  }

  /** Posts of videos in a publication (a video taken out of its publication has no posts any more). */
  private from() {
    return this.db
      .selectFrom('videoPublishes as vp')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .where('v.publicationId', 'is not', null);
  }

  private named<Q extends ReturnType<CalendarRepository['from']>>(query: Q) {
    return query
      .leftJoin('accounts as a', 'a.id', 'vp.accountId')
      .select([
        'vp.id',
        'vp.videoId',
        'v.publicationId',
        'vp.accountId',
        'vp.platform',
        'vp.state',
        'vp.dueAt',
        'vp.publishedAt',
        'vp.repeatOf',
        'v.title',
        'a.comments',
        'a.titleChannel',
        'a.titleTikTok',
        'a.profileNameInstagram',
      ]);
  }
}

/**
 * The index of the day `at` falls in (day i is [bounds[i], bounds[i + 1])), -1 outside them all: a CASE that halves
 * the days at each step (a handful of comparisons a post, not one a day).
 */
function dayOf(at: RawBuilder<string>, bounds: string[]): RawBuilder<number> {
  const inside = (lo: number, hi: number): RawBuilder<number> => {
    // at is in [bounds[lo], bounds[hi]): one day, or halve.
    if (hi - lo === 1) return sql<number>`${sql.lit(lo)}`;
    const mid = (lo + hi) >> 1;
    return sql<number>`case when ${at} < ${bounds[mid]} then ${inside(lo, mid)} else ${inside(mid, hi)} end`;
  };
  return sql<number>`case when ${at} < ${bounds[0]} or ${at} >= ${bounds.at(-1)} then -1 else ${inside(0, bounds.length - 1)} end`;
}

/** The instant a post is drawn at: when it went public, else when it is due. */
const drawnAt = () => sql<string>`coalesce(${sql.ref('vp.publishedAt')}, ${sql.ref('vp.dueAt')})`;
