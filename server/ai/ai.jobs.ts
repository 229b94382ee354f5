import { JM } from '../../src/contract/jobs';
import { z } from 'zod';
import { defineJob, exponentialBackoff, jobWorker, type JobWorker } from '../jobs/index';
import type { AiVideoGeneration } from './video/generation';

/**
 * `ai.video.generate`: submit (or remix), poll within the time budget, copy the MP4 into Kadr's storage.
 * A retry resumes from the provider job id stored on the row; `attempt` ties the job to one generation, so a
 * job of an earlier attempt (before a recreate or a reject) does nothing.
 */
export const aiVideoJob = defineJob({
  name: 'ai.video.generate',
  payload: z.object({
    aiVideoId: z.number().int().positive(),
    attempt: z.number().int().positive(),
    remixOf: z.string().optional(),
  }),
  retry: { kind: 'retry', maxAttempts: 3, backoff: exponentialBackoff(5_000, 60_000) },
  // The AI video would stay 'generating' with no job to finish it: reject the video in the AI screen instead.
  cancel: { safe: false, reason: JM.cancelAiVideo },
});

export const aiVideoJobKey = (id: number, attempt: number) => `${aiVideoJob.name}:${id}:${attempt}`;

/** The AI domain's jobs with their handlers. */
export function aiJobWorkers(deps: { generation: AiVideoGeneration }): JobWorker[] {
  return [
    jobWorker(
      aiVideoJob,
      (p, ctx) => deps.generation.run(p, ctx.signal),
      (p, error) => deps.generation.fail(p, error),
    ),
  ];
}
