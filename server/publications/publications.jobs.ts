import { JM } from '../../src/contract/jobs';
import { z } from 'zod';
import { defineJob, type ClaimedJob, type Enqueue } from '../jobs/index';
import type { Database } from '../db/types';
import type { Kysely, Transaction } from 'kysely';

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

/** Every job key of a publish row starts with this; the step follows. */
export const publishJobKeyPrefix = (publishId: number) => `${publishJob.name}:${publishId}:`;

/** One job per publish row and step: enqueueing the same step twice is a no-op. */
export const publishJobKey = (publishId: number, step: number) => `${publishJobKeyPrefix(publishId)}${step}`;

/** The highest step among job keys of one publish row (-1 when there is none). */
export const highestPublishStep = (publishId: number, keys: readonly string[]): number =>
  keys.reduce((m, k) => {
    const step = Number(k.slice(publishJobKeyPrefix(publishId).length));
    return Number.isInteger(step) ? Math.max(m, step) : m;
  }, -1);

/**
 * Where a step queued by the worker comes from: the running step it follows and the row's progress mark then
 * (the queue's stall rule: a step queued at or before its predecessor's time with the row unchanged made no
 * progress, waits longer each time, and ends dead).
 */
export type PublishChain = { after: ClaimedJob; progress: string };

/**
 * Queues the publish row's next step at `runAt` (its due date for the first step). Call it in the same
 * transaction that writes the row, so a row is never left without its job.
 */
export function enqueuePublishStep(
  enqueue: Enqueue,
  row: { id: number },
  step: number,
  runAt: Date,
  trx?: Transaction<Database> | Kysely<Database>,
  chain?: PublishChain,
): Promise<boolean> {
  const opts = { key: publishJobKey(row.id, step), runAt, ...chain };
  return enqueue(publishJob, { publishId: row.id, step }, opts, trx);
}
