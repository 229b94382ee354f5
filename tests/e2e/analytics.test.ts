import type { Browser, BrowserContext, Page } from 'playwright-core';
import { StatsHistoryRepository } from '../../server/analytics/stats-history.repository';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { insertPublishedPost } from '../helpers/db';
import { seedFinishedRequest } from '../helpers/finished-request';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { seedAnalytics } from './analytics-seed';
import { adminId, youtubeProfile } from './publish-seed';

/**
 * Analytics (issue 22) in Chromium, in Ukrainian: two outputs of one request went out on YouTube eight days ago
 * and were read over a week; the dashboard's views-per-day table holds what they grew by, the request's page
 * compares the two variants at 24 h and 7 days, and the dashboard fits a 390 px window.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const HOUR = 3600_000;

describeOnEachDb('analytics in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInApi;
  let requestId = 0;

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    api = await signedInApi(srv);
    const account = await youtubeProfile(srv, api, 'Аналітичний профіль');
    const { id, idUpload, videos } = await seedFinishedRequest(srv.tdb.db, await adminId(srv), 2);
    requestId = id;
    const date = new Date(Date.now() + 60_000).toISOString();
    await api('POST', `/api/upload-video/${idUpload}`, {
      title: 'Шортс для аналітики',
      description: '',
      tags: ['ліс'],
      accounts: [account],
      inYouTube: true,
      date,
      video: videos.map((v) => ({ id: v, title: `Варіант ${v}`, description: '', tags: ['ліс'], account, date })),
    });
    // Both went public eight days ago (workers are off: the rows are moved here), and were read over the week.
    const publishedMs = Date.now() - 8 * 24 * HOUR;
    const history = new StatsHistoryRepository(srv.tdb.db);
    const reads = [
      [100, 700, 900],
      [50, 200, 300],
    ];
    for (const [i, videoId] of videos.entries()) {
      const { id: publishId } = await srv.tdb.db
        .updateTable('videoPublishes')
        .set({ state: 'published', remoteId: `yt-${videoId}`, publishedAt: new Date(publishedMs).toISOString() })
        .where('videoId', '=', videoId)
        .returning('id')
        .executeTakeFirstOrThrow();
      const [at24h, at7d, now] = reads[i]!;
      const post = { publishId, accountId: account, platform: 'youtube' };
      const counters = (views: number) => ({ views, likes: 0, comments: 0, shares: 0, saves: 0 });
      await history.record(post, publishedMs + 24 * HOUR, counters(at24h!));
      await history.record(post, publishedMs + 7 * 24 * HOUR, counters(at7d!));
      await history.record(post, Date.now() - 60_000, counters(now!));
      await srv.tdb.db.updateTable('videoPublishes').set({ views: now! }).where('id', '=', publishId).execute();
    }
    browser = await launchBrowser();
    context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await srv?.close();
  });

  /** A table's body rows as text cells. */
  const rowsOf = (table: string) =>
    page
      .locator(`[data-stats-table="${table}"] tbody tr`)
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
  const count = (text: string) => Number(text.replace(/\D/g, '') || 'NaN');

  it("the dashboard's views-per-day table holds what the posts grew by, per platform", async () => {
    await page.goto(`${srv.url}/analytics`);
    const table = page.locator('[data-stats-table="views-by-day-30d"]');
    await table.waitFor();
    await expect(page.getByRole('heading', { name: 'Перегляди за днями' })).toBeTruthy();
    // The days across profiles are each profile's own (its time zone's), and the chart says so.
    await expect(
      page.locator('[data-chart="views-by-day-30d"] [data-testid="chart-days-note"]').innerText(),
    ).resolves.toBe('Дні — у часовому поясі кожного профілю');
    const head = await table.locator('thead th').allTextContents();
    expect(head).toEqual(['День', 'YouTube', 'TikTok', 'Instagram']);
    const rows = await rowsOf('views-by-day-30d');
    expect(rows).toHaveLength(30);
    // Every day's growth adds up to the posts' latest counts: 900 + 300.
    expect(rows.reduce((a, r) => a + count(r[1]!), 0)).toBe(1200);
    expect(rows.every((r) => count(r[2]!) === 0 && count(r[3]!) === 0)).toBe(true);
    // Per platform: a counter a row, a platform a column (four columns fit a phone).
    const platforms = await rowsOf('by-platform-30d');
    expect(platforms[0]!.map((c, i) => (i ? count(c) : c))).toEqual(['Перегляди', 1200, 0, 0]);
  });

  it('a cold page on /analytics asks for the dashboard once (with the panel’s code), a period asks again', async () => {
    const asked: string[] = [];
    const onRequest = (r: { url: () => string }) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/analytics/dashboard') asked.push(url.search);
    };
    page.on('request', onRequest);
    try {
      await page.goto(`${srv.url}/analytics`);
      await page.locator('[data-stats-table="views-by-day-30d"]').waitFor();
      await page.waitForLoadState('networkidle');
      expect(asked).toEqual(['?days=30']);
      await page.getByRole('button', { name: '7 днів' }).click();
      await page.locator('[data-stats-table="views-by-day-7d"]').waitFor();
      expect(asked).toEqual(['?days=30', '?days=7']);
      expect(await rowsOf('views-by-day-7d')).toHaveLength(7);
    } finally {
      page.off('request', onRequest);
    }
  });

  it("the request's page puts its variants side by side at 24 h and 7 days", async () => {
    await page.goto(`${srv.url}/video/request-create/${requestId}`);
    await page.locator(`[data-stats-table="request-${requestId}-variants"]`).waitFor();
    const rows = await rowsOf(`request-${requestId}-variants`);
    expect(rows.map((r) => [r[0], count(r[1]!), count(r[2]!), count(r[3]!), r[4]])).toEqual([
      ['Варіант 1', 100, 700, 900, 'фото'],
      ['Варіант 2', 50, 200, 300, 'фото'],
    ]);
    // Each output's variation parameters are shown with it (on its card, not as seven more columns).
    await expect(page.locator('[data-variant="0"] dl dt').count()).resolves.toBe(7);
    expect(rows[0]).toHaveLength(5);
    // The comparison fits a phone without scrolling sideways inside its box.
    await page.setViewportSize({ width: 390, height: 844 });
    const table = page.locator(`[data-stats-table="request-${requestId}-variants"]`);
    await table.waitFor();
    const box = await table.evaluate((t) => {
      const c = t.parentElement!;
      return { scroll: c.scrollWidth, width: c.clientWidth, page: document.documentElement.scrollWidth };
    });
    expect(box.scroll).toBeLessThanOrEqual(box.width);
    expect(box.page).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the dashboard fits a 390 px window', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${srv.url}/analytics`);
    await page.locator('[data-stats-table="views-by-day-30d"]').waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(390);
  });
});

