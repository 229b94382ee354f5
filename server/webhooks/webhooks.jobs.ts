import { z } from 'zod';
import { defineJob, exponentialBackoff, jobWorker, PermanentJobError, type JobWorker } from '../jobs/index';
import type { WebhooksService } from './webhooks.service';

/**
 * Attempts of one webhook message: 30 s after the first failure, doubling up to 4 h between attempts, 15 in
 * all: about 26 hours of trying (an endpoint down for a day still gets it), then the job is dead.
 */
export const WEBHOOK_MAX_ATTEMPTS = 15;
export const webhookBackoff = exponentialBackoff(30_000, 4 * 3600_000);

/** Deliver one message to one webhook (server/webhooks/webhooks.subscriber.ts queues it in the event's delivery). */
export const webhookDeliverJob = defineJob({
  name: 'webhook.deliver',
  payload: z.object({
    webhookId: z.number().int(),
    messageId: z.string(),
    event: z.string(),
    body: z.string(),
  }),
  retry: { kind: 'retry', maxAttempts: WEBHOOK_MAX_ATTEMPTS, backoff: webhookBackoff },
  // A receiver misses one message: nothing in Kadr waits on it.
  cancel: { safe: true },
});

export type WebhookMessage = z.infer<typeof webhookDeliverJob.payload>;

export function webhooksJobWorkers(deps: { webhooks: WebhooksService }): JobWorker[] {
  return [
    jobWorker(webhookDeliverJob, async (message, { job }) => {
      const result = await deps.webhooks.deliver(message, job.attempts, job.maxAttempts);
      if (result === 'refused') throw new PermanentJobError('webhook address refused');
      if (result === 'failed') throw new Error('webhook delivery failed');
    }),
  ];
}
