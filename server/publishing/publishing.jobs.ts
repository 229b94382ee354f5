import type { FastifyBaseLogger } from 'fastify';
import { sql, type Expression, type Transaction } from 'kysely';
import { z } from 'zod';
import { JM } from '../../src/contract/jobs';
import type { Database } from '../db/types';
import {
  defineJob,
  jobWorker,
  schedulePeriodic,
  slotJobKey,
  type ClaimedJob,
  type Enqueue,
  type JobWorker,
} from '../jobs/index';
import type { PublishingRepository } from './publishing.repository';
import type { PublishWorker } from './publish.worker';
import type { PublishStats } from './publish.stats';

/**
 * Publish one video to one platform: walks its `video_publishes` row (src/contract/publications.ts
 * PUBLISH_STATES) from where it stands. Never retried blindly by the queue: the handler records each step and
 * schedules its own next look (a later job) for the read-only steps; the step that makes a post public is
 * reconciled with the platform after an unknown outcome, never repeated.
 */
export const publishJob = defineJob({
  name: 'publication.publish',
  payload: z.object({ publishId: z.number().int().positive(), step: z.number().int().min(0) }),
  retry: { kind: 'never' },
  // The step belongs to the post's publishing chain: the post's own cancel stops it with the worker's consent.
  cancel: { safe: false, reason: JM.cancelPublish },
});

/** One job per publish row and step: enqueueing the same step twice is a no-op. */
export const publishJobKey = (publishId: number, step: number) => `${publishJob.name}:${publishId}:${step}`;

/** publishJobKey in SQL, of a post's id and step as the query has them (a post's lookup joins its step's job by it). */
export const publishJobKeySql = (publishId: Expression<number>, step: Expression<number>) =>
  sql<string>`${`${publishJob.name}:`} || CAST(${publishId} AS text) || ':' || CAST(${step} AS text)`;

/**
 * Where a step queued by the worker comes from: the running step it follows and the row's progress mark then
 * (the queue's stall rule: a step queued at or before its predecessor's time with the row unchanged made no
 * progress, waits longer each time, and ends dead).
 */
export type PublishChain = { after: ClaimedJob; progress: string };

/**
 * Queues step `step` of the publish row's chain at `runAt` (its due date for the first step) and records it on
 * the row (video_publishes.step), both in `trx`: call it in the transaction that writes the row, so a row is
 * never left without its job. A row whose chain is already past `step` (a re-publish or a moved date started a
 * newer one) is left as it is and nothing is queued. Answers whether a job was queued.
 */
export async function enqueuePublishStep(
  deps: { enqueue: Enqueue; posts: PublishingRepository },
  trx: Transaction<Database>,
  publishId: number,
  step: number,
  runAt: Date,
  chain?: PublishChain,
): Promise<boolean> {
  if (!(await deps.posts.recordStep(trx, publishId, step))) return false;
  const opts = { key: publishJobKey(publishId, step), runAt, ...chain };
  return deps.enqueue(publishJob, { publishId, step }, opts, trx);
}

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

export const statsJobKey = slotJobKey(statsJob, STATS_EVERY_MS);

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
  return schedulePeriodic(enqueue, statsJob, statsJobKey, CHECK_EVERY_MS, log);
}
