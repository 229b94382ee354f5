import type { ZodType } from 'zod';
import { AiDriverError, type AiChatDriver, type LoginOutcome, type SessionCtx, type Shot } from '../chat-driver';
import { BrowserPool, type BrowserDriverLog, type BrowserStateStore, type SessionEntry } from './browser-pool';
import { extractOnPage, sendOnPage } from './chat-page';
import { enterCode, logIn, type LoginStep } from './login-flow';
import { waitForState } from './page-state';
import { siteUrl, type SiteAdapter } from './sites';

export { siteAdapter, SITES, type SiteAdapter, type SiteSelectors } from './sites';
export type { BrowserDriverLog, BrowserStateStore } from './browser-pool';

export type BrowserChatDriverOptions = {
  /** Debian's /usr/bin/chromium (CHROMIUM_PATH); Playwright downloads no browser. */
  chromiumPath: string;
  /** Default true. A visible window needs a display. */
  headless?: boolean;
  /** The site this driver logs in to (one driver per provider). */
  site: SiteAdapter;
  /** Contexts open at once (default 5); one more closes the least recently used idle one, its state saved. */
  maxContexts?: number;
  /** Keeps each session's login state (Playwright storageState JSON) between contexts; the caller seals it. */
  stateStore: BrowserStateStore;
  log?: BrowserDriverLog;
  timeouts?: {
    /** One page load or login step (default 30 s). */
    navigationMs?: number;
    /** One answer, typed to finished (default 180 s). */
    replyMs?: number;
    /** How long a code page waits for /code before it is closed (default 10 min). */
    codeWaitMs?: number;
  };
  /** How long Chromium stays up once the last context closed (default 0: closed at once). */
  browserLingerMs?: number;
};

export type BrowserChatDriver = AiChatDriver & {
  /** Contexts open now (the bench and the tests read it). */
  readonly openContexts: number;
};

/**
 * The opt-in `browser` chat driver: Chromium driven by Playwright on the provider's web chat, one context per
 * session through the session's proxy, the site's selectors as data (./sites.ts). A verification-code page is
 * `code_required` (the page waits for submitCode, bounded); a bot challenge stops the login with a screenshot
 * and is never bypassed. The site keeps the conversation, so `history` is not replayed. See ./README.md.
 */
