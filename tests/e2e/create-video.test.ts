import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import type { DbKind } from '../../server/db/index';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi } from '../helpers/server-api';
import { startWorkers, type Workers } from '../../server/workers';

/** Create-video in Chromium: the form's rules, a real request rendered by the worker, the list turning success, delete. */
let srv: TestServer;
let browser: Browser;
let workers: Workers;
const fx = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-e2e-cv-'));
  const ff = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=480x270:r=30:d=1',
    '-f',
    'lavfi',
    '-i',
    'sine=d=1',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    join(dir, 'clip.mp4'),
  );
  return { mp4: readFileSync(join(dir, 'clip.mp4')) };
})();

/** The server (on `kind`'s database) and the browser for one run of the flows below. */
function serverAndBrowser(kind: DbKind) {
  beforeAll(async () => {
    // E2E_PANEL_DIR: a private build of the panel (so a build running elsewhere cannot swap files mid-test).
    srv = await startTestServer({}, process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {}, kind);
    workers = await startWorkers(srv.app.root, { pollMs: 200 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await workers?.stop();
    await srv?.close();
  });
}

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();

// These flows write: they run on SQLite and on PostgreSQL.
describeOnEachDb('create-video in the browser', (kind) => {
  serverAndBrowser(kind);

  it('a user with no background folder is told where to make one, under the folders field', async () => {
    const api = await signedInApi(srv);
    await api('POST', '/api/users', { login: 'newbie', password: 'newbie-pass' });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInAs(page, srv.url, 'newbie', 'newbie-pass');
      await page.goto(`${srv.url}/video/create`);
      const hint = page.getByTestId('no-folders');
      await hint.waitFor();
      expect(await hint.innerText()).toBe('Папок із фоном ще немає. Створити папку в розділі «Фон»');
      // Create without one: the rule's message, and still the way out.
      await page.getByRole('button', { name: 'Створити' }).click();
      await page.getByText('Мінімум одна папка з фоном').waitFor();
      await hint.getByRole('link', { name: 'Створити папку в розділі «Фон»' }).click();
      await page.waitForURL(/\/photos\/create-folder$/);
    } finally {
      await context.close();
    }
  });

  it('validates, sends a request, sees it turn success in the auto-refreshed list, deletes it', async () => {
    const login = await (
      await fetch(`${srv.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', password: 'admin-pass' }),
      })
    ).json();
    await fetch(`${srv.url}/api/folder/photo-bg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Море' }),
    });

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    const menu = page.getByRole('navigation', { name: 'main menu' });
    await menu.getByText('Відео', { exact: true }).first().click();
    await menu.getByRole('menuitem', { name: 'Запити на створення' }).click();
    await page.waitForURL(/\/video\/request-create$/);
    await page.getByText('Запитів на створення відео ще немає').waitFor();
    await page.getByRole('link', { name: 'Створити відео' }).first().click();
    await page.waitForURL(/\/video\/create$/);

    // SPEC §9 defaults.
    expect(await page.getByLabel('Кількість відео').inputValue()).toBe('1');
    expect(await page.getByLabel('Фонове відео').isChecked()).toBe(false);
    expect(await page.getByLabel('Фонова картинка').isChecked()).toBe(false);
    expect(await page.getByLabel('Генератор унікальності').isChecked()).toBe(true);

    // SPEC §5 messages.
    await page.getByRole('button', { name: 'Створити' }).click();
    await page.getByText('Мінімум одна папка з фоном').waitFor();
    await page.getByText('Мінімум одне відео').waitFor();
    const fileInput = page.getByTestId('create-video-file');
    // A file of another kind is refused with the SPEC §5 toast, and not taken.
    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video') });
    await toast(page, 'Файл "notes.txt" має недопустимий формат. Файл має бути відео').waitFor();
    expect(await page.getByRole('button', { name: 'Прибрати файл notes.txt' }).count()).toBe(0);
    await fileInput.setInputFiles([
      { name: 'a.mp4', mimeType: 'video/mp4', buffer: fx.mp4 },
      { name: 'b.mp4', mimeType: 'video/mp4', buffer: fx.mp4 },
    ]);
    await page.getByText('Максимум одне відео').waitFor();
    await page.getByRole('button', { name: 'Прибрати файл b.mp4' }).click();
    await page.getByRole('img', { name: 'Кадр відео a.mp4' }).waitFor(); // the thumbnail grabbed in the browser
    await page.getByLabel('Кількість відео').fill('2');
    await page.getByLabel('Папки з фоном').click();
    await page.getByRole('option', { name: 'Море' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Створити' }).click();
    await toast(page, 'Запит на створення відео надіслано').waitFor();
    await page.waitForURL(/\/video\/request-create$/);

    // The list refreshes itself (every 15 s) until the request is done; then Publish shows.
    const row = page
      .locator('tr')
      .filter({ has: page.locator('[data-request]') })
      .first();
    await row.getByText('Готово').waitFor({ timeout: 60_000 });
    const idUpload = await row.locator('[data-request]').getAttribute('data-request');
    expect(await row.getByRole('link', { name: 'Опублікувати' }).getAttribute('href')).toBe(
      `/video/request/${idUpload}`,
    );

    await row.getByRole('button', { name: 'Видалити' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Підтвердити|Confirm|Так/ })
      .click();
    await toast(page, 'Запит видалено').waitFor();
    await page.getByText('Запитів на створення відео ще немає').waitFor();
    await context.close();
  });
});
