import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/index';
import type { Sealer } from '../crypto/seal';
import type { EventBus } from '../events/event-bus';
import type { Ffmpeg } from '../media/ffmpeg/ffmpeg';
import type { Media } from '../media/storage/index';
import type { JobQueue } from '../jobs/index';
import type { AccountsRepository } from '../accounts/accounts.repository';
import type { PlatformConnections } from '../accounts/platform-connections';
import type { PublishingRepository } from './publishing.repository';
import type { PublishTiming } from '../platforms/publish-step';
import { adaptersOf, type PlatformRegistry } from '../platforms/registry';
import { PublishQuota } from './publish.quota';
import { PublishMedia } from './publish.media';
import { PublishWorker } from './publish.worker';
import { PublishStats } from './publish.stats';
import { publishJobWorkers } from './publishing.jobs';
import { StatsHistoryRepository } from '../analytics/stats-history.repository';

export const DEFAULT_PUBLISH_TIMING: PublishTiming = {
  pollMs: 15_000,
  containerPollMs: 60_000,
  processingBudgetMs: 30 * 60_000,
  backoffMs: 30_000,
  maxFaults: 6,
  progressEveryMs: 1_000,
};

/**
 * Where a test changes publishing's clocks (poll intervals, budgets, chunk sizes); a platform's limits are its
 * adapter's (a test changes them through the registry it hands the root).
 */
export type PublishingOverrides = { publishTiming?: Partial<PublishTiming> };

/** Publishing's parts, built once by the composition root (server/container.ts). */
export function buildPublishing(
  deps: {
    config: Config;
    db: Db;
    sealer: Sealer;
    media: Media;
    ffmpeg: Ffmpeg;
    queue: JobQueue;
    repos: { accounts: AccountsRepository; posts: PublishingRepository };
    connections: PlatformConnections;
    events: EventBus;
    platforms: PlatformRegistry;
    log?: FastifyBaseLogger;
  },
  overrides: PublishingOverrides = {},
) {
  const { config, db, log } = deps;
  const repo = deps.repos.posts;
  const quota = new PublishQuota(db, Object.fromEntries(adaptersOf(deps.platforms).map((a) => [a.id, a.limits])));
  const media = new PublishMedia(deps.media, deps.ffmpeg, () => config.publicUrl);
  const timing = { ...DEFAULT_PUBLISH_TIMING, ...overrides.publishTiming };
  const worker = new PublishWorker({
    repo,
    events: deps.events,
    accounts: deps.repos.accounts,
    connections: deps.connections,
    quota,
    media,
    sealer: deps.sealer,
    enqueue: deps.queue.enqueue,
    timing,
    platforms: deps.platforms,
    log,
  });
  const stats = new PublishStats({
    repo,
    accounts: deps.repos.accounts,
    connections: deps.connections,
    quota,
    platforms: deps.platforms,
    history: new StatsHistoryRepository(db),
    log,
  });
  return { repo, quota, media, worker, stats, timing, workers: publishJobWorkers({ worker, stats, log }) };
}
