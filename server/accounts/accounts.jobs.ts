import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { defineJob, jobWorker, schedulePeriodic, slotJobKey, type Enqueue, type JobWorker } from '../jobs/index';
import type { KeepAliveService } from './keep-alive.service';
import type { PlatformConnections } from './platform-connections';

/** One keep-alive pass per slot of this length, however many worker processes there are. */
export const KEEP_ALIVE_EVERY_MS = 6 * 3600_000;
/** How often each worker process checks whether the current slot's job is enqueued yet. */
const CHECK_EVERY_MS = 15 * 60_000;

/**
 * Refresh platform grants that would lapse unused. Never retried: the next slot's pass does the work again,
 * and a refused refresh is already stored on its profile.
 */
export const keepAliveJob = defineJob({
  name: 'accounts.keep-alive',
  payload: z.object({}).strict(),
  retry: { kind: 'never' },
  // Nothing waits on one pass: the next slot's pass refreshes the same grants.
  cancel: { safe: true },
});

export const keepAliveJobKey = slotJobKey(keepAliveJob, KEEP_ALIVE_EVERY_MS);

/**
 * Check a profile's proxy once it is set or changed (server/accounts/accounts.service.ts queues it with the save),
 * so a dead proxy shows on the profile at once, not at its first post. Never retried: the check writes what it
 * found, and a check that could not tell (the platform down) leaves it to the next call through the proxy.
 */
export const proxyCheckJob = defineJob({
  name: 'accounts.proxy-check',
  payload: z.object({ accountId: z.number().int() }),
  retry: { kind: 'never' },
  // Nothing waits on it: the profile's next platform call finds the same.
  cancel: { safe: true },
});

/** The accounts domain's jobs with their handlers. */
export function accountsJobWorkers(deps: {
  keepAlive: KeepAliveService;
  connections: PlatformConnections;
  log?: FastifyBaseLogger;
}): JobWorker[] {
  return [
    jobWorker(keepAliveJob, async () => {
      const r = await deps.keepAlive.keepGrantsAlive();
      if (r.refreshed || r.failed) deps.log?.info(r, 'platform grants kept alive');
    }),
    jobWorker(proxyCheckJob, async ({ accountId }) => {
      const found = await deps.connections.checkProxy(accountId);
      deps.log?.info({ accountId, found }, 'profile proxy checked');
    }),
  ];
}

/**
 * Enqueues the keep-alive job for the current slot now and every CHECK_EVERY_MS (the slot key makes it
 * once per slot across processes). Returns the function that stops the timer.
 */
export function scheduleKeepAlive(enqueue: Enqueue, log?: FastifyBaseLogger): () => void {
  return schedulePeriodic(enqueue, keepAliveJob, keepAliveJobKey, CHECK_EVERY_MS, log);
}
