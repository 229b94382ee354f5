import { Readable } from 'node:stream';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { signedInApi } from '../helpers/server-api';
import { startTestServer, type TestServer } from '../helpers/server';
import { seedFinishedRequest } from '../helpers/finished-request';

/**
 * Media retention in Chromium (docs/retention.md): an admin sees each user's media size on the users list and
 * their own on the settings page; a rendered video whose file retention removed is said to be removed where its
 * player was. At 1440 and 390 px.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const MB = 1024 * 1024;

describe('media retention in the browser', () => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let requestId: number;

  beforeAll(async () => {
    srv = await startTestServer({}, { ...panel, retention: { clipDays: 0, unpublishedDays: 1, batch: 10 } });
    const { db } = srv.tdb;
    const adminId = (await db.selectFrom('users').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow())
      .id;
    const at = new Date().toISOString();
    await db
      .insertInto('users')
      .values({ login: 'olena', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .execute();
    // A request that ended two days ago: its clip and its first video go; the second is scheduled, so it stays.
    const req = await seedFinishedRequest(db, adminId, 2);
    requestId = req.id;
    const storage = srv.app.root.media.storage;
    const clip = (
      await db.selectFrom('createVideoRequests').select('clipKey').where('id', '=', req.id).executeTakeFirstOrThrow()
    ).clipKey;
    await storage.put(clip, Readable.from([Buffer.alloc(3 * MB, 1)]));
    await storage.put(req.storageKeys[0]!, Readable.from([Buffer.alloc(MB, 2)]));
    await storage.put(req.storageKeys[1]!, Readable.from([Buffer.alloc(2 * MB, 3)]));
    await db
      .updateTable('createVideoRequests')
      .set({ doneAt: Date.now() - 2 * 86_400_000 })
      .where('id', '=', req.id)
      .execute();
    await db
      .insertInto('videoPublishes')
      .values({
        videoId: req.videos[1]!,
        platform: 'youtube',
        accountId: null,
        state: 'scheduled',
        dueAt: at,
        videoVersion: 1,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    expect(await srv.app.root.retention.run()).toMatchObject({ clipsRemoved: 1, videosRemoved: 1 });
    // Nadia's media stored by an older version: never measured (retention has not run since).
    const nadia = await db
      .insertInto('users')
      .values({ login: 'nadia', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seedFinishedRequest(db, nadia.id, 1);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await srv?.close();
  });

  const fits = async (width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

  for (const width of [1440, 390])
    it(`shows media sizes and a removed file's message, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${srv.url}/users`);
      // A column for admins; on a phone the size goes under the login.
      if (width > 600) await page.getByRole('columnheader', { name: 'Медіа' }).waitFor();
      const row = (login: string) => page.getByRole('row').filter({ hasText: login });
      await expect.poll(() => row('admin').getByTestId('media-usage-cell').innerText()).toBe('2.0 МБ');
      expect(await row('olena').getByTestId('media-usage-cell').innerText()).toBe('0.0 МБ');
      // Never measured: a dash, not 0.
      expect(await row('nadia').getByTestId('media-usage-cell').innerText()).toBe('—');
      await fits(width);

      await page.goto(`${srv.url}/setting`);
      await page.getByText('Ваші медіафайли').waitFor();
      expect(await page.getByTestId('own-media-usage').innerText()).toBe('2.0 МБ у 1 файлі');
      await fits(width);

      await page.goto(`${srv.url}/video/request-create/${requestId}`);
      const removed = page.getByTestId('media-removed');
      await removed.waitFor();
      expect(await removed.count()).toBe(1);
      expect(await removed.innerText()).toBe('Файл видалено за правилами зберігання');
      expect(await page.locator('video').count()).toBe(1);
      await fits(width);
    });

  it("a user whose files were never measured reads so on the settings page, not '— in N files'", async () => {
    const api = await signedInApi(srv);
    const { id } = await api('POST', '/api/users', { login: 'taras', password: 'taras-pass' });
    await seedFinishedRequest(srv.tdb.db, id as number, 1);
    const own = await browser.newContext();
    try {
      const taras = await own.newPage();
      await signInAs(taras, srv.url, 'taras', 'taras-pass');
      await taras.goto(`${srv.url}/setting`);
      const usage = taras.getByTestId('own-media-usage');
      await usage.waitFor();
      expect(await usage.innerText()).toMatch(/^\d+ файл(и|ів)?, розмір ще не виміряно$/);
      // Said once: no "not measured yet: N" line under it.
      expect(await taras.getByText(/^Ще не виміряно/).count()).toBe(0);
    } finally {
      await own.close();
    }
  });
});
