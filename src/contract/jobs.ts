import { z } from 'zod';

/**
 * The operator's view of the job queue (issue 20 item 6): GET /api/jobs, /api/jobs/summary, POST
 * /api/jobs/{id}/retry and /cancel, admin-only. A job's state as the screen shows it: the queue's status, with a
 * queued job that has failed before (it carries the reason and waits for its next attempt) told apart as
 * `retrying`.
 */
export const JOB_STATES = ['queued', 'running', 'retrying', 'dead', 'done'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The states an operator may retry (run again now) a job from. */
export const RETRYABLE_STATES: readonly JobState[] = ['dead', 'retrying'];

/** Job messages (i18n keys). */
export const JM = {
  notRetryable: 'kadr.jobs.errors.not_retryable',
  notCancellable: 'kadr.jobs.errors.not_cancellable',
  /** Why a kind's queued jobs are not cancelled from the Jobs screen (JobSpec.cancel, server/jobs/job.ts). */
  cancelRender: 'kadr.jobs.cancel_reasons.render',
  cancelPublish: 'kadr.jobs.cancel_reasons.publish',
  cancelAiVideo: 'kadr.jobs.cancel_reasons.ai_video',
  cancelUndeclared: 'kadr.jobs.cancel_reasons.undeclared',
  /**
   * Why the queue itself stored a job dead (its last_error, encoded by src/contract/stored-message.ts so the Jobs
   * screen shows it in the reader's language); a handler's own error text is kept as it is.
   */
  reasonWorkerLost: 'kadr.jobs.reasons.worker_lost',
  reasonNoProgress: 'kadr.jobs.reasons.no_progress',
  reasonPayloadNotJson: 'kadr.jobs.reasons.payload_not_json',
  reasonPayloadInvalid: 'kadr.jobs.reasons.payload_invalid',
} as const;

/** The i18n key of a job kind's label (`video.render` → `kadr.jobs.kinds.video_render`). */
export const jobKindKey = (kind: string) => `kadr.jobs.kinds.${kind.replace(/[^A-Za-z0-9]/g, '_')}`;

const ms = z.number().int();

export const JobRecordSchema = z
  .object({
    id: z.number().int(),
    kind: z.string().describe("The job's kind (its name in the catalogue)"),
    key: z.string().describe("The job's idempotency key"),
    state: z.enum(JOB_STATES),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    owner: z.string().nullable().describe('The worker that holds it (running jobs)'),
    progress: z.string().nullable().describe("The handler's mark of where its work stands, when it left one"),
    reason: z.string().nullable().describe('The last error (a retrying or dead job)'),
    runAt: ms.describe('Due time (epoch ms)'),
    claimedAt: ms.nullable().describe('When the current or last attempt was claimed (epoch ms)'),
    lagMs: ms
      .nullable()
      .describe('Claim time minus due time; for a due job not claimed yet, how long it has waited so far'),
    canRetry: z.boolean(),
    canCancel: z.boolean(),
  })
  .meta({
    id: 'Job',
    example: {
      id: 41,
      kind: 'video.render',
      key: 'video.render:7',
      state: 'dead',
      attempts: 3,
      maxAttempts: 3,
      owner: null,
      progress: null,
      reason: 'ffmpeg exited with code 1',
      runAt: 1795000000000,
      claimedAt: 1795000000250,
      lagMs: 250,
      canRetry: true,
      canCancel: false,
    },
  });
export type JobRecord = z.infer<typeof JobRecordSchema>;

export const JobSummarySchema = z
  .object({
    /** Every kind the server knows (the filter's choices), whether or not it has jobs now. */
    kinds: z.array(z.string()),
    counts: z.array(z.object({ kind: z.string(), state: z.enum(JOB_STATES), count: z.number().int() })),
    oldestDueLagMs: ms.nullable().describe('How long the oldest due job not yet claimed has waited (null: none)'),
  })
  .meta({
    id: 'JobSummary',
    example: {
      kinds: ['video.render', 'publication.publish'],
      counts: [{ kind: 'video.render', state: 'queued', count: 2 }],
      oldestDueLagMs: 1200,
    },
  });
export type JobSummary = z.infer<typeof JobSummarySchema>;
