import type { AiLogStatus } from '../../src/contract/ai';
import { encodeMessage, type MessageParams } from '../../src/contract/stored-message';
import type { AiRepository } from './ai.repository';

/** Writes AI log lines (SPEC §3 AI log) as encoded messages, so each reader sees them in their own language. */
export class AiLog {
  constructor(private repo: Pick<AiRepository, 'log' | 'settleLogs'>) {}

  /** A line; `at.videoId` ties it to an AI video, so its 'loading' lines settle with the video (settle). */
  write(
    at: { userId: number; sessionId: number | null; videoId?: number },
    status: AiLogStatus,
    key: string,
    params: MessageParams = {},
  ) {
    const message = encodeMessage(key, params);
    return this.repo.log({ userId: at.userId, sessionId: at.sessionId, videoId: at.videoId ?? null, status, message });
  }

  /**
   * The AI video has finished (success), failed (error) or was rejected (success: nothing is in progress any
   * more): its earlier 'loading' lines ("requested", "generating again") stop saying "processing".
   */
  settle(videoId: number, status: Exclude<AiLogStatus, 'loading'>) {
    return this.repo.settleLogs(videoId, status);
  }
}
