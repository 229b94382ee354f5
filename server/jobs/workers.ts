import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, DbKind } from '../db/index';
import { sweepOrphans, type Media, type Storage } from '../media/storage/index';
import { BackgroundsRepository } from '../backgrounds/backgrounds.repository';
import { VideosRepository } from '../videos/videos.repository';
import { JOB_NAMES, type JobCatalogue } from './catalogue';
import { JobQueue } from './queue';
import { JobRunner } from './runner';
import { renderDead, renderHandler, sweepWork } from '../videos/render.worker';
import type { RenderEngine } from '../videos/render-engine';
import { mediaRenderEngine } from '../videos/media-render-engine';
import { keepAliveHandler, scheduleKeepAlive } from '../accounts/keep-alive.worker';

/** The running workers; `stop` aborts running jobs and hands them back to the queue. */
export type Workers = { runner: JobRunner<JobCatalogue>; stop: () => Promise<void> };

export type WorkerDeps = {
  db: Db; kind: DbKind; media: Media; log?: FastifyBaseLogger;
  config: Config;
  engine?: RenderEngine;
};

/**
 * Media files under the keys the app writes (backgrounds/, clips/, videos/) that no row names any more,
 * once they are ORPHAN_MIN_AGE_MS old: left by a crash between a file's move into place and its row's commit.
 */
export function sweepOrphanMedia(db: Db, storage: Storage, opts?: { minAgeMs?: number; now?: number }): Promise<string[]> {
  const backgrounds = new BackgroundsRepository(db);
  const videos = new VideosRepository(db);
  return sweepOrphans(storage, ['backgrounds', 'clips', 'videos'], async (keys) => {
    const [a, b] = await Promise.all([backgrounds.knownKeys(keys), videos.knownKeys(keys)]);
    return new Set([...a, ...b]);
  }, opts);
}

/** Local scratch space of renders (same filesystem as data/media, so a finished file moves in by rename). */
export const renderWorkRoot = (dataDir: string) => join(dataDir, 'work', 'render');

/**
 * The in-process workers (main.ts starts them when WORKERS=on): one runner over the whole job catalogue,
 * and the timer that enqueues the platform-grant keep-alive. More processes (or machines on PostgreSQL) may
 * run the same thing; the queue keeps them apart.
 */
export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const workRoot = renderWorkRoot(deps.config.dataDir);
  await sweepWork(deps.db, workRoot);
  void sweepOrphanMedia(deps.db, deps.media.storage)
    .then((removed) => { if (removed.length) deps.log?.info({ removed: removed.length }, 'orphan media files removed'); })
    .catch((err) => deps.log?.warn({ err }, 'orphan media sweep failed'));
  const queue = new JobQueue<JobCatalogue>(deps.db, deps.kind);
  const runner = new JobRunner<JobCatalogue>({
    queue,
    names: JOB_NAMES,
    handlers: {
      'video.render': renderHandler({
        db: deps.db, media: deps.media, engine: deps.engine ?? mediaRenderEngine(deps.config), workRoot,
        concurrency: deps.config.renderConcurrency, log: deps.log,
      }),
      'accounts.keep-alive': keepAliveHandler(deps),
    },
    onDead: { 'video.render': renderDead({ db: deps.db, workRoot }) },
    // One request at a time per process: its outputs already use renderConcurrency ffmpeg processes.
    concurrency: 1,
    leaseMs: deps.config.jobLeaseSec * 1000,
    pollMs: deps.config.jobPollMs,
    log: deps.log,
  });
  runner.start();
  const stopKeepAlive = scheduleKeepAlive(queue, deps.log);
  return { runner, stop: async () => { stopKeepAlive(); await runner.stop(); } };
}
