import { AI_PROVIDERS, type AiProvider } from '../../../src/contract/ai';
import type { AiConfig } from '../ai-config';
import { ApiChatDriver } from './api-driver';
import { AiDriverError, type AiChatDriver } from './chat-driver';

export type ChatDrivers = Record<AiProvider, AiChatDriver> & { close(): Promise<void> };

/**
 * One chat driver per provider, as configured (AI_GPT_DRIVER / AI_DEEPSEEK_DRIVER = api | browser). The
 * browser driver (opt-in, ./browser/) is not wired yet: a provider configured with it answers a clear error.
 */
export function createChatDrivers(ai: AiConfig, opts: { allowPrivateProxy: boolean }): ChatDrivers {
  const pick = (provider: AiProvider): AiChatDriver => {
    const p = ai.providers[provider];
    if (p.driver === 'browser') return unconfigured(provider, 'browser');
    return new ApiChatDriver({
      provider: p,
      timeoutMs: ai.timeoutMs,
      maxRetries: ai.maxRetries,
      allowPrivateProxy: opts.allowPrivateProxy,
    });
  };
  const drivers = Object.fromEntries(AI_PROVIDERS.map((p) => [p, pick(p)])) as Record<AiProvider, AiChatDriver>;
  return { ...drivers, close: async () => void (await Promise.all(AI_PROVIDERS.map((p) => drivers[p].close()))) };
}

/** A driver whose every call fails with "not configured" (a readable error, not a crash at start). */
function unconfigured(provider: AiProvider, driver: string): AiChatDriver {
  const error = () => new AiDriverError('unavailable', 'kadr.ai_errors.driver_unconfigured', `${driver}:${provider}`);
  return {
    login: async () => ({ kind: 'failed', error: error() }),
    submitCode: async () => ({ kind: 'failed', error: error() }),
    send: async () => Promise.reject(error()),
    extract: async () => Promise.reject(error()),
    screenshot: async () => [],
    stop: async () => {},
    close: async () => {},
  };
}
