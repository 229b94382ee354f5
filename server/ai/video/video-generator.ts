import type { Readable } from 'node:stream';

/** A provider job's state, in one vocabulary whatever the provider's words. */
export type VideoJobState = {
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  error?: string;
};

export type VideoRequest = { prompt: string; seconds: number; size: string; model: string };

/**
 * Video generation behind one interface (AI_VIDEO_DIALECT): submit, poll, fetch the result. A queue-style
 * provider (submit, poll status, fetch result) is one small class. Failures are AiDriverError (kinds as chat).
 */
export interface VideoGenerator {
  create(r: VideoRequest): Promise<{ jobId: string }>;
  get(jobId: string): Promise<VideoJobState>;
  /** The finished MP4 as a stream (copied into Kadr's storage at once: provider links expire). */
  download(jobId: string): Promise<Readable>;
  /** A new generation from a finished one, where the provider has it. */
  remix?(jobId: string, prompt: string): Promise<{ jobId: string }>;
}
