import type { Container } from './container';
import type { JobRunner } from './jobs/index';
import { planRunner, type RunnerPlan } from './jobs/runner-plan';
import { schedulePrune } from './jobs/prune';
import { sweepWork } from './videos/index';
import { renderJob } from './videos/videos.jobs';
import { keepAliveJob, proxyCheckJob, scheduleKeepAlive } from './accounts/accounts.jobs';
import { PUBLISH_CONCURRENCY, publishJob, scheduleStats, statsJob } from './publishing/publishing.jobs';
import { aiVideoJob } from './ai/ai.jobs';
import { scheduleRetention } from './retention/retention.jobs';
import { scheduleRollUp } from './analytics/analytics.jobs';
import { webhookDeliverJob } from './webhooks/webhooks.jobs';

/** The running workers; `stop` aborts running jobs and hands them back to the queue. */
export type Workers = { runner: JobRunner; plan: RunnerPlan; stop: () => Promise<void> };

/**
 * Jobs of a kind one process runs at once unless WORKER_CONCURRENCY says otherwise. One render at a time: its
 * outputs already use RENDER_CONCURRENCY ffmpeg processes. Publishing and AI video generation wait on the
 * network, not the CPU, so several run at once; each kind has its own slots, so a long render never holds a
 * post back.
 */
export const DEFAULT_CONCURRENCY: Readonly<Record<string, number>> = {
  [renderJob.name]: 1,
  [keepAliveJob.name]: 1,
  // Each waits on one exchange through a proxy (the platform timeout at most).
  [proxyCheckJob.name]: 4,
  [publishJob.name]: PUBLISH_CONCURRENCY,
  [statsJob.name]: PUBLISH_CONCURRENCY,
  [aiVideoJob.name]: PUBLISH_CONCURRENCY,
  // Waits on the receivers' answers (10 s at most each).
  [webhookDeliverJob.name]: 4,
};

/** This process's runner plan: WORKER_KINDS and WORKER_CONCURRENCY over the catalogue (errors name the variable). */
export function workerPlan(root: Pick<Container, 'config' | 'jobs'>): RunnerPlan {
  return planRunner(
    root.jobs.catalogue.map((j) => j.name),
    DEFAULT_CONCURRENCY,
    { kinds: root.config.workerKinds, concurrency: root.config.workerConcurrency },
  );
}

/**
 * The workers of a `worker` or `all` process (main.ts): stray render folders and orphan media files are swept,
 * one runner takes the kinds of its plan with their per-kind limits, timers enqueue the platform-grant
 * keep-alive, the hourly stats, the stats roll-up and the media retention pass, and finished jobs past JOBS_KEEP_FINISHED (dead ones past JOBS_KEEP_DEAD) are
 * pruned in small batches. More processes (or machines on PostgreSQL) may run the same thing; the queue
 * keeps them apart.
 */
export async function startWorkers(
  root: Container,
  settings: { pollMs?: number; plan?: RunnerPlan } = {},
): Promise<Workers> {
  const { log } = root;
  const plan = settings.plan ?? workerPlan(root);
  await sweepWork(root.repos.videos, root.renderWorkRoot);
  void root
    .sweepOrphanMedia()
    .then((removed) => {
      if (removed.length) log?.info({ removed: removed.length }, 'orphan media files removed');
    })
    .catch((err) => log?.warn({ err }, 'orphan media sweep failed'));
  const sweepUploads = () =>
    void root
      .sweepStaleUploads()
      .then((aborted) => {
        if (aborted.length) log?.info({ aborted: aborted.length }, 'stale multipart uploads aborted');
      })
      .catch((err) => log?.warn({ err }, 'stale multipart upload sweep failed'));
  sweepUploads();
  // Hourly too: a worker killed mid-upload while this one runs leaves an upload that turns stale later.
  const uploadSweeps = setInterval(sweepUploads, 3600_000);
  uploadSweeps.unref();
  const catalogue = root.jobs.catalogue.filter((j) => plan.kinds.includes(j.name));
  const runner = root.createJobRunner({ pollMs: settings.pollMs, catalogue, limits: plan.limits }).start();
  const stopKeepAlive = scheduleKeepAlive(root.queue.enqueue, log);
  const stopStats = scheduleStats(root.queue.enqueue, log);
  const stopPrune = schedulePrune(root.queue, root.config.jobsKeep, log);
  const stopRetention = scheduleRetention(root.queue.enqueue, log);
  const stopRollUp = scheduleRollUp(root.queue.enqueue, log);
  return {
    runner,
    plan,
    stop: async () => {
      clearInterval(uploadSweeps);
      stopKeepAlive();
      stopStats();
      stopRetention();
      stopRollUp();
      await Promise.all([runner.stop(), stopPrune()]);
    },
  };
}
