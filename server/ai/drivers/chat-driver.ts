import type { ZodType } from 'zod';
import type { AiProvider } from '../../../src/contract/ai';

/**
 * One chat driver per provider, chosen by configuration (`AI_GPT_DRIVER`, `AI_DEEPSEEK_DRIVER` = api | browser).
 * `api` speaks the OpenAI-compatible chat API (OpenAI, DeepSeek, a local server); `browser` drives the site in
 * Chromium through Playwright (opt-in). Both reach the network only through the session's proxy and take every
 * base URL, key and model from configuration or the session. See ../shared/notes/ai.md §4.
 */
export type SessionCtx = {
  sessionId: number;
  provider: AiProvider;
  email: string;
  /** The provider credential: an API key for `api`, the site password for `browser`. */
  password: string;
  /** The session's proxy URL (http://user:pass@host:port or socks5://…), or '' for none. */
  proxy: string;
  signal?: AbortSignal;
  /**
   * The session's saved login state for this provider (the browser driver's storageState JSON), sealed at rest
   * by the service: `load` gives it back opened (null when none), `save` seals and stores it (null clears it).
   */
  state?: { load(): Promise<string | null>; save(state: string | null): Promise<void> };
};

/** Why a call failed, in a few kinds the service maps to a readable, translated message. */
export type AiErrorKind =
  | 'credentials'
  | 'billing'
  | 'rate_limit'
  | 'bad_request'
  | 'moderation'
  | 'unavailable'
  | 'network'
  | 'challenge'
  | 'no_code_pending';

export class AiDriverError extends Error {
  constructor(
    readonly kind: AiErrorKind,
    message: string,
    /** The provider's own words, for the AI log (never a credential). */
    readonly detail?: string,
  ) {
    super(message);
  }
}

export type LoginOutcome =
  { kind: 'ready' } | { kind: 'code_required' } | { kind: 'failed'; error: AiDriverError; screenshot?: Buffer };

/** One turn of history: plain text as sent/received, plus the sanitised HTML the panel shows. */
export type ChatTurn = { role: 'user' | 'assistant'; text: string; html?: string };

export type Shot = { png: Buffer; label: string };

export interface AiChatDriver {
  login(s: SessionCtx): Promise<LoginOutcome>;
  /** Fills in the verification code on the waiting login; `no_code_pending` when there is none. */
  submitCode(s: SessionCtx, code: string): Promise<LoginOutcome>;
  /** Sends `text` after `history` and returns the answer (text and sanitised HTML). */
  send(s: SessionCtx, history: ChatTurn[], text: string): Promise<{ text: string; html: string }>;
  /** Asks for a JSON object matching `schema` (JSON schema where the server has it, else json_object + check + one retry). */
  extract<T>(s: SessionCtx, prompt: string, schema: ZodType<T>, name: string): Promise<T>;
  /** Screenshots of the session's open pages; `[]` where there is no screen (the api driver). */
  screenshot(s: SessionCtx): Promise<Shot[]>;
  /** Aborts in-flight work and closes what the session holds (the browser driver keeps its sealed login state). */
  stop(s: SessionCtx): Promise<void>;
  /** Closes everything (process shutdown). */
  close(): Promise<void>;
}
