import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { defineJob, jobWorker, schedulePeriodic, slotJobKey, type Enqueue, type JobWorker } from '../jobs/index';
import type { StatsRollUp } from './stats-rollup';

/** One roll-up pass per slot of this length, however many worker processes there are. */
export const ROLLUP_EVERY_MS = 3600_000;
const CHECK_EVERY_MS = 5 * 60_000;

/** Roll hourly stats snapshots older than 14 days into daily ones. Never retried: the next slot's pass goes on. */
export const rollUpJob = defineJob({
  name: 'analytics.rollup',
  payload: z.object({}).strict(),
  retry: { kind: 'never' },
  // Nothing waits on one pass: each post is rolled in its own transaction, the next pass does the rest.
  cancel: { safe: true },
});

export const rollUpJobKey = slotJobKey(rollUpJob, ROLLUP_EVERY_MS);

export function analyticsJobWorkers(deps: { rollUp: StatsRollUp; log?: FastifyBaseLogger }): JobWorker[] {
  return [
    jobWorker(rollUpJob, async (_p, ctx) => {
      const r = await deps.rollUp.run(ctx.signal);
      if (r.posts) deps.log?.info(r, 'stats snapshots rolled up');
    }),
  ];
}

/** Enqueues the current slot's pass now and every few minutes (the slot key makes it once per slot). */
export function scheduleRollUp(enqueue: Enqueue, log?: FastifyBaseLogger): () => void {
  return schedulePeriodic(enqueue, rollUpJob, rollUpJobKey, CHECK_EVERY_MS, log);
}
