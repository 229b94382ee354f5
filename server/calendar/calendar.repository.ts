import { sql, type Kysely } from 'kysely';
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

/**
 * The calendar's reads: one range query over `video_publishes.due_at` (index video_publishes_due, 027), joined to
 * its video (title, publication, and its owner, the publication's: a user sees only their own) and the profile
 * (its name). Posts of videos taken out of their publication are not posts any more; cancelled ones are left out
 * unless the state filter names them. The month view reads the same range, only ids and instants (drawnQuery).
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
   * The month view's read: the range's posts (the same filters and owner rule) with only their id and the instant
   * each is drawn at (published, else due); the service puts them in days (calendar-days.ts). It walks the
   * due-time index like the range query.
   */
  drawnQuery(scope: number | null, q: CalendarParams) {
    return this.filtered(scope, q).select(['vp.id', drawnAt().as('at')]);
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

/** The instant a post is drawn at: when it went public, else when it is due. */
const drawnAt = () => sql<string>`coalesce(${sql.ref('vp.publishedAt')}, ${sql.ref('vp.dueAt')})`;
