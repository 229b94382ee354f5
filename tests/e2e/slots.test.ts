import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { seedFinishedRequest } from '../helpers/finished-request';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { dayKey, wallOf } from '../../src/contract/time-zones';
import { connectPlatform } from '../helpers/connected-tokens';
import { adminId, youtubeProfile } from './publish-seed';

/**
 * Time zones and posting slots (issue 21 items 2, 3) in Chromium (the browser itself in UTC), in Ukrainian: a
 * profile's zone set to Kyiv and its YouTube slots to every day 09:00 and 18:00 (TikTok's 18:00); a video added to
 * the queue from the publish form lands in each platform's next slot; the calendar, filtered to the profile, names the zone and
 * shows them at 09:00 / 18:00 Kyiv time on their Kyiv days.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();

describeOnEachDb('posting slots in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInApi;
  let account = 0;

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    api = await signedInApi(srv);
    account = await youtubeProfile(srv, api, 'Київський профіль');
    await connectPlatform(srv.tdb.db, srv.app.root.sealer, account, 'tiktok');
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

  it('sets the profile’s zone and its slots, queues a video on two platforms, and shows them in the calendar at local times', async () => {
    // The zone, from every zone the browser knows.
    await page.goto(`${srv.url}/accounts/${account}`);
    const zoneInput = page.locator('input[data-field="timeZone"]');
    await zoneInput.click();
    await zoneInput.fill('Europe/K');
    await page.getByRole('option', { name: /^Europe\/K(iev|yiv)$/ }).click();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Профіль змінено').waitFor();
    const stored = await srv.tdb.db
      .selectFrom('accounts')
      .select('timeZone')
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(stored.timeZone).toMatch(/^Europe\/K(iev|yiv)$/);
    const zone = stored.timeZone!;

    // YouTube: every day, 09:00 and 18:00.
    await page.reload();
    const yt = page.locator('[data-slots="youtube"]');
    for (const day of ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Нд']) await yt.getByLabel(day).check();
    await yt.locator('input[data-field="times"]').fill('09:00, 18:00');
    await yt.getByRole('button', { name: 'Встановити слоти' }).click();
    await toast(page, 'Слоти збережено').waitFor();
    await page.getByTestId('slots-panel').getByText(zone, { exact: false }).first().waitFor();
    // TikTok's through the API: weekdays and weekends alike, 18:00 only.
    await api('PUT', `/api/slots/${account}/tiktok`, { days: [1, 2, 3, 4, 5, 6, 7], times: ['18:00'] });

    // The publish form: a video to the profile on YouTube and TikTok, "Add to queue".
    const { idUpload, videos } = await seedFinishedRequest(srv.tdb.db, await adminId(srv), 1);
    await page.goto(`${srv.url}/video/request/${idUpload}`);
    await page.getByLabel('Назва').first().fill('Шортс у черзі');
    await page.getByRole('textbox', { name: 'Теги' }).first().fill('черга ');
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: /Київський профіль/ }).click();
    await page.keyboard.press('Escape');
    // Each video's date is entered in its profile's zone, the zone named.
    await page.locator(`input[data-zone="${zone}"]`).first().waitFor();
    await page.getByRole('button', { name: 'Додати в чергу' }).click();
    await toast(page, 'Відео надіслано на публікацію').waitFor();

    const posts = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select(['id', 'dueAt', 'platform'])
      .where('videoId', 'in', videos)
      .orderBy('dueAt')
      .execute();
    expect(posts).toHaveLength(2);
    for (const p of posts) {
      expect(p.platform === 'tiktok' ? [18] : [9, 18]).toContain(wallOf(zone, p.dueAt).hour);
      expect(wallOf(zone, p.dueAt).minute).toBe(0);
    }

    // The calendar of that profile: in its zone, named; each post on its Kyiv day at its Kyiv time.
    await page.goto(`${srv.url}/calendar`);
    await page.locator('.fc-dayGridMonth-view').waitFor();
    await page.getByRole('combobox', { name: 'Профіль' }).click();
    await page.getByRole('option', { name: /Київський профіль/ }).click();
    await page.locator(`[data-zone="${zone}"]`).filter({ hasText: zone }).waitFor();
    const shownMonth = wallOf('UTC', Date.now()).month;
    for (const p of posts) {
      const w = wallOf(zone, p.dueAt);
      if (w.month !== shownMonth) {
        await page.locator('.fc-next-button').click();
      }
      const entry = page.locator(`td.fc-day[data-date="${dayKey(w)}"] [data-post-id="${p.id}"]`);
      await entry.waitFor();
      const hh = String(w.hour).padStart(2, '0');
      expect(await entry.getAttribute('data-at')).toContain(`${hh}:00 ${zone}`);
      expect(await entry.locator('.fc-event-time').innerText()).toMatch(new RegExp(`^0?${w.hour}(:00)?$`));
      if (w.month !== shownMonth) await page.locator('.fc-prev-button').click();
    }
  });
});
