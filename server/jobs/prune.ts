import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from './queue';

/** Rows one prune statement removes at most: a batch is a few milliseconds, so no worker waits on it. */
export const PRUNE_BATCH = 500;
/** How often a worker process prunes. */
export const PRUNE_EVERY_MS = 60_000;
/** Batches one pass removes at most, so a backlog (an upgrade onto a large table) is worked off over passes. */
export const PRUNE_MAX_BATCHES = 200;

/** How long finished and dead jobs are kept (JOBS_KEEP_FINISHED, JOBS_KEEP_DEAD). */
export type KeepJobs = { finishedMs: number; deadMs: number };

/**
 * One pass of the queue's prune (issue 20 item 4): done jobs finished more than `keep.finishedMs` ago and dead jobs
 * more than `keep.deadMs` ago are removed, PRUNE_BATCH at a time, each batch its own statement (so its own short
 * transaction), the event loop getting its turn between batches; answers how many were removed.
 */
export async function pruneJobs(
  queue: Pick<JobQueue, 'prune'>,
  keep: KeepJobs,
  now: number,
  opts: { batch?: number; maxBatches?: number; stopped?: () => boolean } = {},
): Promise<number> {
  const { batch = PRUNE_BATCH, maxBatches = PRUNE_MAX_BATCHES, stopped = () => false } = opts;
  let removed = 0;
  let batches = 0;
  for (const [status, before] of [
    ['done', now - keep.finishedMs],
    ['dead', now - keep.deadMs],
  ] as const) {
    for (;;) {
      if (stopped() || batches >= maxBatches) return removed;
      const n = await queue.prune(status, before, batch);
      removed += n;
      batches++;
      if (n < batch) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return removed;
}

/**
 * A pass now and every PRUNE_EVERY_MS in a worker process (server/workers.ts); every worker process prunes, and
 * the batches skip one another. The returned stop clears the timer and waits for a running pass to end.
 */
export function schedulePrune(
  queue: Pick<JobQueue, 'prune'>,
  keep: KeepJobs,
  log?: FastifyBaseLogger,
  everyMs = PRUNE_EVERY_MS,
): () => Promise<void> {
  let stopped = false;
  let pass: Promise<void> | undefined;
  const tick = () => {
    if (pass || stopped) return;
    pass = pruneJobs(queue, keep, Date.now(), { stopped: () => stopped })
      .then((removed) => {
        if (removed) log?.info({ removed }, 'finished jobs pruned');
      })
      .catch((err) => log?.warn({ err }, 'job prune failed'))
      .finally(() => {
        pass = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs).unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await pass;
  };
}
