import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { seedCalendarPosts } from '../helpers/calendar-posts';
import { startTestServer, type TestServer } from '../helpers/server';
import { adminId } from './publish-seed';

/**
 * A crowded day in the calendar's month view (issue 21 item 1, "+N more"), in Chromium at a laptop width: 100
 * posts in one morning (84 of them not cancelled) show as the day's first four and "+ще 80", whose popover (the
 * day's list, asked for when it opens) lists them all; the four filters sit in one row above the month. Times are
 * on a 24-hour clock in English as in Ukrainian, the grid's and the list's alike.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const HOUR = 3600_000;

describeOnEachDb('a crowded day in the calendar', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const now = new Date();
  const morning = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 6);
  const day = new Date(morning).toISOString().slice(0, 10);

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    await seedCalendarPosts(srv.tdb.db, {
      owners: [await adminId(srv)],
      posts: 100,
      profiles: 5,
      start: morning,
      spanMs: 6 * HOUR,
    });
    browser = await launchBrowser();
    context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await srv?.close();
  });

  it('shows the first four posts of the day and "+ще N" for the rest, listed in its popover', async () => {
    await page.goto(`${srv.url}/calendar`);
    const cell = page.locator(`.fc-dayGridMonth-view td[data-date="${day}"]`);
    const more = cell.locator('.kadr-more');
    await more.waitFor();
    expect(await more.innerText()).toBe('+ще 80');
    expect(await more.getAttribute('title')).toBe('Ще 80 дописів цього дня: показати всі');
    expect(
      await cell.locator('.fc-daygrid-event-harness:not(.fc-daygrid-event-harness-abs) [data-post-id]').count(),
    ).toBe(4);
    const drawn = await cell
      .locator('[data-post-id]')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.postId));
    // The filters in one row, the month under them (where it was first drawn: nothing above it moves it down).
    const monthTop = await page.locator('.fc-dayGridMonth-view').evaluate((el) => el.getBoundingClientRect().top);
    await expect.poll(() => page.locator('[data-calendar] .MuiInputBase-root').count()).toBe(4);
    expect(await page.locator('.fc-dayGridMonth-view').evaluate((el) => el.getBoundingClientRect().top)).toBe(monthTop);
    const tops = await page
      .locator('[data-calendar] .MuiInputBase-root')
      .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size).toBe(1);
    await more.click();
    const popover = page.locator(`[data-day-posts="${day}"]`);
    await popover.waitFor();
    await expect.poll(() => popover.locator('[data-post-id]').count()).toBe(84);
    expect(await popover.innerText()).toContain('Усі дописи дня (84)');
    // The four drawn are the day's first four as the list orders them (by time, then id).
    const listed = await popover
      .locator('[data-post-id]')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.postId));
    expect(listed.slice(0, 4)).toEqual(drawn);
    // A post in the list opens its publication.
    await popover.locator('[data-post-id]').first().click();
    await page.waitForURL(/\/video\/youtube\//);
  });

  it('writes times on a 24-hour clock in English too, the same in the grid and in the day’s list', async () => {
    await page.evaluate(() => localStorage.setItem('kadr.locale', 'en'));
    await page.goto(`${srv.url}/calendar`);
    const cell = page.locator(`.fc-dayGridMonth-view td[data-date="${day}"]`);
    await cell.locator('.kadr-more').waitFor();
    const first = cell.locator('[data-post-id]').first();
    const id = await first.getAttribute('data-post-id');
    const inGrid = (await first.locator('.fc-event-time').innerText()).trim();
    // The morning's posts start at 06:00 UTC (the browser's zone): '06:00', never '06:00 AM'.
    expect(inGrid).toMatch(/^(0[6-9]|1[01]):[0-5]\d$/);
    await cell.locator('.kadr-more').click();
    const item = page.locator(`[data-day-posts="${day}"] [data-post-id="${id}"]`);
    await item.waitFor();
    expect(await item.locator('span').nth(1).innerText()).toBe(inGrid);
    await page.keyboard.press('Escape');
    // The week's hours too.
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await page.locator('.fc-timegrid-slot-label-cushion').first().waitFor();
    expect(await page.locator('.fc-timegrid-slot-label-cushion').first().innerText()).toBe('00:00');
    await page.evaluate(() => localStorage.setItem('kadr.locale', 'uk'));
  });
});
