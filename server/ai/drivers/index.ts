import { AI_PROVIDERS, type AiProvider } from '../../../src/contract/ai';
import type { AiConfig } from '../../config-ai';
import { ApiChatDriver } from './api-driver';
import { type AiChatDriver, type SessionCtx } from './chat-driver';
import { createBrowserChatDriver, siteAdapter, type BrowserDriverLog } from './browser/index';

export type ChatDrivers = Record<AiProvider, AiChatDriver> & { close(): Promise<void> };

/**
 * One chat driver per provider, as configured (AI_GPT_DRIVER / AI_DEEPSEEK_DRIVER = api | browser): the
 * OpenAI-compatible API (default) or Chromium on the provider's web chat (opt-in, ./browser/).
 */
export function createChatDrivers(
  ai: AiConfig,
  opts: { allowPrivateProxy: boolean; log?: BrowserDriverLog },
): ChatDrivers {
  const pick = (provider: AiProvider): AiChatDriver => {
    const p = ai.providers[provider];
    if (p.driver === 'browser') return browserDriver(provider, ai, opts.log);
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

/**
 * The browser driver for one provider. Its pool loads and saves a session's login state by id (when a context
 * opens, and when one is stopped or evicted); the service hands each call the session's sealed state store
 * (`SessionCtx.state`), kept here by session id so the pool reaches it between calls.
 */
function browserDriver(provider: AiProvider, ai: AiConfig, log?: BrowserDriverLog): AiChatDriver {
  const states = new Map<number, NonNullable<SessionCtx['state']>>();
  const driver = createBrowserChatDriver({
    chromiumPath: ai.browser.chromiumPath,
    maxContexts: ai.browser.maxContexts,
    site: siteAdapter(provider, ai.providers[provider].siteUrl || undefined),
    log,
    stateStore: {
      load: async (id) => (await states.get(id)?.load()) ?? null,
      save: async (id, _provider, json) => states.get(id)?.save(json),
    },
  });
  const known = (s: SessionCtx) => {
    if (s.state) states.set(s.sessionId, s.state);
    return s;
  };
  return {
    login: (s) => driver.login(known(s)),
    submitCode: (s, code) => driver.submitCode(known(s), code),
    send: (s, history, text) => driver.send(known(s), history, text),
    extract: (s, prompt, schema, name) => driver.extract(known(s), prompt, schema, name),
    screenshot: (s) => driver.screenshot(known(s)),
    stop: (s) => driver.stop(known(s)),
    close: () => driver.close(),
  };
}
