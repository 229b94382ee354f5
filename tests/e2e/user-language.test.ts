import type { Page } from 'playwright-core';
import { signInAs } from '../helpers/browser';
import { addOperator, foundationPanel } from './foundation-panel';

/**
 * The interface language follows the user, not the browser: chosen in Settings on one browser, the panel opens in it
 * on another; chosen on the sign-in page, it becomes the user's from that sign-in on. Each browser here is a fresh
 * context (nothing in its storage), as a new machine is.
 */
describe('the interface language follows the user to another browser', () => {
  const panel = foundationPanel({ setUp: addOperator });
  const browserWindow = async (width = 1280) => {
    const context = await panel.browser.newContext({ viewport: { width, height: 900 } });
    return context.newPage();
  };
  /** Which language the panel is in, by its sidebar's profiles section. */
  const menuSays = (page: Page, text: string) =>
    page.getByRole('navigation', { name: 'main menu' }).getByText(text, { exact: true }).first().waitFor();

  it('chosen in Settings on one browser, the panel opens in it on another', async () => {
    const first = await browserWindow();
    await signInAs(first, panel.server.url, 'operator', 'user-pass');
    await menuSays(first, 'Профілі');
    await first.goto(`${panel.server.url}/setting`);
    await first.getByRole('combobox', { name: 'Мова інтерфейсу' }).click();
    await first.getByRole('option', { name: 'English' }).click();
    await menuSays(first, 'Profiles');
    await first.context().close();

    // Another machine: nothing stored, the sign-in page in the default language; the panel opens in English.
    const second = await browserWindow(390);
    await second.goto(`${panel.server.url}/login`);
    await second.getByRole('button', { name: 'Увійти' }).waitFor();
    await second.locator('input[name="login"]').fill('operator');
    await second.locator('input[name="password"]').fill('user-pass');
    await second.getByRole('button', { name: 'Увійти' }).click();
    // On a phone the menu is a closed drawer: the app bar says the panel is there.
    await second.waitForURL((u) => !u.pathname.startsWith('/login'));
    await second.locator('header').waitFor();
    await second.goto(`${panel.server.url}/setting`);
    expect(await second.getByRole('combobox', { name: 'Interface language' }).innerText()).toBe('English');
    await second.context().close();
  });

  it('chosen on the sign-in page, it becomes the user’s own', async () => {
    const page = await browserWindow();
    await page.goto(`${panel.server.url}/login`);
    // The user's own is English (the test above); Ukrainian chosen before signing in wins, and is saved.
    await page.getByRole('button', { name: 'Українська' }).click();
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await menuSays(page, 'Профілі');
    await expect
      .poll(
        async () =>
          (
            await panel.server.tdb.db
              .selectFrom('users')
              .select('language')
              .where('login', '=', 'operator')
              .executeTakeFirstOrThrow()
          ).language,
      )
      .toBe('uk');
    await page.context().close();

    const elsewhere = await browserWindow();
    await signInAs(elsewhere, panel.server.url, 'operator', 'user-pass');
    await menuSays(elsewhere, 'Профілі');
    await elsewhere.context().close();
  });
});
