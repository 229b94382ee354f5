import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { insertRequest } from '../helpers/db';

/**
 * Issue 11 in Chromium: the profile list narrows as one types in its search box, a column header sorts it,
 * a reload keeps both (they live in the URL); a create-video request row opens the request's own page.
 * Rows are made straight in the database; nothing here writes through the panel (SQLite only).
 */
let srv: TestServer;
let browser: Browser;
let adminId: number;
const kyiv: number[] = [];
let requestId: number;

beforeAll(async () => {
  srv = await startTestServer();
  browser = await launchBrowser();
  adminId = (await srv.tdb.db.selectFrom('users').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow())
    .id;
  const at = new Date().toISOString();
  for (let i = 1; i <= 24; i++) {
    const comments = i % 4 === 0 ? `Київ профіль ${i}` : `Профіль ${i}`;
    const r = await srv.tdb.db
      .insertInto('accounts')
      .values({ userId: adminId, comments, createdAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (i % 4 === 0) kyiv.push(r.id);
  }
  requestId = await insertRequest(srv.tdb.db, adminId, 'up-lists-e2e', {
    count: 2,
    isPhoto: 1,
    isGenerator: 1,
    clipName: 'пляж-на-заході.mp4',
    createdAt: at,
    updatedAt: at,
  });
  for (const outputIndex of [0, 1])
    await srv.tdb.db
      .insertInto('videos')
      .values({
        userId: adminId,
        createdAt: at,
        status: 'noactive',
        requestId,
        outputIndex,
        idUpload: 'up-lists-e2e',
        storageKey: `videos/${adminId}/up-lists-e2e/${outputIndex}.mp4`,
      })
      .execute();
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

/** The first cell (ID) of each body row, as numbers. */
const rowIds = async (page: Page) =>
  (await page.locator('tbody tr td:first-child').allInnerTexts()).map((t) => Number(t.trim()));

describe('lists that find, in the browser', () => {
  it('profiles: search narrows the list, a header click sorts it, a reload keeps both', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/accounts/list`);
    await expect.poll(() => rowIds(page)).toHaveLength(10);

    await page.getByPlaceholder('Пошук').fill('КИЇВ');
    await expect.poll(() => rowIds(page)).toEqual([...kyiv].reverse());

    await page.getByRole('columnheader', { name: 'ID' }).getByRole('button').click();
    await expect.poll(() => rowIds(page)).toEqual(kyiv);
    await expect.poll(() => new URL(page.url()).searchParams.get('order')).toBe('ASC');

    await page.reload();
    await expect.poll(() => rowIds(page)).toEqual(kyiv);
    await expect.poll(() => page.getByPlaceholder('Пошук').inputValue()).toBe('КИЇВ');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('id');

    await context.close();
  });

  it('requests: created date, clip and options columns; a row opens the request with its players', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/video/request-create`);
    const row = page.getByRole('row', { name: /пляж-на-заході\.mp4/ });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.innerText()).toMatch(/2 відео/);
    await expect.poll(() => row.innerText()).toMatch(/Генератор унікальності/);
    await row.getByText('пляж-на-заході.mp4').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/video/request-create/${requestId}`);
    await page.locator('#react-admin-title').getByText(`Запит #${requestId}`).waitFor();
    await expect.poll(() => page.locator('video').count()).toBe(2);
    const publish = page.getByRole('link', { name: 'Опублікувати' });
    await expect.poll(() => publish.getAttribute('href')).toBe('/video/request/up-lists-e2e');
    // Another request id that does not exist: the not-found screen, back to the requests.
    await page.goto(`${srv.url}/video/request-create/99999`);
    await page.getByTestId('record-not-found').getByRole('heading', { name: 'Не знайдено' }).waitFor();
    expect(await page.getByRole('link', { name: 'До списку' }).getAttribute('href')).toBe('/video/request-create');
    await context.close();
  });
});
