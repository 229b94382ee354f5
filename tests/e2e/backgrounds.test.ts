import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import type { DbKind } from '../../server/db/index';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';

/** Background folders in Chromium: create a folder, upload a photo and a video through the drop zones, delete. */
let srv: TestServer;
let browser: Browser;
const fx = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-e2e-bg-'));
  const ff = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  ff('-f', 'lavfi', '-i', 'testsrc2=s=320x240', '-frames:v', '1', join(dir, 'sea.png'));
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=320x568:r=25:d=1',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-movflags',
    '+faststart',
    join(dir, 'waves.mp4'),
  );
  return { png: readFileSync(join(dir, 'sea.png')), mp4: readFileSync(join(dir, 'waves.mp4')) };
})();

/** The server (on `kind`'s database) and the browser for one run of the flows below. */
function serverAndBrowser(kind: DbKind) {
  beforeAll(async () => {
    srv = await startTestServer({}, {}, kind);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });
}

const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();

// These flows write: they run on SQLite and on PostgreSQL.
describeOnEachDb('background folders in the browser', (kind) => {
  serverAndBrowser(kind);

  it('create a folder, upload a photo and a video, see previews, reject a wrong file, delete', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    const menu = page.getByRole('navigation', { name: 'main menu' });
    await menu.getByText('Фон', { exact: true }).first().click(); // the group header opens
    await menu.getByRole('menuitem', { name: 'Фон' }).click();
    await page.waitForURL(/\/photos$/);
    await page.getByText('Background', { exact: true }).first().waitFor();

    // Folder form: name required, then 'Папка создана' and the folder page.
    await page.getByRole('link', { name: 'Create folder' }).first().click();
    await page.waitForURL(/\/photos\/create-folder$/);
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText("Назва обов'язкова").waitFor();
    await page.getByLabel('Назва').fill('Море');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Папка создана').waitFor();
    await page.waitForURL(/\/photos\/\d+$/);
    const folderId = page.url().split('/').pop();
    await page.getByRole('heading', { name: 'Background (0)' }).waitFor();

    // Upload page: the zones accept only their kind.
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(new RegExp(`/photos/create/${folderId}$`));
    const photoInput = page.locator('input[data-zone="photo"]');
    const videoInput = page.locator('input[data-zone="video"]');
    await photoInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await toast(page, 'Файл "notes.txt" має недопустимий формат. Файл має бути фото').waitFor();
    await videoInput.setInputFiles({ name: 'sea-as-video.png', mimeType: 'image/png', buffer: fx.png });
    await toast(page, 'Файл "sea-as-video.png" має недопустимий формат. Файл має бути відео').waitFor();

    await photoInput.setInputFiles([
      { name: 'sea.png', mimeType: 'image/png', buffer: fx.png },
      { name: 'extra.png', mimeType: 'image/png', buffer: fx.png },
    ]);
    await videoInput.setInputFiles({ name: 'waves.mp4', mimeType: 'video/mp4', buffer: fx.mp4 });
    await page.getByText('extra.png').waitFor();
    await page.getByRole('button', { name: 'Прибрати: extra.png' }).click();
    expect(await page.getByText('extra.png').count()).toBe(0);

    // Hold the preview frames back a little, to see the loading text.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/*.thumb.jpg*', async (route) => {
      await held;
      await route.continue();
    });
    // A stale access token: the upload answers 401, refreshes once and is sent again.
    await page.evaluate(() => {
      const a = JSON.parse(localStorage.getItem('authStore')!);
      a.state.accessToken = 'stale.token.value';
      localStorage.setItem('authStore', JSON.stringify(a));
    });
    const uploads: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/photo-bg') && r.request().method() === 'POST') uploads.push(r.status());
    });
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Зображення завантажено').waitFor();
    expect(uploads).toEqual([401, 201]);
    await page.waitForURL(new RegExp(`/photos/${folderId}$`));
    await page.getByRole('heading', { name: 'Background (2)' }).waitFor();
    await page.getByText('Загрузка превью видео...').waitFor();
    release();
    const videoLink = page.getByRole('link', { name: 'Відкрити відео: waves.mp4' });
    expect(await videoLink.getAttribute('target')).toBe('_blank');
    expect(await videoLink.getAttribute('href')).toMatch(/^\/api\/media\/.+\.mp4\?exp=\d+&sig=/);
    await page.getByText('Загрузка превью видео...').waitFor({ state: 'detached' });
    const previewOk = await videoLink
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    expect(previewOk).toBe(true);
    const photoOk = await page
      .getByRole('img', { name: 'sea.png' })
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    expect(photoOk).toBe(true);

    // The video opens (signed link, seekable).
    const href = await videoLink.getAttribute('href');
    const head = await page.request.get(`${srv.url}${href}`, { headers: { range: 'bytes=0-99' } });
    expect(head.status()).toBe(206);

    // A failed delete shows an error toast; a good one 'Зображення видалено'.
    await page.route('**/api/photo-bg/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 500, body: '{}' }) : route.continue(),
    );
    // Deleting asks first; cancelling keeps the file.
    await page.getByRole('button', { name: 'Видалити: sea.png' }).click();
    await page
      .getByRole('dialog', { name: 'Видалити файл «sea.png»?' })
      .getByRole('button', { name: 'Скасувати' })
      .click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Видалити: sea.png' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Підтвердити' }).click();
    await toast(page, 'Помилка при видалені').waitFor();
    await page.unroute('**/api/photo-bg/*');
    await page.getByRole('button', { name: 'Видалити: sea.png' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Підтвердити' }).click();
    await toast(page, 'Зображення видалено').waitFor();
    await page.getByRole('heading', { name: 'Background (1)' }).waitFor();

    // Delete the folder from the list.
    await page.goto(`${srv.url}/photos`);
    await page.getByRole('row', { name: /Море/ }).getByRole('button', { name: 'Видалити' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Підтвердити' }).click();
    await toast(page, 'Папка видалена').waitFor();
    await page.getByText('Папок із фонами ще немає').waitFor();
    await context.close();
  });
});
