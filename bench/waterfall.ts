import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../tests/helpers/browser';
import { signedInState } from './cold-load';
import { readySelectorOf, servePanel } from './served-panel';

/**
 * One cold page's waterfall: `npx tsx bench/waterfall.ts /users [checkout dir]` (the checkout's built dist/,
 * this tree by default). Starts that checkout's real server (bench/panel-server.ts), opens the page in a fresh
 * browser context (signed in but for /login and /api/docs) and prints every request with its start and end (ms
 * after navigation start, the page's resource timings), its gzip size for JavaScript, and when the page was
 * usable: the same "ready" as bench/bundle.bench.ts. `RUNS=3` repeats it (each in a fresh context).
 */
const path = process.argv[2] ?? '/users';
const selector = readySelectorOf(path);
const server = await servePanel(resolve(process.argv[3] ?? '.'));
const url = server.url;
const browser = await launchBrowser();
try {
  for (let run = 0; run < Number(process.env.RUNS ?? 1); run++) {
    const signedIn = path !== '/login' && path !== '/api/docs';
    const context = await browser.newContext({
      storageState: signedIn ? await signedInState(url) : undefined,
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript({
      content: `new MutationObserver((_, o) => { if (document.querySelector(${JSON.stringify(selector)})) { window.__ready = performance.now(); o.disconnect(); } }).observe(document, { subtree: true, childList: true });`,
    });
    const page = await context.newPage();
    const gz = new Map<string, number>();
    const bodies: Promise<void>[] = [];
    page.on('response', (r) => {
      if (!/javascript/.test(r.headers()['content-type'] ?? '')) return;
      bodies.push(
        r
          .body()
          .then((b) => void gz.set(new URL(r.url()).pathname, gzipSync(b).length))
          .catch(() => {}),
      );
    });
    await page.goto(url + path);
    await page.waitForFunction(() => (window as any).__ready !== undefined, null, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(bodies);
    const { ready, entries, nav } = await page.evaluate(() => ({
      ready: (window as any).__ready as number,
      nav: performance.getEntriesByType('navigation')[0]!.toJSON(),
      entries: performance.getEntriesByType('resource').map((e) => {
        const r = e as PerformanceResourceTiming;
        return {
          name: new URL(r.name).pathname + new URL(r.name).search,
          start: r.startTime,
          end: r.responseEnd,
          type: r.initiatorType,
        };
      }),
    }));
    console.log(
      `\n${path} run ${run + 1}: ready at ${ready.toFixed(0)} ms; document ${nav.responseEnd.toFixed(0)} ms, DOMContentLoaded ${nav.domContentLoadedEventEnd.toFixed(0)} ms`,
    );
    let total = 0;
    for (const e of entries.sort((a, b) => a.start - b.start)) {
      const size = gz.get(e.name);
      total += size ?? 0;
      console.log(
        `${e.start.toFixed(0).padStart(6)} → ${e.end.toFixed(0).padStart(6)}  ${size ? (size / 1024).toFixed(1).padStart(6) + ' KB' : '         '}  ${e.type.padEnd(6)} ${e.name}`,
      );
    }
    console.log(`JavaScript ${(total / 1024).toFixed(1)} KB gzip in ${gz.size} files`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
