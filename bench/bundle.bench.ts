import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../tests/helpers/browser';
import { BASELINE_REF, baselineCheckout } from './baseline-panel';
import { coldLoad, signedInState, type ColdLoad, type Ready } from './cold-load';
import { serveFloorPanel } from './floor-panel/server';
import { servePanel, type ServedPanel } from './served-panel';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** `BENCH_PAGES=/login,/users` measures those pages only. */
const ONLY = process.env.BENCH_PAGES?.split(',');

/**
 * A page opened cold, what says it is usable, and its targets (ms until usable; gzip JavaScript in KB). `floor`: what
 * says the same page of the floor app (bench/floor-panel: a bare react-admin app) is usable, for the pages it has.
 */
type ColdPage = { path: string; signedIn: boolean; ready: Ready; what: string; ms: number; kb?: number; floor?: Ready };
type Build = 'baseline' | 'now' | 'floor';

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
    floor: { selector: 'button', text: 'Sign in', enabled: true },
  },
  {
    path: '/users',
    signedIn: true,
    ready: { selector: 'td *', text: 'admin' },
    what: 'rows visible',
    ms: 400,
    kb: 320,
    floor: { selector: 'td', text: 'admin' },
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

async function loadOnce(browser: Browser, server: ServedPanel, page: ColdPage, build: Build): Promise<ColdLoad> {
  const state = page.signedIn ? await signedInState(server.url) : undefined;
  return coldLoad(browser, server.url + page.path, build === 'floor' ? page.floor! : page.ready, state);
}

/**
 * Cold pages, this tree against the previous release (BASELINE_REF, built under .bench/) and, where it has the page,
 * the floor app (a bare react-admin app behind `node:http`): every page opened from a fresh browser context (nothing
 * cached). Each round starts the servers afresh (so first-request costs count, as on a cold server) and opens every
 * page on each build, rotating which goes first; each figure is the median of RUNS rounds. Builds this tree's panel
 * and the floor app first, so the figures are of this tree.
 */
export async function bundleBench(): Promise<void> {
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  execSync('npx vite build --config bench/floor-panel/vite.config.ts', { stdio: 'inherit' });
  const trees = { baseline: baselineCheckout(), now: resolve('.') };
  const runs = new Map<string, Record<Build, ColdLoad[]>>(
    PAGES.map((p) => [p.path, { baseline: [], now: [], floor: [] }]),
  );
  const browser = await launchBrowser();
  try {
    for (let round = 0; round < RUNS; round++) {
      const servers: Record<Build, ServedPanel> = {
        baseline: await servePanel(trees.baseline),
        now: await servePanel(trees.now),
        floor: await serveFloorPanel(),
      };
      try {
        for (const [i, page] of PAGES.entries()) {
          const builds: Build[] = page.floor ? ['baseline', 'now', 'floor'] : ['baseline', 'now'];
          const first = (round + i) % builds.length;
          for (const which of [...builds.slice(first), ...builds.slice(0, first)])
            runs.get(page.path)![which].push(await loadOnce(browser, servers[which], page, which));
        }
      } finally {
        await Promise.all(Object.values(servers).map((s) => s.close()));
      }
      process.stdout.write(`bundle    round ${round + 1}/${RUNS} done\n`);
    }
  } finally {
    await browser.close();
  }

  const rows: string[][] = [['page', `baseline (${BASELINE_REF})`, 'now', 'floor (bare react-admin)', 'target', '']];
  const verdict = (now: number, target: number) => (now <= target ? 'ok' : 'OVER');
  // Each median with its runs' spread, since on a busy machine one build's runs can spread over hundreds of ms.
  const time = (loads: ColdLoad[]) => {
    const ms = loads.map((r) => r.ms);
    return loads.length
      ? `${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`
      : '';
  };
  const size = (loads: ColdLoad[]) =>
    loads.length ? `${(median(loads.map((r) => r.jsGzip)) / 1024).toFixed(1)} KB` : '';
  for (const page of PAGES) {
    const loads = runs.get(page.path)!;
    const now = { ms: median(loads.now.map((r) => r.ms)), kb: median(loads.now.map((r) => r.jsGzip)) / 1024 };
    rows.push([
      `${page.path} ${page.what}`,
      time(loads.baseline),
      time(loads.now),
      time(loads.floor),
      `≤ ${page.ms} ms`,
      verdict(now.ms, page.ms),
    ]);
    rows.push([
      `${page.path} JavaScript (gzip)`,
      size(loads.baseline),
      size(loads.now),
      size(loads.floor),
      page.kb ? `≤ ${page.kb} KB` : '',
      page.kb ? verdict(now.kb, page.kb) : '',
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log(`bundle    cold pages, median of ${RUNS} runs each, interleaved with ${BASELINE_REF}`);
  for (const r of rows) console.log(`bundle    ${r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}`);
}
