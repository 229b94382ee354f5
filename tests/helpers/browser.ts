import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/** Signs in through the login form the way a person does, and waits for the panel. */
export async function signInAs(page: Page, baseUrl: string, login: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/Логін|Login/).fill(login);
  await page.getByLabel(/Пароль|Password/).fill(password);
  await page.getByRole('button', { name: /Увійти|Sign in/ }).click();
  await page.getByRole('navigation', { name: 'main menu' }).waitFor();
}

/** The text of the visible toasts. */
export const toastTexts = (page: Page) => page.locator('[role="status"]').allInnerTexts();
