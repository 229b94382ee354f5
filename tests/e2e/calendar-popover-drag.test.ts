import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { seedCalendarPosts } from '../helpers/calendar-posts';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { adminId } from './publish-seed';

/**
 * A post dragged out of a crowded day's "+N more" list (issue 21 item 1) onto another day of the month is moved
 * there as a drag within the grid moves it: the same time of day, checked through the API; a post that has
 * started going out is not draggable from the list. At a laptop width and on a 390 px phone (month view chosen),
 * where the list fits the window. The browser runs in UTC, so the calendar's days are UTC days.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describeOnEachDb('dragging a post out of a crowded day', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInApi;
  // Tomorrow's morning (UTC), 100 posts in six hours: the day shows four and "+ще 80". Two and three days later
  // are still in the month grid shown today (it runs at least five days past the month's end).
  const now = new Date();
  const morning = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 6);
  const crowded = dayOf(morning);
  // The crowded day's posts the list shows (cancelled ones are not drawn); one less after each move.
  let listed = 84;

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    await seedCalendarPosts(srv.tdb.db, {
      owners: [await adminId(srv)],
      posts: 100,
      profiles: 5,
      start: morning,
      spanMs: 6 * HOUR,
    });
    api = await signedInApi(srv);
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

  /** The crowded day's list, opened from its "+ще N". */
  const openList = async () => {
    const more = page.locator(`.fc-dayGridMonth-view td[data-date="${crowded}"] .kadr-more`);
    await more.click();
    const list = page.locator(`[data-day-posts="${crowded}"]`);
    // All of the day's posts, and the list placed for its full height.
    await expect.poll(() => list.locator('[data-post-id]').count()).toBe(listed);
    await settled(list);
    return list;
  };

  /**
   * The element's box once it has stopped moving (a popover is placed again when its content grows, and it grows in
   * with a transition): the same box over 300 ms, since on a busy machine a transition's frames can be 100 ms apart.
   */
  const settled = async (el: Locator) => {
    let box = await el.boundingBox();
    for (let still = 0; ;) {
      await page.waitForTimeout(100);
      const next = await el.boundingBox();
      still = box && next && JSON.stringify(box) === JSON.stringify(next) ? still + 1 : 0;
      if (still === 3) return next!;
      box = next;
    }
  };

  /** Drags `item` onto the month's cell of `day`, as a mouse does. */
  const dragTo = async (item: Locator, day: string) => {
    const from = await settled(item);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 6, from.y + from.height / 2 + 6, { steps: 3 });
    // The day's cell where it is once the drag has started.
    const to = (await page.locator(`.fc-dayGridMonth-view td.fc-day[data-date="${day}"]`).boundingBox())!;
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
  };

  /** The post's due time, through the calendar API (the month around it). */
  const dueOf = async (id: number): Promise<string> => {
    const start = new Date(morning - 10 * DAY).toISOString();
    const end = new Date(morning + 20 * DAY).toISOString();
    const answer = (await api('GET', `/api/calendar/posts?start=${start}&end=${end}`)) as {
      data: Array<{ id: number; dueAt: string }>;
    };
    return answer.data.find((p) => p.id === id)!.dueAt;
  };

  /** Moves the list's first movable post onto `day` and checks its new due time: the same time of day. */
  const moveFirstTo = async (day: string) => {
    const list = await openList();
    const item = list.locator('[data-movable]').first();
    const id = Number(await item.getAttribute('data-post-id'));
    const before = await dueOf(id);
    expect(await item.getAttribute('data-due')).toBe(before);
    await dragTo(item, day);
    await page.locator('[role="status"]').filter({ hasText: 'Допис перенесено' }).first().waitFor();
    await expect.poll(() => dueOf(id)).toBe(`${day}${before.slice(10)}`);
    listed--;
    // The list closed; the month asked again: the post is drawn on its new day, the crowded day counts one less.
    await page.locator(`[data-day-posts="${crowded}"]`).waitFor({ state: 'detached' });
    await page.locator(`td.fc-day[data-date="${day}"] [data-post-id="${id}"]`).waitFor();
    return id;
  };

  it('a cold month view asks for its month and its days over budget once, before the shell draws, weeks from Monday or Sunday', async () => {
    for (const lang of ['en', 'uk']) {
      await page.evaluate((l) => localStorage.setItem('kadr.locale', l), lang);
      const asked: string[] = [];
      const onRequest = (r: { url: () => string }) => {
        if (/\/api\/(calendar\/days|notifications|slots\/over-days|slots\/capacity)/.test(r.url())) asked.push(r.url());
      };
      page.on('request', onRequest);
      await page.goto(`${srv.url}/calendar`);
      await page.locator(`.fc-dayGridMonth-view td[data-date="${crowded}"] .kadr-more`).waitFor();
      await page.waitForLoadState('networkidle');
      page.off('request', onRequest);
      // One ask, sent before the panel's shell had drawn (its bell asks for the notifications when it does): the
      // page's first script sent it, and the calendar took its answer.
      expect(asked.filter((u) => u.includes('/api/calendar/days'))).toHaveLength(1);
      expect(asked[0]).toContain('/api/calendar/days');
      // Its days over budget with it, for the same range, and only those (not the capacity view's whole answer).
      expect(asked[1]).toContain('/api/slots/over-days');
      expect(new URL(asked[1]!).searchParams.get('start')).toBe(new URL(asked[0]!).searchParams.get('start'));
      expect(asked.filter((u) => u.includes('/api/slots/'))).toHaveLength(1);
    }
  });

  it('at 1440 px: a post dragged from "+ще N" onto another day is moved there at the same time of day', async () => {
    await page.goto(`${srv.url}/calendar`);
    const more = page.locator(`.fc-dayGridMonth-view td[data-date="${crowded}"] .kadr-more`);
    await more.waitFor();
    expect(await more.innerText()).toBe('+ще 80');
    const list = await openList();
    // Only posts that have not started going out can be dragged; the list says how.
    expect(await list.innerText()).toContain('Перетягніть допис на інший день');
    const published = list.locator('[data-state="published"]').first();
    expect(await published.getAttribute('data-movable')).toBeNull();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });

    await moveFirstTo(dayOf(morning + 2 * DAY));
    expect(await more.innerText()).toBe('+ще 79');
  });

  it('a post from the list that started going out meanwhile is refused with the reason and stays', async () => {
    await page.goto(`${srv.url}/calendar`);
    const list = await openList();
    const item = list.locator('[data-movable]').first();
    const id = Number(await item.getAttribute('data-post-id'));
    const before = await dueOf(id);
    // The list still shows it as scheduled; the worker has started it since.
    await srv.tdb.db.updateTable('videoPublishes').set({ state: 'uploading' }).where('id', '=', id).execute();
    await dragTo(item, dayOf(morning + 2 * DAY));
    await page.locator('[role="status"]').filter({ hasText: 'уже публікується' }).first().waitFor();
    expect(await dueOf(id)).toBe(before);
    // Still listed (drawn on its day), no longer draggable.
    await page
      .locator('[role="status"]')
      .filter({ hasText: 'уже публікується' })
      .first()
      .waitFor({ state: 'detached' });
  });

  it('on a 390 px phone, in the month view: the list fits the window and a post dragged from it is moved', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${srv.url}/calendar`);
    await page.locator('.fc-list').waitFor();
    // The week's title on one line beside the arrows and "today" (its line boxes: one).
    const title = page.locator('.fc-toolbar-title');
    expect(await title.innerText()).toMatch(/ – /);
    const lines = () =>
      title.evaluate((h) => {
        const r = document.createRange();
        r.selectNodeContents(h);
        return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
      });
    expect(await lines()).toBe(1);
    await page.getByRole('button', { name: 'Місяць', exact: true }).click();
    await page.locator('.fc-dayGridMonth-view').waitFor();
    const list = await openList();
    const box = (await list.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });

    await moveFirstTo(dayOf(morning + 3 * DAY));
  });
});
