import { JM } from '../../src/contract/jobs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineJob, exponentialBackoff, jobWorker, type JobWorker } from '../jobs/index';
import { renderDead, renderHandler, type RenderDeps } from './render.worker';

/** Render every missing output of a create-video request: 3 attempts, then the request turns 'error'. */
export const renderJob = defineJob({
  name: 'video.render',
  payload: z.object({ requestId: z.number().int().positive() }),
  retry: { kind: 'retry', maxAttempts: 3, backoff: exponentialBackoff() },
  // Its create-video request would wait for outputs that no job renders any more.
  cancel: { safe: false, reason: JM.cancelRender },
});

/** The idempotency key of a request's render job: one job per request, however often it is enqueued. */
export const renderJobKey = (requestId: number) => `${renderJob.name}:${requestId}`;

/** Local scratch space of renders (same filesystem as data/media, so a finished file moves in by rename). */
export const renderWorkRoot = (dataDir: string) => join(dataDir, 'work', 'render');

/** The videos domain's jobs with their handlers (the composition root gives them their dependencies). */
export const videosJobWorkers = (deps: RenderDeps): JobWorker[] => [
  jobWorker(renderJob, renderHandler(deps), renderDead(deps)),
];
