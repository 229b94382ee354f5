/**
 * The typed job catalogue: every job name and its payload. A runner refuses to start unless it has a
 * handler for every name listed in JOB_NAMES (server/jobs/runner.ts).
 */
export type JobCatalogue = {
  /** Render every missing output of a create-video request (server/videos/render.worker.ts). */
  'video.render': { requestId: number };
  /** Refresh platform grants that would lapse unused (server/accounts/keep-alive.worker.ts). */
  'accounts.keep-alive': Record<string, never>;
};

export type JobName = keyof JobCatalogue;

export const JOB_NAMES = ['video.render', 'accounts.keep-alive'] as const satisfies readonly JobName[];

/** The idempotency key of a request's render job: one job per request, however often it is enqueued. */
export const renderJobKey = (requestId: number) => `video.render:${requestId}`;
