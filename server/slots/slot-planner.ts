import type { Kysely, Transaction } from 'kysely';
import { PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import { QUEUE_SEARCH_DAYS, SM } from '../../src/contract/slots';
import { DEFAULT_TIME_ZONE } from '../../src/contract/time-zones';
import type { Database } from '../db/types';
import type { PostQuota } from '../platforms/adapter';
import { fieldError } from '../publications/publication-rules';
import { nextSlots, type SlotRule } from './next-slots';
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

  async place(exec: Exec, accountId: number, platform: PlatformKey, after: Date, skip: readonly number[] = []) {
    const args = { account: accountId, platform: PLATFORM_TITLES[platform] };
    const account = await this.repo.account(accountId, exec);
    const row = (await this.repo.slotsOf(accountId, exec)).find((r) => r.platform === platform);
    if (!account || !row) throw fieldError('queue', SM.noSlots, args);
    const from = new Date(after.getTime() - 2 * DAY_MS).toISOString();
    const to = new Date(after.getTime() + (QUEUE_SEARCH_DAYS + 3) * DAY_MS).toISOString();
    const planned = await this.repo.planned(accountId, platform, from, to, exec);
    const [slot] = nextSlots({
      zone: account.timeZone ?? DEFAULT_TIME_ZONE,
      rule: ruleOf(row),
      budget: this.budgets[platform],
      taken: planned.filter((p) => !skip.includes(p.id)).map((p) => new Date(p.dueAt)),
      after,
      count: 1,
      searchDays: QUEUE_SEARCH_DAYS,
    });
    if (!slot) throw fieldError('queue', SM.noFreeSlot, { ...args, days: QUEUE_SEARCH_DAYS });
    return slot.toISOString();
  }
}
