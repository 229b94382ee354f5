import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { dayBefore, dayStartMs, statDay } from './stat-day';
import type { StatsHistoryRepository } from './stats-history.repository';

/** Hourly snapshots are kept this many days; older ones are rolled into one per day. */
export const HOURLY_KEEP_DAYS = 14;

export type RollUpLimits = { postsPerBatch: number; batchesPerRun: number };
export const DEFAULT_ROLLUP_LIMITS: RollUpLimits = { postsPerBatch: 100, batchesPerRun: 50 };

/**
 * The roll-up pass (job `analytics.rollup`): posts with hourly snapshots older than 14 days (cut at a day's
 * start, so a day is never split) get one snapshot per day. A batch of posts at a time, each post in its own short
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
    const cutMs = dayStartMs(dayBefore(statDay(this.now().getTime()), HOURLY_KEEP_DAYS));
    let posts = 0;
    let removed = 0;
    for (let b = 0; b < this.limits.batchesPerRun && !signal?.aborted; b++) {
      const ids = await this.history.postsToRollUp(cutMs, this.limits.postsPerBatch);
      if (!ids.length) break;
      for (const id of ids) {
        if (signal?.aborted) break;
        removed += await this.history.rollUpPost(id, cutMs);
        posts++;
        await yieldToLoop();
      }
    }
    return { posts, removed };
  }
}
