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
import { PublishRepository } from './publish.repository';
import { DEFAULT_QUOTA_LIMITS, PublishQuota, type QuotaLimits } from './publish.quota';
import { PublishMedia } from './publish.media';
import { DEFAULT_PUBLISH_TIMING, type PublishTiming } from './publish.steps';
import { PublishWorker } from './publish.worker';
import { PublishStats } from './publish.stats';
import { publishJobWorkers } from './publish.jobs';
import { tiktokSteps } from './publish.tiktok';
import { instagramSteps } from './publish.instagram';
import { youtubeSteps, youtubeStatsReader } from './publish.youtube';

/** Where a test changes publishing's clocks and limits (poll intervals, budgets, chunk sizes, quotas). */
export type PublishingOverrides = { publishTiming?: Partial<PublishTiming>; quotaLimits?: Partial<QuotaLimits> };

/** Publishing's parts, built once by the composition root (server/container.ts). */
export function buildPublishing(
  deps: {
    config: Config;
    db: Db;
    sealer: Sealer;
    media: Media;
    ffmpeg: Ffmpeg;
    queue: JobQueue;
    repos: { accounts: AccountsRepository };
    connections: PlatformConnections;
    events: EventBus;
    log?: FastifyBaseLogger;
  },
  overrides: PublishingOverrides = {},
) {
  const { config, db, log } = deps;
  const repo = new PublishRepository(db);
  const quota = new PublishQuota(db, { ...DEFAULT_QUOTA_LIMITS, ...overrides.quotaLimits });
  const media = new PublishMedia(deps.media, deps.ffmpeg, () => config.publicUrl);
  const timing = { ...DEFAULT_PUBLISH_TIMING, ...overrides.publishTiming };
  const p = config.platforms;
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
    steps: {
      youtube: youtubeSteps(p.youtube.baseUrls),
      tiktok: tiktokSteps(p.tiktok.baseUrls),
      instagram: instagramSteps({ baseUrls: p.instagram.baseUrls, graphVersion: p.instagram.graphVersion }),
    },
    log,
  });
  const stats = new PublishStats({
    repo,
    accounts: deps.repos.accounts,
    connections: deps.connections,
    quota,
    platforms: p,
    youtube: youtubeStatsReader(p.youtube.baseUrls),
    log,
  });
  return { repo, quota, media, worker, stats, timing, workers: publishJobWorkers({ worker, stats, log }) };
}
