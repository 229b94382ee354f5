import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Response } from 'playwright-core';

/** What tells that a page is usable: an element matching `selector`, visible, with exactly `text` (when given), not disabled (when `enabled`). */
type Shown = { selector: string; text?: string; enabled?: boolean };
/** One such element, or any of several (a page that two builds show differently), or every one of several (a page of parts). */
export type Ready = Shown | Shown[] | { all: Shown[] };

/**
 * One cold load: ms from navigation start until Ready holds (the page's own clock), the JavaScript it loaded, and
 * the main thread's long tasks (over 50 ms, PerformanceObserver) until then: how many and the longest.
 */
export type ColdLoad = {
  ms: number;
  jsGzip: number;
  jsFiles: number;
  longTasks: number;
  longestTask: number;
  /** With `opts.waterfall`: every resource the page fetched until ready, by start (the page's clock, ms). */
  waterfall?: { name: string; start: number; end: number; bytes: number }[];
};

/** Runs in the page before its own scripts: notes performance.now() at the first DOM change after which `ready` holds. */
function watchReady(ready: Ready) {
  const shown = (one: Shown) => {
    for (const el of document.querySelectorAll<HTMLElement>(one.selector)) {
      if (one.text !== undefined && el.textContent?.trim() !== one.text) continue;
      if (one.enabled && (el as HTMLButtonElement).disabled) continue;
      if (el.checkVisibility()) return true;
    }
    return false;
  };
  const tasks: number[] = ((window as any).__benchLongTasks = []);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  const holds = () => ('all' in ready ? ready.all.every(shown) : (Array.isArray(ready) ? ready : [ready]).some(shown));
  const observer = new MutationObserver(() => {
    if (!holds()) return;
    (window as any).__benchReady = performance.now();
    (window as any).__benchTasks = [...tasks];
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** A signed-in browser state for `baseUrl` (a fresh session: each cold load uses its own refresh token). */
export async function signedInState(baseUrl: string): Promise<BrowserContextOptions['storageState']> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: 'admin', password: 'admin-pass' }),
  });
  if (!res.ok) throw new Error(`sign-in refused: ${res.status}`);
  const { user, accessToken, refreshToken } = (await res.json()) as Record<string, unknown>;
  const state = { isLoading: false, isAuthenticated: true, user, accessToken, refreshToken };
  return {
    cookies: [],
    origins: [{ origin: baseUrl, localStorage: [{ name: 'authStore', value: JSON.stringify({ state, version: 1 }) }] }],
  };
}

/**
 * Opens `url` in a fresh browser context (no cache, no cookies; `storageState` only), measures the time until
 * `ready` holds, then waits for the network to settle and sums the gzip size of every JavaScript response.
 */
export async function coldLoad(
  browser: Browser,
  url: string,
  ready: Ready,
  storageState?: BrowserContextOptions['storageState'],
  opts: { waterfall?: boolean } = {},
): Promise<ColdLoad> {
  const context = await browser.newContext({ storageState, viewport: { width: 1440, height: 900 } });
  try {
    // tsx names inner functions through a helper `__name` the page does not have: the script brings its own.
    await context.addInitScript({ content: `((__name) => (${watchReady})(${JSON.stringify(ready)}))((f) => f);` });
    const page = await context.newPage();
    const bodies: Array<Promise<number>> = [];
    page.on('response', (r: Response) => {
      const type = r.headers()['content-type'] ?? '';
      if (!/javascript/.test(type) && !new URL(r.url()).pathname.endsWith('.js')) return;
      bodies.push(
        r.body().then(
          (b) => gzipSync(b).length,
          () => 0,
        ),
      ); // gzip at the default level, as servers use
    });
    await page.goto(url, { waitUntil: 'commit' });
    const deadline = Date.now() + 30_000;
    let ms: number | undefined;
    const readyAt = () =>
      page.evaluate(() => (window as any).__benchReady as number | undefined).catch(() => undefined);
    while ((ms = await readyAt()) === undefined) {
      if (Date.now() > deadline) throw new Error(`${url}: not ready after 30 s (${JSON.stringify(ready)})`);
      await page.waitForTimeout(25);
    }
    const tasks: number[] = await page.evaluate(() => (window as any).__benchTasks);
    const waterfall = opts.waterfall
      ? await page.evaluate(() => [
          ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
            name: e.name,
            start: e.startTime,
            end: e.responseEnd,
            bytes: e.encodedBodySize,
          })),
          ...[...performance.getEntriesByType('mark'), ...performance.getEntriesByType('paint')].map((e) => ({
            name: `(${e.entryType}) ${e.name}`,
            start: e.startTime,
            end: e.startTime,
            bytes: 0,
          })),
        ])
      : undefined;
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(bodies);
    return {
      ms,
      jsGzip: sizes.reduce((a, b) => a + b, 0),
      jsFiles: sizes.length,
      longTasks: tasks.length,
      longestTask: Math.max(0, ...tasks),
      waterfall,
    };
  } finally {
    await context.close();
  }
}
