import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../tests/helpers/browser';
import { BASELINE_REF, baselineCheckout } from './baseline-panel';
import { coldLoad, signedInState, type ColdLoad, type Ready } from './cold-load';
import { servePanel, type ServedPanel } from './served-panel';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** `BENCH_PAGES=/login,/users` measures those pages only. */
const ONLY = process.env.BENCH_PAGES?.split(',');

/** A page opened cold, what says it is usable, and its targets (ms until usable; gzip JavaScript in KB). */
type ColdPage = { path: string; signedIn: boolean; ready: Ready; what: string; ms: number; kb?: number };

// An empty list: its own empty state (what it holds and how to start, since issue 18), or the previous release's
// 'Нічого не знайдено'.
const emptyList: Ready = [{ selector: '[data-testid="empty-list"]' }, { selector: 'div', text: 'Нічого не знайдено' }];
const PAGES: ColdPage[] = [
  {
    path: '/login',
    signedIn: false,
    ready: { selector: 'button', text: 'Увійти', enabled: true },
    what: 'sign-in button enabled',
    ms: 350,
    kb: 150,
  },
  {
    path: '/users',
    signedIn: true,
    ready: { selector: 'td *', text: 'admin' },
    what: 'rows visible',
    ms: 400,
    kb: 320,
  },
  ...[
    '/accounts/list',
    '/accounts/group/list',
    '/video/list',
    '/video/request-create',
    '/photos',
    '/tags',
    '/ai/list',
    '/ai/video',
    '/ai/logs',
  ].map((path) => ({ path, signedIn: true, ready: emptyList, what: 'empty list shown', ms: 1000 })),
  {
    path: '/setting',
    signedIn: true,
    ready: { selector: 'button', text: 'Змінити пароль' },
    what: 'form shown',
    ms: 1000,
  },
  { path: '/api/docs', signedIn: false, ready: { selector: '.opblock' }, what: 'operations listed', ms: 1000 },
].filter((p) => !ONLY || ONLY.includes(p.path));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function loadOnce(browser: Browser, server: ServedPanel, page: ColdPage): Promise<ColdLoad> {
  const state = page.signedIn ? await signedInState(server.url) : undefined;
  return coldLoad(browser, server.url + page.path, page.ready, state);
}

/**
 * Cold pages, this tree against the previous release (BASELINE_REF, built under .bench/): every page opened
 * from a fresh browser context (nothing cached) on the real server. Each round starts both servers afresh (so
 * first-request costs count, as on a cold server) and opens every page on each, alternating which goes first;
 * each figure is the median of RUNS rounds. Builds this tree's panel first, so the figures are of this tree.
 */
export async function bundleBench(): Promise<void> {
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  const trees = { baseline: baselineCheckout(), now: resolve('.') };
  const runs = new Map<string, { baseline: ColdLoad[]; now: ColdLoad[] }>(
    PAGES.map((p) => [p.path, { baseline: [], now: [] }]),
  );
  const browser = await launchBrowser();
  try {
    for (let round = 0; round < RUNS; round++) {
      const servers = { baseline: await servePanel(trees.baseline), now: await servePanel(trees.now) };
      try {
        for (const [i, page] of PAGES.entries()) {
          const order = (round + i) % 2 ? (['now', 'baseline'] as const) : (['baseline', 'now'] as const);
          for (const which of order) runs.get(page.path)![which].push(await loadOnce(browser, servers[which], page));
        }
      } finally {
        await Promise.all([servers.baseline.close(), servers.now.close()]);
      }
      process.stdout.write(`bundle    round ${round + 1}/${RUNS} done\n`);
    }
  } finally {
    await browser.close();
  }

  const rows: string[][] = [['page', `baseline (${BASELINE_REF})`, 'now', 'target', '']];
  const verdict = (now: number, target: number) => (now <= target ? 'ok' : 'OVER');
  for (const page of PAGES) {
    const { baseline, now } = runs.get(page.path)!;
    const ms = { baseline: median(baseline.map((r) => r.ms)), now: median(now.map((r) => r.ms)) };
    const kb = { baseline: median(baseline.map((r) => r.jsGzip)) / 1024, now: median(now.map((r) => r.jsGzip)) / 1024 };
    // Each median with its runs' spread, since on a busy machine one build's runs can spread over hundreds of ms.
    const spread = (xs: number[]) => `(${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
    rows.push([
      `${page.path} ${page.what}`,
      `${ms.baseline.toFixed(0)} ms ${spread(baseline.map((r) => r.ms))}`,
      `${ms.now.toFixed(0)} ms ${spread(now.map((r) => r.ms))}`,
      `≤ ${page.ms} ms`,
      verdict(ms.now, page.ms),
    ]);
    rows.push([
      `${page.path} JavaScript (gzip)`,
      `${kb.baseline.toFixed(1)} KB`,
      `${kb.now.toFixed(1)} KB`,
      page.kb ? `≤ ${page.kb} KB` : '',
      page.kb ? verdict(kb.now, page.kb) : '',
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log(`bundle    cold pages, median of ${RUNS} runs each, interleaved with ${BASELINE_REF}`);
  for (const r of rows) console.log(`bundle    ${r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}`);
}
