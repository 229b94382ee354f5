import { setTimeout as sleep } from 'node:timers/promises';
import { encodeMessage } from '../../../src/contract/stored-message';
import { PermanentJobError } from '../../jobs/index';
import type { Media } from '../../media/storage/index';
import type { AiConfig } from '../../config-ai';
import type { AiLog } from '../ai-log';
import type { AiVideosRepository } from '../ai-videos.repository';
import { AiDriverError } from '../drivers/chat-driver';
import type { VideoGenerator } from './video-generator';

type Payload = { aiVideoId: number; attempt: number; remixOf?: string };

/**
 * One generation of an AI video (the `ai.video.generate` job): submit or remix (the provider job id stored at
 * once, so a retry resumes polling it), poll with backoff within the budget, stream the MP4 into Kadr's
 * storage (provider links expire), then success; a failure is an error with its reason in the AI log. A
 * reject or a recreate in between wins: every write checks the row is still this attempt and loading.
 */
export class AiVideoGeneration {
  constructor(
    private repo: AiVideosRepository,
    private deps: { generator: VideoGenerator | null; media: Media; log: AiLog; video: AiConfig['video'] },
  ) {}

  async run(p: Payload, signal: AbortSignal): Promise<void> {
    const row = await this.repo.get(null, p.aiVideoId);
    if (!row || row.status !== 'loading' || row.attempt !== p.attempt) return;
    const gen = this.deps.generator;
    if (!gen) return this.finish(p, 'kadr.ai_errors.video_unconfigured');
    const v = this.deps.video;
    let jobId = row.providerJobId;
    try {
      if (!jobId) {
        const req = { prompt: row.prompt, seconds: v.seconds, size: v.size, model: v.model };
        jobId = (p.remixOf && gen.remix ? await gen.remix(p.remixOf, row.prompt) : await gen.create(req)).jobId;
        if (!(await this.repo.updateIfCurrent(row.id, p.attempt, { providerJobId: jobId }))) return;
      }
      const deadline = Date.parse(row.updatedAt) + v.budgetMs;
      let delay = v.pollMs;
      for (;;) {
        const state = await gen.get(jobId);
        if (state.status === 'failed') return this.finish(p, failed(state.error ?? 'failed'));
        if (state.status === 'completed') break;
        if (Date.now() + delay > deadline)
          return this.finish(
            p,
            encodeMessage('kadr.ai_errors.video_timeout', { minutes: Math.round(v.budgetMs / 60_000) }),
          );
        await sleep(delay, undefined, { signal });
        delay = Math.min(delay * 2, v.pollMaxMs);
      }
      const key = `ai/videos/${row.id}-${p.attempt}.mp4`;
      await this.deps.media.storage.put(key, await gen.download(jobId));
      const current = await this.repo.get(null, row.id);
      if (!(await this.repo.updateIfCurrent(row.id, p.attempt, { status: 'success', storageKey: key, error: null }))) {
        await this.deps.media.storage.delete(key).catch(() => {});
        return;
      }
      if (current?.storageKey && current.storageKey !== key)
        await this.deps.media.storage.delete(current.storageKey).catch(() => {});
      await this.deps.log.settle(row.id, 'success');
      await this.deps.log.write(
        { userId: row.userId, sessionId: row.sessionId, videoId: row.id },
        'success',
        'kadr.ai_log.video_generated',
        {
          video: row.id,
        },
      );
    } catch (err) {
      // A refusal (bad key, billing, a rejected prompt) will not change on a retry; the network may.
      const reason = failed(err instanceof AiDriverError ? (err.detail ?? err.kind) : String((err as Error)?.message));
      if (err instanceof AiDriverError && !RETRYABLE.includes(err.kind)) throw new PermanentJobError(reason);
      if (signal.aborted) throw err;
      throw new Error(reason, { cause: err });
    }
  }

  /** A generation that ended without a video (also the job's onDead hook): error with the reason, logged. */
  async fail(p: Payload, error: string): Promise<void> {
    const reason = error.startsWith('kadr.ai_errors.') ? error : failed(error.slice(0, 300));
    await this.finish(p, reason);
  }

  private async finish(p: Payload, reason: string): Promise<void> {
    const row = await this.repo.get(null, p.aiVideoId);
    if (!row || !(await this.repo.updateIfCurrent(row.id, p.attempt, { status: 'error', error: reason }))) return;
    await this.deps.log.settle(row.id, 'error');
    const at = { userId: row.userId, sessionId: row.sessionId, videoId: row.id };
    await this.deps.log.write(at, 'error', 'kadr.ai_log.video_failed', {
      video: row.id,
      reason,
    });
  }
}

const RETRYABLE = ['network', 'unavailable', 'rate_limit'];
/** A generation that failed: ours translated, the video provider's own words apart as the detail. */
const failed = (detail: string) =>
  encodeMessage('kadr.ai_errors.with_detail', { message: 'kadr.ai_errors.video_failed_provider', detail });
