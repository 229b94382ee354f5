import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { defineJob, jobWorker, type Enqueue, type JobWorker } from '../jobs/index';
import { publishJob } from './publications.jobs';
import type { PublishWorker } from './publish.worker';
import type { PublishStats } from './publish.stats';

/** One stats pass per slot of this length, however many worker processes there are. */
export const STATS_EVERY_MS = 3600_000;
const CHECK_EVERY_MS = 5 * 60_000;

/** Read views, likes and comments of published videos. Never retried: the next slot's pass reads again. */
export const statsJob = defineJob({
  name: 'publication.stats',
  payload: z.object({}).strict(),
  retry: { kind: 'never' },
  // Nothing waits on one pass: the next slot's pass reads again.
  cancel: { safe: true },
});

export const statsJobKey = (nowMs: number) => `${statsJob.name}:${Math.floor(nowMs / STATS_EVERY_MS)}`;

/** Publish jobs run several at once per process: they wait on the network, not on the CPU. */
export const PUBLISH_CONCURRENCY = 4;

/** The publishing jobs with their handlers (the composition root gives them their dependencies). */
export function publishJobWorkers(deps: {
  worker: PublishWorker;
  stats: PublishStats;
  log?: FastifyBaseLogger;
}): JobWorker[] {
  return [
    jobWorker(publishJob, deps.worker.handle, deps.worker.onDead),
    jobWorker(statsJob, async () => {
      const r = await deps.stats.run();
      if (r.read || r.failed) deps.log?.info(r, 'publication stats read');
    }),
  ];
}

/** Enqueues the current slot's stats pass now and every few minutes (the slot key makes it once per slot). */
export function scheduleStats(enqueue: Enqueue, log?: FastifyBaseLogger): () => void {
  const tick = () => {
    enqueue(statsJob, {}, { key: statsJobKey(Date.now()) }).catch((err) =>
      log?.warn({ err }, 'stats job could not be enqueued'),
    );
  };
  tick();
  const timer = setInterval(tick, CHECK_EVERY_MS).unref();
  return () => clearInterval(timer);
}
