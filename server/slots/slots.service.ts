import type { AuthUser } from '../../src/contract/auth';
import type { PlatformKey } from '../../src/contract/platforms';
import { isMovable } from '../../src/contract/calendar';
import {
  SM,
  type Capacity,
  type CapacityDay,
  type OverDays,
  type ProfileSlots,
  type Queued,
  type SlotsInput,
} from '../../src/contract/slots';
import { dayKey, DEFAULT_TIME_ZONE, wallOf } from '../../src/contract/time-zones';
import { ownerScope } from '../auth/guards';
import type { Db } from '../db/index';
import { notFound } from '../http/errors';
import { fieldError } from '../publications/publication-rules';
import type { PublicationSchedule } from '../publications/publication-schedule';
import type { PublicationsRepository } from '../publications/publications.repository';
import { fitsBudget } from './next-slots';
import { ruleOf, type SlotPlanner } from './slot-planner';
import type { SlotsRepository } from './slots.repository';

const DAY_MS = 24 * 3600_000;

/**
 * Posting slots (issue 21 item 3): a profile's weekly slots per platform (its owner's or an admin's to change),
 * "add to queue" for posts that have not started going out (each moved to its profile's next free slot through
 * the publications' own schedule, as the calendar's move does), and the capacity view (per profile, local day
 * and platform: what is planned against the platform's budget).
 */
export class SlotsService {
  constructor(
    private repo: SlotsRepository,
    private deps: {
      db: Db;
      planner: SlotPlanner;
      publications: PublicationsRepository;
      schedule: PublicationSchedule;
    },
  ) {}

  /** The profile, when the user may plan it (its owner, or an admin). */
  private async account(user: AuthUser, accountId: number) {
    const a = await this.repo.account(accountId);
    const scope = ownerScope(user);
    if (!a || (scope !== null && a.userId !== scope)) throw notFound();
    return a;
  }

  async get(user: AuthUser, accountId: number): Promise<ProfileSlots> {
    const a = await this.account(user, accountId);
    const rows = await this.repo.slotsOf(accountId);
    return {
      accountId,
      timeZone: a.timeZone ?? DEFAULT_TIME_ZONE,
      slots: rows.map((r) => ({ accountId, platform: r.platform as PlatformKey, ...ruleOf(r) })),
    };
  }

  async save(user: AuthUser, accountId: number, platform: PlatformKey, input: Required<SlotsInput>) {
    await this.account(user, accountId);
    const days = [...new Set(input.days)].sort();
    const times = [...new Set(input.times)].sort();
    await this.repo.save({
      accountId,
      platform,
      days: JSON.stringify(days),
      times: JSON.stringify(times),
      minGapMinutes: input.minGapMinutes,
    });
    return this.get(user, accountId);
  }

  async remove(user: AuthUser, accountId: number, platform: PlatformKey) {
    await this.account(user, accountId);
    if (!(await this.repo.remove(accountId, platform))) throw notFound();
    return this.get(user, accountId);
  }

  /**
   * POST /api/slots/queue {posts}: each post (scheduled, or waiting for a quota) moves to its profile's next free
   * slot on its platform after now, in the order given, all in one transaction (all placed or none).
   */
  async queue(user: AuthUser, ids: number[]): Promise<Queued> {
    const unique = [...new Set(ids)];
    const posts = await this.repo.posts(unique);
    const scope = ownerScope(user);
    const byId = new Map(posts.map((p) => [p.id, p]));
    unique.forEach((id, i) => {
      const p = byId.get(id);
      if (!p || (scope !== null && p.userId !== scope)) throw fieldError(`posts.${i}`, SM.notQueueable, { id });
    });
    const now = new Date();
    const placed: Queued['data'] = [];
    await this.deps.db.transaction().execute(async (trx) => {
      for (const [i, id] of unique.entries()) {
        const post = byId.get(id)!;
        const rows = await this.deps.publications.publishes([post.videoId], trx);
        const row = rows.find((r) => r.id === id);
        if (!row || !isMovable(row.state) || !post.accountId) throw fieldError(`posts.${i}`, SM.notQueueable, { id });
        const platform = row.platform as PlatformKey;
        const dueAt = await this.deps.planner.place(trx, post.accountId, platform, now, unique.slice(i));
        const video = { id: post.videoId, accountId: post.accountId, version: Number(post.version) };
        await this.deps.schedule.schedule(trx, video, platform, dueAt, row);
        await this.deps.schedule.refreshVideo(trx, post.videoId);
        placed.push({ id, dueAt });
      }
    });
    return { data: placed };
  }

  /**
   * GET /api/slots/capacity: per profile, day (in the profile's zone) and platform, the posts planned and the
   * API units they spend against the platform's budget for one profile. A day is over when it holds more than
   * a window allows, or when one of its posts sits in a window (YouTube's Pacific quota day, or any rolling
   * 24 h) that holds more than the budget.
   */
  async capacity(user: AuthUser, q: { start: string; end: string; accountId?: number | undefined }): Promise<Capacity> {
    if (q.accountId) await this.account(user, q.accountId);
    const from = new Date(Date.parse(q.start) - DAY_MS).toISOString();
    const to = new Date(Date.parse(q.end) + DAY_MS).toISOString();
    const posts = await this.repo.plannedInRange(ownerScope(user), from, to, q.accountId);
    const zones = new Map(
      (await this.repo.zones([...new Set(posts.map((p) => p.accountId))])).map((a) => [
        a.id,
        a.timeZone ?? DEFAULT_TIME_ZONE,
      ]),
    );
    const series = new Map<string, number[]>();
    for (const p of posts) {
      const key = `${p.accountId}|${p.platform}`;
      const times = series.get(key);
      if (times) times.push(Date.parse(p.dueAt));
      else series.set(key, [Date.parse(p.dueAt)]);
    }
    const days = new Map<string, CapacityDay>();
    const [start, end] = [Date.parse(q.start), Date.parse(q.end)];
    for (const p of posts) {
      const at = Date.parse(p.dueAt);
      if (at < start || at >= end) continue;
      const platform = p.platform as PlatformKey;
      const zone = zones.get(p.accountId) ?? DEFAULT_TIME_ZONE;
      const day = dayKey(wallOf(zone, at));
      const key = `${p.accountId}|${day}|${platform}`;
      const budget = this.deps.planner.budget(platform);
      const d = days.get(key) ?? {
        accountId: p.accountId,
        timeZone: zone,
        day,
        platform,
        posts: 0,
        postsLimit: budget?.posts ?? 0,
        units: 0,
        unitsLimit: budget?.units?.perWindow ?? 0,
        over: false,
      };
      d.posts += 1;
      d.units += budget?.units?.perPost ?? 0;
      const all = series.get(`${p.accountId}|${platform}`)!;
      const others = all.filter((_, i) => i !== all.indexOf(at));
      const overWindow = budget ? !fitsBudget(budget, others, at) : false;
      d.over =
        d.over || overWindow || (budget ? d.posts > budget.posts : false) || d.units > (d.unitsLimit || Infinity);
      days.set(key, d);
    }
    return { data: [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || a.accountId - b.accountId) };
  }

  /**
   * GET /api/slots/over-days: the days capacity's answer marks over (any profile or platform), each once: the
   * calendar shades these and needs nothing else of that answer.
   */
  async overDays(user: AuthUser, q: { start: string; end: string; accountId?: number | undefined }): Promise<OverDays> {
    const { data } = await this.capacity(user, q);
    return { days: [...new Set(data.filter((d) => d.over).map((d) => d.day))] };
  }
}
