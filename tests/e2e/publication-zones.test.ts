import type { Browser, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs, signedInWindow } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { renderedRequest, youtubeProfile } from './publish-seed';

/**
 * The publication page (`/video/youtube/{idUpload}`) in its profiles' zones (issue 21 item 2), in a browser that
 * runs in New York (neither zone): a video of a profile in Europe/Kyiv shows its date and its post's wait in Kyiv time with the zone
 * named; a video of a profile that never chose a zone shows UTC, named "UTC". The page edits each platform's own
 * text (issue 21 item 6) with the publish form's card. At 1440 and 390 px nothing overflows.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
// A winter date within the scheduling horizon: 10:00 UTC is 12:00 in Kyiv (EET, UTC+2).
const year = new Date().getUTCFullYear() + 1;
const at = `${year}-01-15T10:00:00.000Z`;
const waitUntil = `${year}-01-15T12:30:00.000Z`;

describeOnEachDb('publication page in its profiles’ zones', (kind) => {
  let srv: TestServer;
  let api: SignedInApi;
  let browser: Browser;
  let idUpload = '';
  let publicationId = 0;
  let videos: number[] = [];

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    api = await signedInApi(srv);
    const kyiv = await youtubeProfile(srv, api, 'Київський профіль');
    const plain = await youtubeProfile(srv, api, 'Профіль без зони');
    await srv.tdb.db.updateTable('accounts').set({ timeZone: 'Europe/Kyiv' }).where('id', '=', kyiv).execute();
    await srv.tdb.db.updateTable('accounts').set({ timeZone: null }).where('id', '=', plain).execute();
    const req = await renderedRequest(srv, 2);
    ({ idUpload, videos } = req);
    ({ id: publicationId } = await api('POST', `/api/upload-video/${idUpload}`, {
      title: 'Зимовий шортс',
      description: '',
      tags: ['зима'],
      accounts: [kyiv, plain],
      inYouTube: true,
      date: at,
      video: videos.map((id, i) => ({
        id,
        title: 'Зимовий шортс',
        description: '',
        tags: ['зима'],
        account: i ? plain : kyiv,
        date: at,
      })),
    }));
    // The Kyiv video's YouTube post waits for its quota window (as a worker leaves it).
    await srv.tdb.db
      .updateTable('videoPublishes')
      .set({ state: 'waiting', waitUntil })
      .where('videoId', '=', videos[0]!)
      .execute();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  const show = async (page: Page) => {
    await page.goto(`${srv.url}/video/youtube/${idUpload}`);
    await page.locator(`[data-video="${videos[1]}"] [data-date]`).waitFor();
  };
  const card = (page: Page, n: number) => page.locator(`[data-video="${videos[n]}"]`);

  it('dates in the profile’s zone with the zone named; a profile without one in UTC', async () => {
    const context = await browser.newContext({
      timezoneId: 'America/New_York',
      viewport: { width: 1440, height: 900 },
    });
    const page = await context.newPage();
    try {
      await signInAs(page, srv.url, 'admin', 'admin-pass');
      await show(page);
      expect(await card(page, 0).locator('[data-date]').innerText()).toMatch(
        new RegExp(`^Дата: 15\\.01\\.${year}, 12:00 Europe/Kyiv \\(\\S+\\)$`),
      );
      const post = await card(page, 0).locator('[data-platform="youtube"]').innerText();
      expect(post).toMatch(new RegExp(`15\\.01\\.${year}, 14:30 Europe/Kyiv \\(\\S+\\)$`, 'm'));
      expect(post).not.toContain('UTC');
      expect(await card(page, 1).locator('[data-date]').innerText()).toBe(`Дата: 15.01.${year}, 10:00 UTC`);
    } finally {
      await context.close();
    }
  });

  it('edits YouTube’s own title and description on the page (issue 21 item 6); the API answers them', async () => {
    const { context, page } = await signedInWindow(browser, srv.url, { width: 1440 });
    try {
      await show(page);
      // The publication goes to YouTube only: a platform's own text is kept for the platforms it is on.
      const card = page.getByTestId('platform-posts');
      await card.getByLabel('Назва на YouTube').fill('Київ узимку');
      await expect.poll(() => card.locator('[data-counter="title"]').innerText()).toBe('11 / 100');
      const description = 'Сніг на Хрещатику ❄️ #зима';
      await card.getByLabel('Опис на YouTube').fill(description);
      await page.getByRole('button', { name: 'Зберегти' }).click();
      await page.locator('[role="status"]').filter({ hasText: 'Оновлено дані' }).first().waitFor();
      const saved = await api('GET', `/api/upload-video/${publicationId}`);
      expect(saved.posts).toMatchObject({ youtube: { title: 'Київ узимку', description } });
      // Opened again, the page shows what was saved.
      await page.reload();
      await page.locator(`[data-video="${videos[1]}"] [data-date]`).waitFor();
      expect(await card.getByLabel('Назва на YouTube').inputValue()).toBe('Київ узимку');
      expect(await card.getByLabel('Опис на YouTube').inputValue()).toBe(description);
    } finally {
      await context.close();
    }
  });

  for (const width of [1440, 390])
    it(`nothing overflows at ${width} px`, async () => {
      const { context, page } = await signedInWindow(browser, srv.url, { width });
      try {
        await show(page);
        await page.waitForLoadState('networkidle');
        if (process.env.E2E_SCREENSHOTS)
          await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/publication-${width}.png`, fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      } finally {
        await context.close();
      }
    });
});
