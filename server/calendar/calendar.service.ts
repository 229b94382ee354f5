import { actorOf, record } from '../audit/audit';
import type { Acting } from '../auth/guards';
import {
  CALENDAR_DAY_POSTS,
  CALENDAR_POSTS_MAX,
  CM,
  isMovable,
  type CalendarAnswer,
  type CalendarDaysAnswer,
  type CalendarDaysParams,
  type CalendarParams,
  type CalendarPost,
} from '../../src/contract/calendar';
import type { AuthUser } from '../../src/contract/auth';
import { PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import { horizonEnd, PM, type PublishState } from '../../src/contract/publications';
import { profileHandles, profileText } from '../../src/contract/profile-identity';
import { ownerScope } from '../auth/guards';
import type { Db } from '../db/index';
import { notFound } from '../http/errors';
import { fieldError } from '../publications/publication-rules';
import type { PublicationSchedule } from '../publications/publication-schedule';
import type { PublicationsRepository } from '../publications/publications.repository';
import type { SlotPlanner } from '../slots/slot-planner';
import type { VideosRepository } from '../videos/videos.repository';
import { firstOfDays, rangeDays } from './calendar-days';
import type { CalendarRepository, CalendarRow } from './calendar.repository';

const toPost = (r: CalendarRow): CalendarPost => ({
  id: r.id,
  videoId: r.videoId,
  publicationId: r.publicationId ?? 0,
  accountId: r.accountId,
  profile: r.accountId ? profileText({ id: r.accountId, comments: r.comments, handles: profileHandles(r) }) : '',
  // Channel names may be alike (three profiles of one channel): the id and the operator's name tell them apart.
  profileLabel: r.accountId ? profileText({ id: r.accountId, comments: r.comments }, true) : '',
  platform: r.platform as PlatformKey,
  state: r.state as PublishState,
  dueAt: r.dueAt,
  publishedAt: r.publishedAt,
  title: r.title ?? '',
  repeatOf: Number(r.repeatOf),
});

/**
 * The calendar (issue 21 item 1): the posts due in a range, a user's own only (an admin's all), and a post moved
 * to another time. A move goes through the publications' own schedule (PublicationSchedule.schedule: the row's
 * queued jobs cancelled, its due time set, its chain's next step enqueued at the new time, in one transaction),
 * so a moved post is published by the worker at its new time exactly as a freshly scheduled one.
 */
export class CalendarService {
  constructor(
    private repo: CalendarRepository,
    private deps: {
      db: Db;
      publications: PublicationsRepository;
      videos: VideosRepository;
      schedule: PublicationSchedule;
      horizonDays: number;
      planner: SlotPlanner;
    },
  ) {}

  async posts(user: AuthUser, q: CalendarParams): Promise<CalendarAnswer> {
    const rows = await this.repo.posts(ownerScope(user), q, CALENDAR_POSTS_MAX + 1);
    return { data: rows.slice(0, CALENDAR_POSTS_MAX).map(toPost), truncated: rows.length > CALENDAR_POSTS_MAX };
  }

  /**
   * GET /api/calendar/days: the month view's answer. The range's posts (the same filters and owner rule) put in the
   * days of `zone` they are drawn in, each day with its first CALENDAR_DAY_POSTS posts in the calendar's order and
   * its count; a day's full list is GET /api/calendar/posts with the day's drawnStart/drawnEnd.
   */
  async days(user: AuthUser, q: CalendarDaysParams): Promise<CalendarDaysAnswer> {
    const { keys, bounds } = rangeDays(q.start, q.end, q.zone);
    const heads = firstOfDays(await this.repo.drawnQuery(ownerScope(user), q).execute(), bounds, CALENDAR_DAY_POSTS);
    const rows = new Map((await this.repo.byIds(heads.flatMap((h) => h.ids))).map((r) => [r.id, r]));
    return {
      zone: q.zone,
      days: heads.map((h) => ({
        day: keys[h.day]!,
        start: bounds[h.day]!,
        end: bounds[h.day + 1]!,
        count: h.count,
        posts: h.ids.flatMap((id) => {
          const row = rows.get(id);
          return row ? [toPost(row)] : [];
        }),
      })),
    };
  }

  /**
   * POST /api/calendar/posts/:id/move {at}: a post that has not started going out (scheduled, or waiting for a
   * quota) is due at `at` instead. A date in the past or beyond the horizon is refused; so is a post on its way
   * or done, and so is a time where the profile's posts on that platform would exceed the platform's budget (the
   * same windows the slots' queue keeps to). The state is read again inside the transaction that moves it.
   */
  async move(user: Acting, id: number, at: string): Promise<CalendarPost> {
    const post = await this.repo.post(id);
    const scope = ownerScope(user);
    if (!post || (scope !== null && post.userId !== scope)) throw notFound();
    const ms = Date.parse(at);
    const days = this.deps.horizonDays;
    if (ms <= Date.now()) throw fieldError('at', CM.inThePast);
    if (ms > horizonEnd(days, Date.now())) throw fieldError('at', PM.beyondHorizon, { days });
    const dueAt = new Date(ms).toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      const rows = await this.deps.publications.publishes([post.videoId], trx);
      const row = rows.find((r) => r.id === id);
      if (!row || !isMovable(row.state) || !post.videoAccountId) throw fieldError('at', CM.notMovable);
      const platform = row.platform as PlatformKey;
      if (!(await this.deps.planner.fits(trx, post.videoAccountId, platform, new Date(ms), id)))
        throw fieldError('at', CM.overBudget, {
          account: post.videoAccountId,
          platform: PLATFORM_TITLES[platform],
          posts: this.deps.planner.windowPosts(platform) ?? 0,
        });
      const video = { id: post.videoId, accountId: post.videoAccountId, version: Number(post.version) };
      await this.deps.schedule.schedule(trx, video, row.platform, dueAt, row);
      // The video's own date (the publication screen's, and what an edit re-dates its posts to) follows when
      // all its posts now go out together.
      const live = rows.filter((r) => r.id !== id && r.state !== 'cancelled');
      if (live.every((r) => r.dueAt === dueAt)) await this.deps.videos.update(trx, post.videoId, { date: dueAt });
      await this.deps.schedule.refreshVideo(trx, post.videoId);
      await record(trx, {
        ...actorOf(user),
        action: 'publication.moved',
        objectType: 'post',
        objectId: id,
        detail: { video: post.videoId, platform: row.platform, from: row.dueAt, to: dueAt },
      });
    });
    return toPost((await this.repo.post(id))!);
  }
}
