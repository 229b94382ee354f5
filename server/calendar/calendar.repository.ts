import type { Kysely } from 'kysely';
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
 * unless the state filter names them.
 */
export class CalendarRepository {
  constructor(private db: Kysely<Database>) {}

  posts(scope: number | null, q: CalendarParams, limit: number): Promise<CalendarRow[]> {
    return this.rangeQuery(scope, q, limit).execute();
  }

  /** The range query itself (its plan is checked on both databases: it walks video_publishes_due). */
  rangeQuery(scope: number | null, q: CalendarParams, limit: number) {
    let query = this.select().where('vp.dueAt', '>=', q.start).where('vp.dueAt', '<', q.end);
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
    return query.orderBy('vp.dueAt').orderBy('vp.id').limit(limit);
  }

  /** One post, with its owner and its video's profile and version (what a move needs). */
  post(id: number) {
    return this.select()
      .select(['v.userId', 'v.accountId as videoAccountId', 'v.version'])
      .where('vp.id', '=', id)
      .executeTakeFirst();
  }

  private select() {
    return this.db
      .selectFrom('videoPublishes as vp')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
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
      ])
      .where('v.publicationId', 'is not', null);
  }
}
