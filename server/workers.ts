import type { Container } from './container';
import type { JobRunner } from './jobs/index';
import { sweepWork } from './videos/index';
import { scheduleKeepAlive } from './accounts/accounts.jobs';
import { publishJob } from './publications/publications.jobs';
import { PUBLISH_CONCURRENCY, scheduleStats, statsJob } from './publications/publish.jobs';
import { aiVideoJob } from './ai/ai.jobs';
import { scheduleRetention } from './media/retention/retention.jobs';

/** The running workers; `stop` aborts running jobs and hands them back to the queue. */
export type Workers = { runner: JobRunner; stop: () => Promise<void> };

/**
 * The in-process workers (main.ts starts them when WORKERS=on): stray render folders and orphan media files
 * are swept, one runner takes the whole job catalogue, and timers enqueue the platform-grant keep-alive, the stats
 * pass and the media retention pass.
 * More processes (or machines on PostgreSQL) may run the same thing; the queue keeps them apart.
 */
export async function startWorkers(root: Container, settings: { pollMs?: number } = {}): Promise<Workers> {
  const { log } = root;
  await sweepWork(root.repos.videos, root.renderWorkRoot);
  void root
    .sweepOrphanMedia()
    .then((removed) => {
      if (removed.length) log?.info({ removed: removed.length }, 'orphan media files removed');
    })
    .catch((err) => log?.warn({ err }, 'orphan media sweep failed'));
  // One job at a time per process: a render's outputs already use renderConcurrency ffmpeg processes.
  // Publishing waits on the network, not the CPU: its own runner, so a long render never holds a post back.
  // AI video generation waits on a provider too: it runs with publishing.
  const publishKinds: string[] = [publishJob.name, statsJob.name, aiVideoJob.name];
  const catalogue = root.jobs.catalogue.filter((j) => !publishKinds.includes(j.name));
  const runner = root.createJobRunner({ concurrency: 1, ...settings, catalogue }).start();
  const publisher = root
    .createJobRunner({ concurrency: PUBLISH_CONCURRENCY, ...settings, catalogue: [publishJob, statsJob, aiVideoJob] })
    .start();
  const stopKeepAlive = scheduleKeepAlive(root.queue.enqueue, log);
  const stopStats = scheduleStats(root.queue.enqueue, log);
  const stopRetention = scheduleRetention(root.queue.enqueue, log);
  return {
    runner,
    stop: async () => {
      stopKeepAlive();
      stopStats();
      stopRetention();
      await Promise.all([runner.stop(), publisher.stop()]);
    },
  };
}
