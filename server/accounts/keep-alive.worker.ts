import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/index';
import { createSealer } from '../crypto/seal';
import type { JobCatalogue, JobHandler, JobQueue } from '../jobs/index';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

/** One keep-alive pass per slot of this length, however many worker processes there are. */
export const KEEP_ALIVE_EVERY_MS = 6 * 3600_000;
/** How often each worker process checks whether the current slot's job is enqueued yet. */
const CHECK_EVERY_MS = 15 * 60_000;

export const keepAliveJobKey = (nowMs: number) => `accounts.keep-alive:${Math.floor(nowMs / KEEP_ALIVE_EVERY_MS)}`;

/** The 'accounts.keep-alive' job: refreshes platform grants that would lapse while nobody uses them. */
export function keepAliveHandler(deps: { db: Db; config: Config; log?: FastifyBaseLogger }): JobHandler<JobCatalogue, 'accounts.keep-alive'> {
  const accounts = new AccountsService(new AccountsRepository(deps.db), createSealer(deps.config.appKey), deps.config);
  return async () => {
    const r = await accounts.keepGrantsAlive();
    if (r.refreshed || r.failed) deps.log?.info(r, 'platform grants kept alive');
  };
}

/**
 * Enqueues the keep-alive job for the current slot now and every CHECK_EVERY_MS (the slot key makes it
 * once per slot across processes). Returns the function that stops the timer.
 */
export function scheduleKeepAlive(queue: JobQueue<JobCatalogue>, log?: FastifyBaseLogger): () => void {
  const tick = () => {
    queue.enqueue('accounts.keep-alive', {}, { key: keepAliveJobKey(Date.now()), maxAttempts: 1 })
      .catch((err) => log?.warn({ err }, 'keep-alive job could not be enqueued'));
  };
  tick();
  const timer = setInterval(tick, CHECK_EVERY_MS).unref();
  return () => clearInterval(timer);
}