export function createBrowserChatDriver(options: BrowserChatDriverOptions): BrowserChatDriver {
  const site = options.site;
  const navMs = options.timeouts?.navigationMs ?? 30_000;
  const replyMs = options.timeouts?.replyMs ?? 180_000;
  const codeWaitMs = options.timeouts?.codeWaitMs ?? 10 * 60_000;
  const pool = new BrowserPool({
    chromiumPath: options.chromiumPath,
    headless: options.headless ?? true,
    maxContexts: Math.max(1, options.maxContexts ?? 5),
    stateStore: options.stateStore,
    log: options.log,
    lingerMs: options.browserLingerMs ?? 0,
  });

  /** Turns a login step into the outcome, keeping the page (code), saving the state (ready) or closing it. */
  async function settle(entry: SessionEntry, step: LoginStep): Promise<LoginOutcome> {
    const meta = { sessionId: entry.sessionId, provider: entry.provider, outcome: step.kind };
    if (step.kind === 'ready') {
      entry.stage = 'ready';
      if (entry.codeTimer) clearTimeout(entry.codeTimer);
      await saveState(entry);
      options.log?.info(meta, 'ai browser: logged in');
      return step;
    }
    if (step.kind === 'code_required') {
      entry.stage = 'code';
      if (entry.codeTimer) clearTimeout(entry.codeTimer);
      entry.codeTimer = setTimeout(() => void pool.release(entry, { save: false }), codeWaitMs);
      entry.codeTimer.unref();
      options.log?.info(meta, 'ai browser: verification code required');
      return step;
    }
    if (entry.stage === 'code' && step.error.kind === 'credentials') {
      options.log?.warn({ ...meta, kind: step.error.kind }, 'ai browser: code refused');
      return step; // wrong code: the page keeps waiting for another one
    }
    const screenshot = await entry.page.screenshot({ type: 'png', timeout: navMs }).catch(() => undefined);
    options.log?.warn({ ...meta, kind: step.error.kind, message: step.error.message }, 'ai browser: login failed');
    await pool.release(entry, { save: false });
    return { kind: 'failed', error: step.error, screenshot };
  }

  async function saveState(entry: SessionEntry) {
    const state = await entry.context.storageState();
    await options.stateStore.save(entry.sessionId, entry.provider, JSON.stringify(state));
  }

  /** The session's logged-in chat page: the open one, or a new context from the stored login state. */
  async function chatPage(s: SessionCtx): Promise<SessionEntry> {
    const open = pool.get(s);
    if (open?.stage === 'ready' && !open.page.isClosed()) return open;
    if (open?.stage === 'code') throw new AiDriverError('credentials', 'The login waits for its verification code');
    const entry = await pool.open(s);
    await entry.page.goto(siteUrl(site, 'chatPath'), { waitUntil: 'domcontentloaded', timeout: navMs }).catch(() => {});
    const state = await waitForState(entry.page, site, ['ready', 'challenge', 'login_form', 'code'], navMs, s.signal);
    if (state === 'ready') {
      entry.stage = 'ready';
      return entry;
    }
    await pool.release(entry, { save: false });
    if (state === 'challenge') throw new AiDriverError('challenge', `${site.baseUrl} shows a bot challenge`);
    throw new AiDriverError('credentials', 'The session is not logged in; log in again');
  }

  const send = (s: SessionCtx, text: string) =>
    chatPage(s).then((entry) => sendOnPage(entry.page, site, text, replyMs, s.signal));

  return {
    get openContexts() {
      return pool.size;
    },

    login: (s) =>
      pool.run(s, async () => {
        const entry = await pool.open(s);
        try {
          return await settle(entry, await logIn(entry.page, site, s, navMs));
        } catch (err) {
          const error =
            err instanceof AiDriverError ? err : new AiDriverError('unavailable', 'Login failed', String(err));
          return settle(entry, { kind: 'failed', error });
        }
      }),

    submitCode: (s, code) =>
      pool.run(s, async () => {
        const entry = pool.get(s);
        if (!entry || entry.stage !== 'code' || entry.page.isClosed()) {
          return { kind: 'failed', error: new AiDriverError('no_code_pending', 'No login is waiting for a code') };
        }
        try {
          return await settle(entry, await enterCode(entry.page, site, code, s, navMs));
        } catch (err) {
          const error =
            err instanceof AiDriverError ? err : new AiDriverError('unavailable', 'Code failed', String(err));
          return settle(entry, { kind: 'failed', error });
        }
      }),

    send: (s, _history, text) => pool.run(s, () => send(s, text)),

    extract: <T>(s: SessionCtx, prompt: string, schema: ZodType<T>, name: string) =>
      pool.run(s, () => extractOnPage((text) => send(s, text), prompt, schema, name)),

    screenshot: (s) =>
      pool.run(s, async (): Promise<Shot[]> => {
        const entry = pool.get(s);
        if (!entry) return [];
        const shots: Shot[] = [];
        for (const page of entry.context.pages()) {
          const png = await page.screenshot({ type: 'png', timeout: navMs }).catch(() => null);
          if (png) shots.push({ png, label: `${site.provider} ${new URL(page.url()).pathname}` });
        }
        return shots;
      }),

    // Not queued behind the session's other calls: closing the context is what stops an answer being awaited.
    stop: async (s) => {
      const entry = pool.get(s);
      if (entry) await pool.release(entry, { save: entry.stage === 'ready' });
    },

    close: () => pool.closeAll(),
  };
}
