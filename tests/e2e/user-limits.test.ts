import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';

/** A per-user limit in Chromium: the refused upload's toast is the server's message, naming the limit and the wait. */
let srv: TestServer;
let browser: Browser;

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();

describeOnEachDb('per-user limits in the browser', (kind) => {
  beforeAll(async () => {
    srv = await startTestServer({ LIMIT_UPLOADS_PER_HOUR: '1' }, {}, kind);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('an upload past the limit shows the server’s message in a toast', async () => {
    const login = await (
      await fetch(`${srv.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', password: 'admin-pass' }),
      })
    ).json();
    const folder = await (
      await fetch(`${srv.url}/api/folder/photo-bg`, {
        method: 'POST',
        headers: { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Море' }),
      })
    ).json();
    // The admin's one upload of the hour is used up, its window ends in half an hour.
    await srv.tdb.db
      .insertInto('userLimits')
      .values({ userId: login.user.id, kind: 'uploads', count: 1, untilMs: Date.now() + 30 * 60_000 })
      .execute();

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/photos/create/${folder.id}`);
    await page
      .locator('input[data-zone="photo"]')
      .setInputFiles({ name: 'sea.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') });
    await page.getByText('sea.png').waitFor();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Ліміт завантажень (1 на годину) вичерпано. Спробуйте знову через 30 хв.').waitFor();
    expect(page.url()).toMatch(new RegExp(`/photos/create/${folder.id}$`));
    await context.close();
  });
});
