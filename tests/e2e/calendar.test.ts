import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { seedFinishedRequest } from '../helpers/finished-request';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { adminId, youtubeProfile } from './publish-seed';

/**
 * The calendar (issue 21 item 1) in Chromium, in Ukrainian: a scheduled post shows in the month view (weeks from
 * Monday), the views switch, and the post dragged to the next day stays there after a reload.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const DAY = 24 * 3600 * 1000;
/** The browser's local calendar day of an instant, as FullCalendar names its day cells (the browser runs in UTC). */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describeOnEachDb('calendar in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInApi;
  let postId = 0;
  // Two days ahead at 10:00 UTC, then moved a day on; the month view shown is the one that holds the first.
  const due = Math.floor((Date.now() + 2 * DAY) / DAY) * DAY + 10 * 3600 * 1000;

  beforeAll(async () => {
    // PostgreSQL needs the shared keys given (server/config.ts requireSharedSecrets).
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    api = await signedInApi(srv);
    const account = await youtubeProfile(srv, api, 'Календарний профіль');
    const { idUpload, videos } = await seedFinishedRequest(srv.tdb.db, await adminId(srv), 1);
    await api('POST', `/api/upload-video/${idUpload}`, {
      title: 'Календарний шортс',
      description: '',
      tags: ['ліс'],
      accounts: [account],
      inYouTube: true,
      date: new Date(due).toISOString(),
      video: [
        {
          id: videos[0],
          title: 'Календарний шортс',
          description: '',
          tags: ['ліс'],
          account,
          date: new Date(due).toISOString(),
        },
      ],
    });
    postId = (
      await srv.tdb.db
        .selectFrom('videoPublishes')
        .select('id')
        .where('videoId', '=', videos[0]!)
        .executeTakeFirstOrThrow()
    ).id;
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

  const entry = () => page.locator(`[data-post-id="${postId}"]`);
  const openMonthOf = async (ms: number) => {
    await page.goto(`${srv.url}/calendar`);
    await page.locator('.fc-dayGridMonth-view').waitFor();
    if (new Date(ms).getUTCMonth() !== new Date().getUTCMonth()) await page.locator('.fc-next-button').click();
    await entry().waitFor();
  };

  /** Drags the post's entry onto a day cell of the month view, as a mouse does. */
  const dragTo = async (day: string) => {
    const from = (await entry().boundingBox())!;
    const to = (await page.locator(`td.fc-day[data-date="${day}"]`).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
  };

  it('shows the post in the Ukrainian month view from the menu, weeks from Monday; switches views', async () => {
    await page.goto(`${srv.url}/video/list`);
    await page.getByRole('menuitem', { name: 'Календар' }).click();
    await page.waitForURL((u) => u.pathname === '/calendar');
    await openMonthOf(due);
    expect(await page.locator('.fc-col-header-cell').first().innerText()).toMatch(/^пн/i);
    await page.getByRole('button', { name: 'Сьогодні' }).waitFor();
    // The profile first, by its id and the operator's name for it: channel names may be alike.
    expect(await entry().innerText()).toMatch(/#\d+ · Календарний профіль · YouTube · Календарний шортс/);
    expect(await entry().getAttribute('data-state')).toBe('scheduled');
    const view = (name: string) => page.getByRole('button', { name, exact: true }).click();
    await view('Тиждень');
    await page.locator('.fc-timeGridWeek-view').waitFor();
    await view('День');
    await page.locator('.fc-timeGridDay-view').waitFor();
    await view('Список');
    await page.locator('.fc-list').waitFor();
    // The list is a week's: the post (due in two days) is in this week's or the next one's.
    await page.waitForLoadState('networkidle');
    if (!(await entry().count())) await page.locator('.fc-next-button').click();
    expect(await entry().innerText()).toContain('Календарний шортс');
    expect(await page.locator('.fc-listWeek-view').count()).toBe(1);
    // Its table's header, read by screen readers only, is in the panel's language (FullCalendar's own was English).
    expect(await page.locator('.fc-list-table thead th').allTextContents()).toEqual(['Час', '', 'Допис']);
    await view('Місяць');
    await page.locator('.fc-dayGridMonth-view').waitFor();
  });

  it('a post dragged to the next day is moved there, and stays after a reload', async () => {
    await openMonthOf(due);
    const target = dayOf(due + DAY);
    if (new Date(due + DAY).getUTCMonth() !== new Date(due).getUTCMonth())
      await page.locator('.fc-next-button').click();
    await dragTo(target);
    await page.locator('[role="status"]').filter({ hasText: 'Допис перенесено' }).first().waitFor();
    const row = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select('dueAt')
      .where('id', '=', postId)
      .executeTakeFirstOrThrow();
    expect(row.dueAt).toBe(new Date(due + DAY).toISOString());
    await page.reload();
    await page.locator('.fc-dayGridMonth-view').waitFor();
    await page.locator(`td.fc-day[data-date="${target}"] [data-post-id="${postId}"]`).waitFor();
  });

  it('a post that started going out meanwhile is refused with the reason, and its entry snaps back', async () => {
    await openMonthOf(due + DAY);
    // The page still shows it as scheduled; the worker has started it since.
    await srv.tdb.db.updateTable('videoPublishes').set({ state: 'uploading' }).where('id', '=', postId).execute();
    await dragTo(dayOf(due + 2 * DAY));
    await page.locator('[role="status"]').filter({ hasText: 'уже публікується' }).first().waitFor();
    await page.locator(`td.fc-day[data-date="${dayOf(due + DAY)}"] [data-post-id="${postId}"]`).waitFor();
    const row = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select('dueAt')
      .where('id', '=', postId)
      .executeTakeFirstOrThrow();
    expect(row.dueAt).toBe(new Date(due + DAY).toISOString());
  });

  it("marks today in the operator's zone, not UTC's", async () => {
    // A zone whose date differs from UTC's now: far east late in the UTC day, far west early in it.
    const timezoneId = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const there = await browser.newContext({ timezoneId, viewport: { width: 1280, height: 900 } });
    const p = await there.newPage();
    await signInAs(p, srv.url, 'admin', 'admin-pass');
    await p.goto(`${srv.url}/calendar`);
    const today = await p.locator('.fc-dayGridMonth-view td.fc-day-today').getAttribute('data-date');
    const zoneDate = new Intl.DateTimeFormat('en-CA', { timeZone: timezoneId }).format(new Date());
    expect(zoneDate).not.toBe(new Date().toISOString().slice(0, 10));
    expect(today).toBe(zoneDate);
    await there.close();
  });

  it('on a 390 px phone the list view comes first', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${srv.url}/calendar`);
    await page.locator('.fc-list').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
