import { JM } from '../../src/contract/jobs';
import { z } from 'zod';
import { defineJob, type ClaimedJob, type Enqueue } from '../jobs/index';
import type { Database } from '../db/types';
import type { Transaction } from 'kysely';

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
  enqueue: Enqueue,
  trx: Transaction<Database>,
  publishId: number,
  step: number,
  runAt: Date,
  chain?: PublishChain,
): Promise<boolean> {
  const r = await trx
    .updateTable('videoPublishes')
    .set({ step })
    .where('id', '=', publishId)
    .where('step', '<=', step)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  return enqueue(publishJob, { publishId, step }, { key: publishJobKey(publishId, step), runAt, ...chain }, trx);
}
