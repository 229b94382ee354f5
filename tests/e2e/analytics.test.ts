import type { Browser, BrowserContext, Page } from 'playwright-core';
import { StatsHistoryRepository } from '../../server/analytics/stats-history.repository';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { seedFinishedRequest } from '../helpers/finished-request';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
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
    const head = await table.locator('thead th').allTextContents();
    expect(head).toEqual(['День', 'YouTube', 'TikTok', 'Instagram']);
    const rows = await rowsOf('views-by-day-30d');
    expect(rows).toHaveLength(30);
    // Every day's growth adds up to the posts' latest counts: 900 + 300.
    expect(rows.reduce((a, r) => a + count(r[1]!), 0)).toBe(1200);
    expect(rows.every((r) => count(r[2]!) === 0 && count(r[3]!) === 0)).toBe(true);
    const platforms = await rowsOf('by-platform-30d');
    expect(platforms[0]!.slice(0, 2).map((c, i) => (i ? count(c) : c))).toEqual(['YouTube', 1200]);
  });

  it("the request's page puts its variants side by side at 24 h and 7 days", async () => {
    await page.goto(`${srv.url}/video/request-create/${requestId}`);
    await page.locator(`[data-stats-table="request-${requestId}-variants"]`).waitFor();
    const rows = await rowsOf(`request-${requestId}-variants`);
    expect(rows.map((r) => [r[0], count(r[1]!), count(r[2]!), count(r[3]!), r[4]])).toEqual([
      ['Варіант 1', 100, 700, 900, 'фото'],
      ['Варіант 2', 50, 200, 300, 'фото'],
    ]);
    // Each output's variation parameters are shown with it.
    await expect(page.locator('[data-variant="0"] dl dt').count()).resolves.toBe(7);
  });

  it('the dashboard fits a 390 px window', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${srv.url}/analytics`);
    await page.locator('[data-stats-table="views-by-day-30d"]').waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(390);
  });
});
