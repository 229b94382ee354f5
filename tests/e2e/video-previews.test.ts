import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { TEST_APP_KEY } from '../helpers/app';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi } from '../helpers/server-api';
import { renderedRequest, youtubeProfile } from './publish-seed';

/**
 * The publish form's videos (`/video/request/{idUpload}`) as the screenshot review read it, in Chromium (in UTC):
 * each player and the per-platform preview spin only while the file loads, then show it, or say it failed; the
 * preview names the profile by its comment when it has no handle (never a bare "@"); the zone is named once.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};

describe('the publish form’s video previews in the browser', () => {
  let srv: TestServer;
  let browser: Browser;
  let page: Page;

  /** A finished request whose video `broken` has a file no browser plays. */
  const request = async (count: number, broken: number) => {
    const req = await renderedRequest(srv, count);
    await srv.app.root.media.storage.put(req.storageKeys[broken]!, Readable.from([Buffer.from('not a video at all')]));
    return req;
  };

  beforeAll(async () => {
    srv = await startTestServer({ JWT_SECRET: 'x'.repeat(40), APP_KEY: TEST_APP_KEY }, panel);
    await youtubeProfile(srv, await signedInApi(srv), 'Кулінарія без хендла');
    browser = await launchBrowser();
    page = await (await browser.newContext({ timezoneId: 'UTC', viewport: { width: 1440, height: 900 } })).newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  const preview = () => page.locator('[data-preview="youtube"]');

  it('a playable file shows without a spinner, a broken one says it failed; the preview names the profile', async () => {
    const req = await request(2, 1);
    await page.goto(`${srv.url}/video/request/${req.idUpload}`);
    await page.locator('video').first().waitFor();
    const first = page.locator('[data-video-state]').filter({ has: page.getByLabel(/Програвач: Вихід 1/) });
    const second = page.locator('[data-video-state]').filter({ has: page.getByLabel(/Програвач: Вихід 2/) });
    await expect.poll(() => first.getAttribute('data-video-state')).toBe('loaded');
    await expect.poll(() => second.getAttribute('data-video-state')).toBe('failed');
    expect(await first.getByRole('progressbar').count()).toBe(0);
    expect(await second.getByRole('progressbar').count()).toBe(0);
    await second.getByText('Не вдалося відкрити відео').waitFor();
    // A loaded file plays with the browser's controls; a broken one offers none.
    expect(await first.locator('video').getAttribute('controls')).not.toBeNull();
    expect(await second.locator('video').getAttribute('controls')).toBeNull();

    // The preview: the first video, loaded; the profile (no handle on YouTube) by its comment.
    await expect.poll(() => preview().getAttribute('data-video-state')).toBe('loaded');
    expect(await preview().getByRole('progressbar').count()).toBe(0);
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: /Кулінарія без хендла/ }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => preview().locator('[data-preview-name]').innerText()).toBe('Кулінарія без хендла');
    expect(await preview().innerText()).not.toMatch(/^@/m);
    // The browser's zone, UTC, named once.
    const text = await page.locator('main').innerText();
    expect(text).toContain('UTC');
    expect(text).not.toContain('UTC (UTC)');
  });

  it('the preview of a broken first video says it failed instead of spinning', async () => {
    const req = await request(1, 0);
    await page.goto(`${srv.url}/video/request/${req.idUpload}`);
    await expect.poll(() => preview().getAttribute('data-video-state')).toBe('failed');
    expect(await preview().getByRole('progressbar').count()).toBe(0);
    await preview().getByText('Не вдалося відкрити відео').waitFor();
    // Nothing chosen yet: no name at all, not a bare "@".
    expect(await preview().locator('[data-preview-name]').count()).toBe(0);
    expect(await preview().innerText()).not.toContain('@');

    // A long name and a long title: the caption keeps to the frame's bottom, the failure is said above it.
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: /Кулінарія без хендла/ }).click();
    await page.keyboard.press('Escape');
    await page
      .locator('input[name="title"]')
      .fill('Домашній яблучний пиріг за 30 хвилин: простий рецепт без міксера '.repeat(2));
    await expect.poll(() => preview().locator('[data-preview-text]').innerText()).toContain('пиріг');
    const note = await preview().getByTestId('video-failed').locator('..').boundingBox();
    const caption = await preview().locator('[data-preview-text]').locator('..').boundingBox();
    expect(note!.y + note!.height).toBeLessThanOrEqual(caption!.y);
  });
});
