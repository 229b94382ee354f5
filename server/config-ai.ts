import type { AiProvider } from '../src/contract/ai';

/** Which chat driver serves a provider: the OpenAI-compatible API (default) or Chromium (opt-in). */
export type AiDriverKind = 'api' | 'browser';
export type VideoDialect = 'openrouter' | 'openai-videos';

export type AiProviderConfig = {
  driver: AiDriverKind;
  baseUrl: string;
  model: string;
  /** The browser driver's site ('' = the real one). */
  siteUrl?: string;
};

/** The AI service's settings (read from the environment by server/config.ts only). */
export type AiConfig = {
  /** AI_PORT: the AI service listens on a port of its own; unset, it is mounted on the API's origin. */
  port?: number;
  providers: Record<AiProvider, AiProviderConfig>;
  /** The browser driver: Debian's Chromium and how many sessions it keeps open at once. */
  browser: { chromiumPath: string; maxContexts: number };
  /** Whole-request limit of one chat call; the SDK retries `maxRetries` times on 429/5xx. */
  timeoutMs: number;
  maxRetries: number;
  /** Chat turns sent back to the model with a new message (the newest). */
  historyTurns: number;
  video: {
    dialect: VideoDialect;
    /** '' = video generation not configured. */
    baseUrl: string;
    apiKey: string;
    model: string;
    seconds: number;
    size: string;
    /** How long one generation may take, polls included. */
    budgetMs: number;
    /** First poll delay; it doubles up to `pollMaxMs`. */
    pollMs: number;
    pollMaxMs: number;
  };
};
