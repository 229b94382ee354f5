import type { Kysely, Transaction } from 'kysely';
import { PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import { QUEUE_SEARCH_DAYS, SM } from '../../src/contract/slots';
import { DEFAULT_TIME_ZONE } from '../../src/contract/time-zones';
import type { Database } from '../db/types';
import type { PostQuota } from '../platforms/adapter';
import { fieldError } from '../publications/publication-rules';
import { fitsBudget, nextSlots, type SlotRule } from './next-slots';
import type { SlotsRepository, SlotsRow } from './slots.repository';

type Exec = Kysely<Database> | Transaction<Database>;
const DAY_MS = 24 * 3600_000;

/** A stored slot row as the pure function takes it. */
export const ruleOf = (r: SlotsRow): SlotRule & { days: number[]; times: string[] } => ({
  days: JSON.parse(r.days) as number[],
  times: JSON.parse(r.times) as string[],
  minGapMinutes: Number(r.minGapMinutes),
});

/** Each platform's budget for one profile: its adapter's limits (the quota module's figures). */
export type SlotBudgets = Partial<Record<PlatformKey, PostQuota>>;

/**
 * "Add to queue" for one post: the next free slot of its profile on its platform (next-slots.ts) after `after`,
 * counting the posts already planned in the caller's transaction, so posts queued together take successive
 * slots. A profile without slots on the platform, or with none free in QUEUE_SEARCH_DAYS, is a 400 naming
 * `queue`.
 */
export class SlotPlanner {
  constructor(
    private repo: SlotsRepository,
    private budgets: SlotBudgets,
  ) {}

  budget(platform: PlatformKey): PostQuota | undefined {
    return this.budgets[platform];
  }

  /**
   * `skip`: posts being placed again (their current times are not taken); `alsoTaken`: times chosen for this
   * profile and platform in the same request that are not written yet (a CSV file's earlier rows).
   */
  async place(
    exec: Exec,
    accountId: number,
    platform: PlatformKey,
    after: Date,
    skip: readonly number[] = [],
    alsoTaken: readonly Date[] = [],
  ) {
    const args = { account: accountId, platform: PLATFORM_TITLES[platform] };
    const account = await this.repo.account(accountId, exec, true);
    const row = (await this.repo.slotsOf(accountId, exec)).find((r) => r.platform === platform);
    if (!account || !row) throw fieldError('queue', SM.noSlots, args);
    const from = new Date(after.getTime() - 2 * DAY_MS).toISOString();
    const to = new Date(after.getTime() + (QUEUE_SEARCH_DAYS + 3) * DAY_MS).toISOString();
    const planned = await this.repo.planned(accountId, platform, from, to, exec);
    const [slot] = nextSlots({
      zone: account.timeZone ?? DEFAULT_TIME_ZONE,
      rule: ruleOf(row),
      budget: this.budgets[platform],
      taken: [...planned.filter((p) => !skip.includes(p.id)).map((p) => new Date(p.dueAt)), ...alsoTaken],
      after,
      count: 1,
      searchDays: QUEUE_SEARCH_DAYS,
    });
    if (!slot) throw fieldError('queue', SM.noFreeSlot, { ...args, days: QUEUE_SEARCH_DAYS });
    return slot.toISOString();
  }

  /**
   * Whether post `id` of the profile may go out at `at` on the platform: every budget window holding `at` stays
   * within the platform's limits with the profile's other planned posts (the calendar's move re-checks this).
   */
  async fits(exec: Exec, accountId: number, platform: PlatformKey, at: Date, id: number): Promise<boolean> {
    const budget = this.budgets[platform];
    if (!budget) return true;
    await this.repo.account(accountId, exec, true);
    const from = new Date(at.getTime() - 2 * DAY_MS).toISOString();
    const to = new Date(at.getTime() + 2 * DAY_MS).toISOString();
    const planned = await this.repo.planned(accountId, platform, from, to, exec);
    const taken = planned.filter((p) => p.id !== id).map((p) => Date.parse(p.dueAt));
    return fitsBudget(budget, taken, at.getTime());
  }

  /** The most posts one window of the platform's budget holds (posts, or API units over their cost). */
  windowPosts(platform: PlatformKey): number | undefined {
    const b = this.budgets[platform];
    if (!b) return undefined;
    return b.units ? Math.min(b.posts, Math.floor(b.units.perWindow / b.units.perPost)) : b.posts;
  }
}
