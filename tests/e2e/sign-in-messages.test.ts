import type { Page, Response } from 'playwright-core';
import { foundationPanel } from './foundation-panel';

/**
 * Issue 18 item 9: the signed-out page loads the sign-in messages only (i18n/signIn.ts), in either language; the
 * panel's full messages load when signing in; the form's check loads none of the panel's shell.
 */
describe('the sign-in page’s messages', () => {
  const panel = foundationPanel();

  /** A fresh signed-out page on /login, and the text of every script it has loaded so far. */
  async function onSignInPage(walk: (page: Page, loaded: () => Promise<string>) => Promise<void>) {
    const context = await panel.browser.newContext();
    const page = await context.newPage();
    try {
      const scripts: Array<Promise<string>> = [];
      page.on('response', (r: Response) => {
        if (r.request().resourceType() === 'script') scripts.push(r.text().catch(() => ''));
      });
      await page.goto(`${panel.server.url}/login`, { waitUntil: 'networkidle' });
      await walk(page, async () => (await Promise.all(scripts)).join('\n'));
    } finally {
      await context.close();
    }
  }

  it('the signed-out page loads no panel message, in Ukrainian or English; signing in brings the panel’s', () =>
    onSignInPage(async (page, loaded) => {
      await page.getByRole('button', { name: 'Увійти' }).waitFor();
      expect(await loaded()).toContain('Вхід до Kadr');
      expect(await loaded()).not.toContain('Нічого не знайдено');
      expect(await loaded()).not.toContain('Профілів ще немає');

      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await loaded()).not.toContain('No profiles yet');

      await page.getByLabel('Login').fill('admin');
      await page.getByLabel('Password').fill('admin-pass');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('No profiles yet').waitFor();
    }));

  it('the form’s check on an empty submit loads no code of the panel’s shell', () =>
    onSignInPage(async (page, loaded) => {
      await page.getByRole('button', { name: 'Увійти' }).click();
      // The check (zod and the login contract, loaded on this first submit) marks the empty login.
      await page.locator('#login-login[aria-invalid="true"]').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await loaded()).toContain('checkLogin');
      // The menu's keys and the AI section's routes are the shell's (src/layout/menuItems.ts, src/ai/index.ts).
      expect(await loaded()).not.toContain('profile_groups');
      expect(await loaded()).not.toContain('/ai/list/:id');
    }));
});
