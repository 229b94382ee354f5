import type { AiLog, AiMessage, AiProvider, AiSession, AiSessionStatus } from '../../src/contract/ai';
import { encodeMessage, splitDetail } from '../../src/contract/stored-message';
import type { Sealer } from '../crypto/seal';
import { identityOf } from '../accounts/account-identity';
import type { MediaSigner } from '../media/storage/index';
import { AiDriverError } from './drivers/chat-driver';
import type { LogRow, MessageRow, SessionRow } from './ai.repository';

/** Translates a key or a stored message into the caller's language (server/http/i18n.ts bound to a locale). */
export type Translate = (stored: string) => string;

export const PROVIDER_LABEL: Record<AiProvider, string> = { gpt: 'GPT', deepseek: 'DeepSeek' };

/** A driver failure as a stored message: the kind's sentence with the provider, plus the provider's words. */
export function driverErrorMessage(err: unknown, provider: AiProvider): string {
  const e = err instanceof AiDriverError ? err : new AiDriverError('network', 'kadr.ai_errors.network');
  const main = encodeMessage(e.message, { provider: PROVIDER_LABEL[provider] });
  if (e.kind === 'bad_request' && e.message === 'kadr.ai_errors.bad_answer') return main;
  return e.detail ? encodeMessage('kadr.ai_errors.with_detail', { message: main, detail: e.detail }) : main;
}

/** The answer's `status` of a failed login (SPEC §3 AI login response): HTTP-like, never 200 or 300. */
export const LOGIN_STATUS: Record<AiDriverError['kind'], number> = {
  credentials: 401,
  billing: 402,
  rate_limit: 429,
  bad_request: 400,
  moderation: 400,
  unavailable: 503,
  network: 502,
  challenge: 403,
  no_code_pending: 409,
};

const openOr = (sealer: Sealer, v: string | null) => (v ? sealer.open(v) : '');

/**
 * A stored error or log line as the caller reads it: ours in their language, the provider's (or platform's) own
 * words apart, untranslated (src/contract splitDetail); null for none.
 */
export function translatedError(stored: string | null, t: Translate) {
  if (!stored) return { message: null, detail: null };
  const { message, detail } = splitDetail(stored);
  return { message: t(message), detail };
}

/** The session's error, as translatedError. */
function sessionError(stored: string | null, t: Translate) {
  const { message, detail } = translatedError(stored, t);
  return { errorText: message, errorDetail: detail };
}

export function toSession(r: SessionRow, t: Translate): AiSession {
  return {
    id: r.id,
    email: r.email,
    proxy: '',
    isActive: Boolean(r.isActive),
    status: r.status as AiSessionStatus,
    ...sessionError(r.errorText, t),
    account:
      r.accountId && r.accountExists
        ? { id: r.accountId, name: r.accountName || `#${r.accountId}`, ...identityOf({ ...r, id: r.accountId }) }
        : null,
    user: { id: r.userId, login: r.ownerLogin },
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The session with its secrets opened (the detail view: owner or admin only). */
export function sessionSecrets(r: SessionRow, sealer: Sealer) {
  return {
    proxy: openOr(sealer, r.proxySealed),
    password: openOr(sealer, r.passwordSealed),
    passwordDeepSeek: openOr(sealer, r.passwordDeepseekSealed),
  };
}

export const toMessage = (m: MessageRow): AiMessage => ({
  id: m.id,
  provider: m.provider as AiProvider,
  message_my: m.messageMy,
  message_ai: m.messageAi,
  createdAt: m.createdAt,
});

export const toLog = (r: LogRow, t: Translate): AiLog => {
  const { message, detail } = translatedError(r.message, t);
  return {
    id: r.id,
    message: message ?? '',
    detail,
    status: r.status as AiLog['status'],
    userSession: r.sessionId && r.sessionEmail ? { id: r.sessionId, email: r.sessionEmail } : null,
    createdAt: r.createdAt,
  };
};

export const screenshotOf = (signer: MediaSigner, s: { id: number; storageKey: string; createdAt: string }) => ({
  id: s.id,
  url: signer.url(s.storageKey),
  createdAt: s.createdAt,
});
