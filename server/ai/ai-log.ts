import type { AiLogStatus } from '../../src/contract/ai';
import { encodeMessage, type MessageParams } from '../../src/contract/stored-message';
import type { AiRepository } from './ai.repository';

/** Writes AI log lines (SPEC §3 AI log) as encoded messages, so each reader sees them in their own language. */
export class AiLog {
  constructor(private repo: Pick<AiRepository, 'log'>) {}

  write(
    at: { userId: number; sessionId: number | null },
    status: AiLogStatus,
    key: string,
    params: MessageParams = {},
  ) {
    return this.repo.log({ userId: at.userId, sessionId: at.sessionId, status, message: encodeMessage(key, params) });
  }
}
