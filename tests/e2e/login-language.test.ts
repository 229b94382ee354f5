import type { Page } from 'playwright-core';
import { foundationPanel } from './foundation-panel';

const CYRILLIC = /[А-Яа-яІіЇїЄєҐґ]/;

/** Issue 18 item 7: the language can be chosen on the sign-in page, remembered as the Settings choice is. */
describe('the sign-in page chooses the language', () => {
  const panel = foundationPanel();

  const fitsTheWindow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  for (const width of [1440, 390]) {
    it(`at ${width} px: English on the sign-in page, remembered across a reload, and the panel opens in it`, async () => {
      const context = await panel.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${panel.server.url}/login`);
        const languages = page.getByRole('group', { name: 'Мова інтерфейсу' });
        await page.getByLabel('Логін').waitFor();
        expect(await languages.getByRole('button', { name: 'Українська' }).getAttribute('aria-pressed')).toBe('true');
        expect(await fitsTheWindow(page)).toBe(true);

        await languages.getByRole('button', { name: 'English' }).click();
        await page.getByLabel('Login', { exact: true }).waitFor();
        await page.getByRole('heading', { name: 'Sign in to Kadr' }).waitFor();
        expect(
          await page
            .getByRole('group', { name: 'Interface language' })
            .getByRole('button', { name: 'English' })
            .getAttribute('aria-pressed'),
        ).toBe('true');
        expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('kadr.locale')])).toEqual(
          ['en', 'en'],
        );
        expect(await fitsTheWindow(page)).toBe(true);

        // The rules speak English too.
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect.poll(() => page.getByText('Required', { exact: true }).count()).toBe(2);

        await page.reload();
        await page.getByLabel('Login', { exact: true }).fill('admin');
        await page.getByLabel('Password', { exact: true }).fill('admin-pass');
        await page.getByRole('button', { name: 'Sign in' }).click();
        // On a phone the menu is a closed drawer: the app bar says the panel is there.
        await page.waitForURL((u) => !u.pathname.startsWith('/login'));
        await page.locator('header').waitFor();
        await page.goto(`${panel.server.url}/setting`);
        await page.getByRole('button', { name: 'Change password' }).waitFor();
        expect(await page.getByLabel('Interface language').textContent()).toBe('English');
        expect(await page.locator('#main-content').innerText()).not.toMatch(CYRILLIC);
      } finally {
        await context.close();
      }
    });
  }
});
