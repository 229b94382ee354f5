import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { dayBefore, dayStartMs, profileZone, statDay } from './stat-day';
import type { StatsHistoryRepository } from './stats-history.repository';

/** Hourly snapshots are kept this many days; older ones are rolled into one per day. */
export const HOURLY_KEEP_DAYS = 14;

export type RollUpLimits = { postsPerBatch: number; batchesPerRun: number };
export const DEFAULT_ROLLUP_LIMITS: RollUpLimits = { postsPerBatch: 100, batchesPerRun: 50 };

/**
 * Where the roll-up cuts for profiles in `zone` at `nowMs`: the start, in that zone, of the day 14 days before
 * its today. A local day is never split, whatever its length (23 or 25 hours on a clock change).
 */
export const rollUpCut = (nowMs: number, zone: string) =>
  dayStartMs(dayBefore(statDay(nowMs, zone), HOURLY_KEEP_DAYS), zone);

/**
 * The roll-up pass (job `analytics.rollup`): posts with hourly snapshots older than 14 days get one snapshot per
 * day of their profile's time zone, zone by zone, each zone cut at its own day's start (`rollUpCut`). A batch of posts at a time, each post in its own short
 * transaction, yielding to the event loop between posts, so the workers' other jobs never wait on it; a pass
 * that does not finish leaves the rest to the next one.
 */
export class StatsRollUp {
  constructor(
    private history: StatsHistoryRepository,
    private limits: RollUpLimits = DEFAULT_ROLLUP_LIMITS,
    private now: () => Date = () => new Date(),
  ) {}

  async run(signal?: AbortSignal): Promise<{ posts: number; removed: number }> {
    const nowMs = this.now().getTime();
    let posts = 0;
    let removed = 0;
    let batches = 0;
    for (const stored of await this.history.zones()) {
      const zone = profileZone(stored);
      const cutMs = rollUpCut(nowMs, zone);
      for (; batches < this.limits.batchesPerRun && !signal?.aborted; batches++) {
        const ids = await this.history.postsToRollUp(stored, cutMs, this.limits.postsPerBatch);
        if (!ids.length) break;
        for (const id of ids) {
          if (signal?.aborted) break;
          removed += await this.history.rollUpPost(id, cutMs, zone);
          posts++;
          await yieldToLoop();
        }
      }
    }
    return { posts, removed };
  }
}
