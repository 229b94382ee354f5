import type { Browser, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { youtubeProfile } from './publish-seed';

/**
 * A profile's page (`/accounts/{id}`) as the screenshot review read it: the posting-slots card shows a platform's
 * saved slots as saved and a platform without slots with empty fields (never suggested ones beside "no slots"),
 * its buttons on one line; a profile that never chose a time zone shows the zone its dates are planned in (UTC).
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};

describe('a profile’s page in the browser', () => {
  let srv: TestServer;
  let browser: Browser;
  let page: Page;
  let api: SignedInApi;
  let account = 0;

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel);
    api = await signedInApi(srv);
    account = await youtubeProfile(srv, api, 'Профіль без зони');
    // Made before profiles had zones: none stored.
    await srv.tdb.db.updateTable('accounts').set({ timeZone: null }).where('id', '=', account).execute();
    await api('PUT', `/api/slots/${account}/youtube`, { days: [1, 3, 5], times: ['10:30'], minGapMinutes: 15 });
    browser = await launchBrowser();
    page = await (await browser.newContext({ timezoneId: 'Europe/Kyiv' })).newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  for (const width of [1440, 390])
    it(`slots: saved ones as saved, none as empty fields, buttons on one line, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${srv.url}/accounts/${account}`);
      const yt = page.locator('[data-slots="youtube"]');
      const tiktok = page.locator('[data-slots="tiktok"]');
      await yt.locator('input[data-field="times"]').waitFor();
      expect(await yt.locator('input[data-field="times"]').inputValue()).toBe('10:30');
      expect(await yt.getByText('слотів немає').count()).toBe(0);
      expect(await yt.getByLabel('Ср').isChecked()).toBe(true);
      expect(await yt.getByLabel('Вт').isChecked()).toBe(false);
      // No slots: said so, and nothing in the fields looks like slots.
      await tiktok.getByText('слотів немає').waitFor();
      expect(await tiktok.locator('input[data-field="times"]').inputValue()).toBe('');
      expect(await tiktok.locator('input[type="checkbox"]:checked').count()).toBe(0);
      // A one-line button is as tall as the fields' row allows: a wrapped one is taller than a field.
      for (const name of ['Встановити слоти', 'Прибрати слоти']) {
        const button = await yt.getByRole('button', { name }).boundingBox();
        const field = await yt.locator('input[data-field="times"]').boundingBox();
        expect(button!.height).toBeLessThan(field!.height + 16);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });

  it('a profile without a zone of its own shows the zone it is planned in: UTC, not an empty field', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${srv.url}/accounts/${account}`);
    const zone = page.locator('input[data-field="timeZone"]');
    await expect.poll(() => zone.inputValue()).toBe('UTC');
    // The slots card names the same zone.
    await page.getByTestId('slots-panel').getByText('UTC', { exact: false }).first().waitFor();
  });
});
