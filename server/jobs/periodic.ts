import type { FastifyBaseLogger } from 'fastify';
import type { JobSpec } from './job';
import type { Enqueue } from './queue';

/** A job without a payload that runs once per slot of time (a pass: keep-alive, stats, retention). */
type PeriodicJob = JobSpec<string, Record<string, never>>;

/** The key of `job`'s run in the slot of length `everyMs` that a moment falls in: one run per slot. */
export const slotJobKey =
  (job: PeriodicJob, everyMs: number) =>
  (nowMs: number): string =>
    `${job.name}:${Math.floor(nowMs / everyMs)}`;

/**
 * Enqueues the current slot's run of `job` (its key from `keyOf`) now and every `checkEveryMs`: the slot key makes
 * it once per slot, however many worker processes check. Returns the function that stops the timer.
 */
export function schedulePeriodic(
  enqueue: Enqueue,
  job: PeriodicJob,
  keyOf: (nowMs: number) => string,
  checkEveryMs: number,
  log?: FastifyBaseLogger,
): () => void {
  const tick = () => {
    enqueue(job, {}, { key: keyOf(Date.now()) }).catch((err) =>
      log?.warn({ err, job: job.name }, 'periodic job could not be enqueued'),
    );
  };
  tick();
  const timer = setInterval(tick, checkEveryMs).unref();
  return () => clearInterval(timer);
}
