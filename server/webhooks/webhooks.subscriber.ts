import { WEBHOOK_EVENTS } from '../../src/contract/webhooks';
import type { Enqueue } from '../jobs/index';
import type { EventSubscriber } from '../events/subscriber';
import { webhookDeliverJob } from './webhooks.jobs';
import type { WebhooksRepository } from './webhooks.repository';
import { messageBody } from './webhooks.service';

/**
 * Hears the events webhooks may register for (src/contract/webhooks.ts WEBHOOK_EVENTS) and queues one
 * `webhook.deliver` job per webhook that hears it, in the event's delivery transaction: the jobs commit with the
 * delivery, once. The message id (`msg_<event>_<webhook>`) is the job's key, so it is queued once and every retry
 * carries the same id (receivers dedupe by it).
 */
export function webhooksSubscriber(repo: WebhooksRepository, enqueue: Enqueue, now = Date.now): EventSubscriber {
  return {
    name: 'webhooks',
    events: WEBHOOK_EVENTS,
    async handle(event, { trx }) {
      const hooks = await repo.listeners(trx, event.name, event.userId);
      for (const w of hooks) {
        const messageId = `msg_${event.id}_${w.id}`;
        await enqueue(
          webhookDeliverJob,
          { webhookId: w.id, messageId, event: event.name, body: messageBody(event.name, event.payload, now()) },
          { key: `webhook:${messageId}` },
          trx,
        );
      }
    },
  };
}
