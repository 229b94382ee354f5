import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { renderedRequest, youtubeProfile } from './publish-seed';
import { instantOf } from '../../src/contract/time-zones';

/**
 * Issue 21 items 4 and 5 in Chromium, in Ukrainian: a spreadsheet's CSV (BOM, semicolons, Cyrillic) dropped on
 * the Import screen is checked (a dry run: the bad row named with its field, nothing written, no confirm), then
 * the fixed file is confirmed and written whole; and the publish form refuses the same video on the same profile
 * and platform again until "Дозволити повтор" is on.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const DAY = 24 * 3600 * 1000;

describeOnEachDb('import and the duplicate guard in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInApi;
  let kitchen = 0;

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel, kind);
    api = await signedInApi(srv);
    kitchen = await youtubeProfile(srv, api, 'Кухня');
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

  const livePosts = (videoIds: number[]) =>
    srv.tdb.db
      .selectFrom('videoPublishes')
      .select(['videoId', 'platform', 'accountId', 'state'])
      .where('videoId', 'in', videoIds)
      .where('state', '!=', 'cancelled')
      .execute();

  it('import: a dry run names the bad row and field and writes nothing; the fixed file is confirmed and written', async () => {
    const req = await renderedRequest(srv, 2);
    // The profile is in Kyiv, the browser in UTC: a date written without a zone is the profile's wall time.
    await srv.tdb.db.updateTable('accounts').set({ timeZone: 'Europe/Kyiv' }).where('id', '=', kitchen).execute();
    const date = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const file = (second: string) =>
      Buffer.from(
        `\uFEFFvideo;profile;platforms;title;description;tags;date\r\n` +
          `${req.videos[0]};Кухня;youtube;"Борщ; крок 1";Смачно;їжа,борщ;${date} 18:00\r\n` +
          `${req.videos[1]};Кухня;youtube;${second};;;${date} 19:00\r\n`,
      );
    await page.goto(`${srv.url}/video/import`);
    const input = page.getByTestId('import-drop').locator('input[type="file"]');
    await input.setInputFiles({ name: 'план.csv', mimeType: 'text/csv', buffer: file('') });
    const summary = page.getByTestId('import-summary');
    await expect.poll(() => summary.innerText()).toContain('помилок: 1');
    const row3 = page.getByTestId('import-rows').locator('[data-row="3"]');
    await row3.getByText('title: Обовʼязкове поле').waitFor();
    expect(await page.getByTestId('import-rows').locator('[data-row="2"]').innerText()).toContain('Борщ; крок 1');
    // The row's date in the profile's zone, the zone named.
    expect(await page.getByTestId('import-rows').locator('[data-row="2"]').innerText()).toContain(
      `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}, 18:00 Europe/Kyiv`,
    );
    expect(await page.getByRole('button', { name: 'Підтвердити й записати все' }).isDisabled()).toBe(true);
    expect(await livePosts(req.videos)).toEqual([]);

    await input.setInputFiles({ name: 'план.csv', mimeType: 'text/csv', buffer: file('Друге відео') });
    await expect.poll(() => summary.innerText()).toContain('помилок: 0');
    await page.getByRole('button', { name: 'Підтвердити й записати все' }).click();
    await page.getByText('Записано дописів: 2').waitFor();
    const posts = await livePosts(req.videos);
    expect(posts.map((p) => [p.videoId, p.platform, p.accountId, p.state])).toEqual(
      expect.arrayContaining([
        [req.videos[0], 'youtube', kitchen, 'scheduled'],
        [req.videos[1], 'youtube', kitchen, 'scheduled'],
      ]),
    );
    expect(posts).toHaveLength(2);
    const due = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select('dueAt')
      .where('videoId', '=', req.videos[0]!)
      .executeTakeFirstOrThrow();
    const kyiv18 = instantOf('Europe/Kyiv', { year, month, day, hour: 18, minute: 0 });
    expect(new Date(due.dueAt).toISOString()).toBe(kyiv18.toISOString());
    await srv.tdb.db.updateTable('accounts').set({ timeZone: null }).where('id', '=', kitchen).execute();
  });

  it('the publish form refuses the same video on the same profile and platform; a repeat allowed is saved', async () => {
    const req = await renderedRequest(srv, 1);
    const v = req.videos[0]!;
    const at = new Date(Date.now() + 2 * DAY).toISOString();
    const body = {
      title: 'Раз',
      description: '',
      tags: ['ліс'],
      accounts: [kitchen],
      inYouTube: true,
      date: at,
      video: [{ id: v, title: 'Раз', description: '', tags: ['ліс'], account: kitchen, date: at }],
    };
    await api('POST', `/api/upload-video/${req.idUpload}`, body);
    // It went out; its publication was deleted afterwards (a live post stays where it is).
    await srv.tdb.db.updateTable('videoPublishes').set({ state: 'published' }).where('videoId', '=', v).execute();
    await api('DELETE', `/api/upload-video/${req.idUpload}`);

    await page.goto(`${srv.url}/video/request/${req.idUpload}`);
    await page.getByLabel('Назва').first().fill('Знову');
    await page.getByRole('textbox', { name: 'Теги' }).first().fill('ліс ');
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: 'Кухня' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page
      .getByText(`Відео #${v} уже заплановано або опубліковано в профілі #${kitchen} на YouTube`)
      .first()
      .waitFor();
    expect((await livePosts([v])).map((p) => p.state)).toEqual(['published']);

    await page.getByLabel('Дозволити повтор').check();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.waitForURL(/\/video\/youtube\//);
    const all = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select(['state', 'accountId', 'repeatOf'])
      .where('fileKey', '=', req.storageKeys[0]!)
      .orderBy('id')
      .execute();
    expect(all.map((p) => p.state)).toEqual(['published', 'scheduled']);
    expect(all[1]!.repeatOf).toBeGreaterThan(0);
  });
});
