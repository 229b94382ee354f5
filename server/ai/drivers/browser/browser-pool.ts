import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AiProvider } from '../../../../src/contract/ai';
import { AiDriverError, type SessionCtx } from '../chat-driver';
import { openContextProxy, proxyForLog, type OpenedProxy } from './proxy';

/** Where a session's login state (Playwright storageState JSON) lives between contexts; the service seals it. */
export type BrowserStateStore = {
  load(sessionId: number, provider: AiProvider): Promise<string | null>;
  save(sessionId: number, provider: AiProvider, json: string): Promise<void>;
};

/** The part of a pino/Fastify logger the driver uses. Never given a credential. */
export type BrowserDriverLog = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
};

type StorageState = Exclude<Parameters<Browser['newContext']>[0], undefined>['storageState'];

/** One session's context: its page and where its login stands. */
export type SessionEntry = {
  key: string;
  sessionId: number;
  provider: AiProvider;
  context: BrowserContext;
  page: Page;
  /** login: on the site's forms; code: waiting for the verification code; ready: logged in. */
  stage: 'login' | 'code' | 'ready';
  lastUsed: number;
  /** Closes the waiting code page after the bounded wait. */
  codeTimer?: NodeJS.Timeout;
  closeProxy(): Promise<void>;
};

export type BrowserPoolOptions = {
  chromiumPath: string;
  headless: boolean;
  maxContexts: number;
  stateStore: BrowserStateStore;
  log?: BrowserDriverLog;
  /** How long Chromium stays up with no context left (0: closed at once). */
  lingerMs: number;
};

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * One Chromium for every session (launched on first use, closed when no context is left, or on close()), one
 * context per session through its own proxy with its stored login state, at most `maxContexts` at once: opening
 * one more closes the least recently used idle one, its state saved first. Work on one session runs one call at
 * a time (`run`), so a login and a message never drive the same page together.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  private lingerTimer: NodeJS.Timeout | null = null;
  private readonly entries = new Map<string, SessionEntry>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly busy = new Set<string>();
  /** Contexts being opened (counted against maxContexts before they exist). */
  private opening = 0;
  private closed = false;

  constructor(private readonly opts: BrowserPoolOptions) {}

  static key(s: Pick<SessionCtx, 'sessionId' | 'provider'>) {
    return `${s.provider}:${s.sessionId}`;
  }

  get size() {
    return this.entries.size;
  }

  get(s: SessionCtx): SessionEntry | undefined {
    return this.entries.get(BrowserPool.key(s));
  }

  /** Runs `fn` after the session's earlier calls have finished. */
  run<T>(s: SessionCtx, fn: () => Promise<T>): Promise<T> {
    const key = BrowserPool.key(s);
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(async () => {
      this.busy.add(key);
      try {
        return await fn();
      } finally {
        this.busy.delete(key);
        const entry = this.entries.get(key);
        if (entry) entry.lastUsed = Date.now();
      }
    });
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  /** A fresh context for the session (an old one is closed first), through its proxy, with its stored state. */
  async open(s: SessionCtx): Promise<SessionEntry> {
    if (this.closed) throw new AiDriverError('unavailable', 'The browser driver is shut down');
    const key = BrowserPool.key(s);
    const old = this.entries.get(key);
    if (old) await this.release(old, { save: old.stage === 'ready', keepBrowser: true });
    this.opening++;
    let context: BrowserContext | undefined;
    let proxy: OpenedProxy | undefined;
    let opened = false;
    try {
      while (this.entries.size + this.opening > this.opts.maxContexts) await this.evictOne();
      const state = await this.opts.stateStore.load(s.sessionId, s.provider);
      proxy = await openContextProxy(s.proxy);
      const browser = await this.launch();
      context = await browser.newContext({
        proxy: proxy.proxy,
        storageState: state ? (JSON.parse(state) as StorageState) : undefined,
        viewport: { width: 1280, height: 800 },
        locale: 'en-US',
      });
      const page = await context.newPage();
      const entry: SessionEntry = {
        key,
        sessionId: s.sessionId,
        provider: s.provider,
        context,
        page,
        stage: 'login',
        lastUsed: Date.now(),
        closeProxy: proxy.close,
      };
      this.opening--;
      opened = true;
      this.entries.set(key, entry);
      this.opts.log?.info(
        { sessionId: s.sessionId, provider: s.provider, proxy: proxyForLog(s.proxy), withState: !!state },
        'ai browser: context opened',
      );
      return entry;
    } catch (err) {
      if (!opened) this.opening--;
      await context?.close().catch(() => {});
      await proxy?.close().catch(() => {});
      await this.closeBrowserIfIdle();
      throw err instanceof AiDriverError
        ? err
        : new AiDriverError('unavailable', 'Chromium could not open', String(err));
    }
  }

  /** Saves the session's login state (when asked) and closes its context; the last one closes Chromium (unless
   * another is about to open: `keepBrowser`). */
  async release(entry: SessionEntry, { save, keepBrowser = false }: { save: boolean; keepBrowser?: boolean }) {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    if (entry.codeTimer) clearTimeout(entry.codeTimer);
    try {
      if (save) {
        const state = await entry.context.storageState();
        await this.opts.stateStore.save(entry.sessionId, entry.provider, JSON.stringify(state));
      }
    } catch (err) {
      this.opts.log?.warn({ sessionId: entry.sessionId, err: String(err) }, 'ai browser: login state not saved');
    } finally {
      await entry.context.close().catch(() => {});
      await entry.closeProxy().catch(() => {});
      this.opts.log?.info({ sessionId: entry.sessionId, provider: entry.provider, saved: save }, 'ai browser: closed');
      if (!keepBrowser) await this.closeBrowserIfIdle();
    }
  }

  /** Closes every context (saving the logged-in ones) and Chromium. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.values()].map((e) => this.release(e, { save: e.stage === 'ready' })));
    await this.closeBrowserIfIdle(true);
  }

  private async evictOne() {
    const idle = [...this.entries.values()]
      .filter((e) => !this.busy.has(e.key) && e.stage !== 'code')
      .sort((a, b) => a.lastUsed - b.lastUsed);
    const oldest = idle[0];
    if (!oldest) throw new AiDriverError('unavailable', 'Every browser session is busy; try again later');
    this.opts.log?.info({ sessionId: oldest.sessionId, provider: oldest.provider }, 'ai browser: idle context evicted');
    await this.release(oldest, { save: oldest.stage === 'ready', keepBrowser: true });
  }

  private launch(): Promise<Browser> {
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (!this.browser) {
      const launching = chromium.launch({
        executablePath: this.opts.chromiumPath,
        headless: this.opts.headless,
        args: LAUNCH_ARGS,
      });
      this.browser = launching;
      launching.then(
        (b) => b.on('disconnected', () => this.onDisconnected(launching)),
        () => {
          if (this.browser === launching) this.browser = null;
        },
      );
    }
    return this.browser;
  }

  /** Chromium went away (crash, killed): its contexts are gone too. */
  private onDisconnected(which: Promise<Browser>) {
    if (this.browser !== which) return;
    this.browser = null;
    for (const e of this.entries.values()) {
      if (e.codeTimer) clearTimeout(e.codeTimer);
      void e.closeProxy().catch(() => {});
    }
    this.entries.clear();
    this.opts.log?.warn({}, 'ai browser: Chromium disconnected');
  }

  private async closeBrowserIfIdle(now = false) {
    if (this.entries.size || !this.browser) return;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (!now && this.opts.lingerMs > 0) {
      this.lingerTimer = setTimeout(() => void this.closeBrowserIfIdle(true), this.opts.lingerMs);
      this.lingerTimer.unref();
      return;
    }
    const browser = this.browser;
    this.browser = null;
    await browser.then((b) => b.close()).catch(() => {});
  }
}
