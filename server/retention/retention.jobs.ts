import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { defineJob, jobWorker, schedulePeriodic, slotJobKey, type Enqueue, type JobWorker } from '../jobs/index';
import type { RetentionService } from './retention.service';

/** One retention pass per slot of this length, however many worker processes there are. */
export const RETENTION_EVERY_MS = 3600_000;
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * Measure stored media and remove what the retention rules let go (docs/retention.md). Never retried: the next
 * slot's pass goes on from where this one stopped, and every delete it made is already recorded on its row.
 */
export const retentionJob = defineJob({
  name: 'media.retention',
  payload: z.object({}).strict(),
  retry: { kind: 'never' },
  // Nothing waits on one pass: the next slot's pass does the same work.
  cancel: { safe: true },
});

export const retentionJobKey = slotJobKey(retentionJob, RETENTION_EVERY_MS);

export function retentionJobWorkers(deps: { retention: RetentionService; log?: FastifyBaseLogger }): JobWorker[] {
  return [
    jobWorker(retentionJob, async () => {
      const r = await deps.retention.run();
      if (r.measured || r.clipsRemoved || r.videosRemoved || r.deleteFailed) deps.log?.info(r, 'media retention pass');
    }),
  ];
}

/** Enqueues the current slot's pass now and every few minutes (the slot key makes it once per slot). */
export function scheduleRetention(enqueue: Enqueue, log?: FastifyBaseLogger): () => void {
  return schedulePeriodic(enqueue, retentionJob, retentionJobKey, CHECK_EVERY_MS, log);
}
