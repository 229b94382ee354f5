import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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

/**
 * A fresh browser context at this window size with the panel's language set, signed in through the form (by the
 * fields' names, so in either language; on a phone the menu is a closed drawer, so it waits for the app bar).
 */
export async function signedInWindow(
  browser: Browser,
  baseUrl: string,
  opts: { width: number; height?: number; lang?: string; login?: string; password?: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: opts.width, height: opts.height ?? 900 } });
  await context.addInitScript((l) => localStorage.setItem('kadr.locale', l), opts.lang ?? 'uk');
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name="login"]').fill(opts.login ?? 'admin');
  await page.locator('input[name="password"]').fill(opts.password ?? 'admin-pass');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.locator('header').waitFor();
  return { context, page };
}

/** The text of the visible toasts. */
export const toastTexts = (page: Page) => page.locator('[role="status"]').allInnerTexts();