/**
 * The dashboard's look with a studio's realistic numbers (tens of thousands of views a day on three platforms),
 * read-only, on SQLite: no axis label is cut, bars wear their platform's colour, the page and its tables fit a
 * phone, a user with nothing read yet sees "no stats" instead of empty frames, and a profile's chart has a card
 * of its own like the profile page's other panels.
 */
describe('the analytics dashboard looks like a product', () => {
  let srv: TestServer;
  let browser: Browser;
  let profiles: number[] = [];

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel);
    ({ profiles } = await seedAnalytics(srv));
    const api = await signedInApi(srv);
    await api('POST', '/api/users', { login: 'newcomer', password: 'newcomer-pass' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  /** A signed-in page at `width` in `lang`. */
  const open = async (width: number, lang: 'uk' | 'en', login = 'admin', password = 'admin-pass') => {
    const context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: 1280, height: 900 } });
    await context.addInitScript((l) => localStorage.setItem('kadr.locale', l), lang);
    const page = await context.newPage();
    // Signed in on a laptop (a phone's menu is a closed drawer), then the window takes its width.
    await signInAs(page, srv.url, login, password);
    await page.setViewportSize({ width, height: 900 });
    return { page, done: () => context.close() };
  };
  const dashboard = async (page: Page) => {
    await page.goto(`${srv.url}/analytics`);
    await page.locator('[data-chart="by-platform"] .MuiBarElement-root').first().waitFor();
    await page.locator('[data-chart="views-by-day-30d"] .MuiChartsAxis-tickLabel').first().waitFor();
  };
  /** Axis labels the chart shortened ("0.0…") or that run out of their picture. */
  const cutTicks = (page: Page) =>
    page.locator('.MuiChartsAxis-tickLabel').evaluateAll((labels) =>
      labels
        .filter((l) => {
          const svg = l.closest('svg')!.getBoundingClientRect();
          const r = l.getBoundingClientRect();
          const out = r.left < svg.left - 1 || r.right > svg.right + 1 || r.top < svg.top - 1;
          return (l.textContent ?? '').includes('…') || out;
        })
        .map((l) => l.textContent),
    );

  it.each([
    [1440, 'uk'],
    [1440, 'en'],
    [390, 'uk'],
    [390, 'en'],
  ] as const)('at %i px in %s no axis label is cut and nothing scrolls sideways', async (width, lang) => {
    const { page, done } = await open(width, lang);
    try {
      await dashboard(page);
      expect(await cutTicks(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // No table scrolls inside its card either: each fits (the top lists stack their rows on a phone).
      const wide = await page
        .locator('[data-stats-table]')
        .evaluateAll((ts) =>
          ts
            .filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1)
            .map((t) => t.getAttribute('data-stats-table')),
        );
      expect(wide).toEqual([]);
      // The layout keeps its sidebar whole beside the charts on a laptop.
      if (width === 1440)
        expect(await page.locator('.RaSidebar-docked').evaluate((e) => e.getBoundingClientRect().width)).toBe(240);
    } finally {
      await done();
    }
  });

  it("each platform's bar wears its platform's colour", async () => {
    const { page, done } = await open(1440, 'uk');
    try {
      await dashboard(page);
      const fills = await page
        .locator('[data-chart="by-platform"] .MuiBarElement-root')
        .evaluateAll((bars) => bars.map((b) => getComputedStyle(b).fill));
      expect(fills).toEqual(['rgb(229, 57, 53)', 'rgb(0, 151, 167)', 'rgb(171, 71, 188)']);
    } finally {
      await done();
    }
  });

  it('nothing read yet: each chart says so instead of drawing an empty frame', async () => {
    const { page, done } = await open(1440, 'uk', 'newcomer', 'newcomer-pass');
    try {
      await page.goto(`${srv.url}/analytics`);
      for (const chart of ['by-platform', 'views-by-day-30d']) {
        const box = page.locator(`[data-chart="${chart}"]`);
        await expect(box.locator('[data-no-stats]').innerText()).resolves.toBe(
          'Ще немає статистики: вона з’явиться після першого зчитування',
        );
        expect(await box.locator('svg.MuiChartsSurface-root, [role="img"]').count()).toBe(0);
      }
    } finally {
      await done();
    }
  });

  /** A finished request of `count` videos, each published on YouTube just now (not read yet): its id. */
  const publishedRequest = async (count: number) => {
    const { id, videos } = await seedFinishedRequest(srv.tdb.db, await adminId(srv), count);
    const at = new Date().toISOString();
    for (const videoId of videos)
      await insertPublishedPost(srv.tdb.db, { videoId, accountId: profiles[0]!, platform: 'youtube', at });
    return id;
  };

  it('a render request whose posts were not read yet says so instead of drawing empty axes', async () => {
    const id = await publishedRequest(2);
    const { page, done } = await open(1440, 'uk');
    try {
      await page.goto(`${srv.url}/video/request-create/${id}`);
      const variants = page.locator(`[data-variants="${id}"]`);
      await expect(variants.locator('[data-no-stats]').innerText()).resolves.toBe(
        'Ще немає статистики: вона з’явиться після першого зчитування',
      );
      expect(await variants.locator('svg.MuiChartsSurface-root').count()).toBe(0);
      // The table and each output's card are still there, with their dashes.
      await expect(variants.locator('[data-variant]').count()).resolves.toBe(2);
    } finally {
      await done();
    }
  });

  it('on a 390 px phone the variants table stacks its rows and grows with them: no row cut by a scroll box', async () => {
    const id = await publishedRequest(4);
    const { page, done } = await open(390, 'uk');
    try {
      await page.goto(`${srv.url}/video/request-create/${id}`);
      const table = page.locator(`[data-stats-table="request-${id}-variants"]`);
      await table.locator('tbody tr').nth(3).waitFor();
      const box = await table.evaluate((t) => ({
        scroll: t.parentElement!.scrollHeight,
        client: t.parentElement!.clientHeight,
        rows: t.querySelectorAll('tbody tr').length,
      }));
      expect(box.rows).toBe(4);
      expect(box.scroll).toBeLessThanOrEqual(box.client + 1);
      // The last row's background, its last cell, is there.
      await expect(table.locator('tbody tr').last().innerText()).resolves.toMatch(/\n(фото|відео|розмитий кліп)$/);
    } finally {
      await done();
    }
  });

  it("a profile's chart has an outlined card of its own, like the profile page's other panels", async () => {
    const { page, done } = await open(1440, 'en');
    try {
      await page.goto(`${srv.url}/accounts/${profiles[0]}`);
      const chart = page.locator('[data-chart^="profile-"]');
      await chart.locator('.MuiChartsAxis-tickLabel').first().waitFor();
      const card = await chart.evaluate((e) => e.closest('.MuiPaper-root')!.className);
      expect(card).toContain('MuiPaper-outlined');
      expect(await cutTicks(page)).toEqual([]);
      // Its days are the profile's (a profile that never chose a zone is in UTC), named under the title.
      await expect(chart.locator('[data-testid="chart-days-note"]').innerText()).resolves.toBe(
        "Days in the profile's time zone, UTC",
      );
    } finally {
      await done();
    }
  });
});
