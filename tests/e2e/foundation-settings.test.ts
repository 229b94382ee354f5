import type { Page } from 'playwright-core';
import { signInAs } from '../helpers/browser';
import { addOperator, foundationPanel } from './foundation-panel';

const CYRILLIC = /[А-Яа-яІіЇїЄєҐґ]/;
const RAW_KEY = /\b(ra|kadr|resources)\.[a-z_]+\.[a-z_]+/;

describe('foundation in the browser: settings', () => {
  const panel = foundationPanel({ setUp: addOperator });
  let page: Page;
  beforeEach(async () => {
    page = await (await panel.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  const save = (name: string) => page.getByRole('button', { name }).click();
  const field = (source: string) => page.locator(`.ra-input-${source}`);
  const bodyText = () => page.locator('body').innerText();

  it('change password: current required and checked, mismatch, then "Пароль змінено"; the new one signs in', async () => {
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await page.locator('header button').filter({ hasText: 'operator' }).click();
    await page.getByRole('menuitem', { name: 'Налаштування' }).click();
    await page.locator('header').getByText('Налаштування').waitFor();
    await save('Змінити пароль');
    await expect.poll(() => page.getByText('Обовʼязкове до заповнення').count()).toBe(3);
    await page.getByLabel('Поточний пароль').fill('not-my-pass');
    await page.getByLabel('Новий пароль').fill('fresh-pass');
    await page.getByLabel('Повторіть пароль').fill('fresh-pasx');
    await save('Змінити пароль');
    await field('repeatPassword').getByText('Паролі не збігаються').waitFor();
    await page.getByLabel('Повторіть пароль').fill('fresh-pass');
    await save('Змінити пароль');
    await field('currentPassword').getByText('Невірний поточний пароль').waitFor();
    await page.getByLabel('Поточний пароль').fill('user-pass');
    await save('Змінити пароль');
    await page.getByRole('status').getByText('Пароль змінено').waitFor();
    const login = (password: string) =>
      fetch(`${panel.server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'operator', password }),
      });
    expect((await login('fresh-pass')).status).toBe(200);
    expect((await login('user-pass')).status).toBe(401);
  });

  it('language: English survives a reload and a logout, translates react-admin too; back to Ukrainian', async () => {
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    await page.goto(`${panel.server.url}/setting`);
    await page.getByLabel('Мова інтерфейсу').click();
    await page.getByRole('option', { name: 'English' }).click();
    await page.getByText('Interface language').first().waitFor();
    await page.reload();
    const menu = page.getByRole('navigation', { name: 'main menu' });
    await menu.getByText('Profiles').waitFor();
    await menu.getByText('Users').click();
    await page.getByRole('cell', { name: 'operator' }).waitFor();
    for (const path of ['/users', '/users/create', `/users/1`]) {
      await page.goto(`${panel.server.url}${path}`);
      await page
        .getByRole('button', { name: 'Save' })
        .or(page.getByRole('link', { name: 'Create' }))
        .first()
        .waitFor();
      await page.waitForLoadState('networkidle');
      const text = await bodyText();
      expect(text, path).not.toMatch(CYRILLIC);
      expect(text, path).not.toMatch(RAW_KEY);
    }
    // The form messages and server messages follow the language.
    await page.goto(`${panel.server.url}/users/create`);
    await page.getByRole('button', { name: 'Save' }).click(); // enabled on an empty form: it says what is missing
    await expect.poll(() => page.getByText('Required').count()).toBe(3);
    await page.getByLabel('Login').fill('operator');
    await page.getByLabel('New password').fill('secret-1');
    await page.getByLabel('Repeat password').fill('secret-1');
    await page.getByRole('button', { name: 'Save' }).click();
    await field('login').getByText('This login is already taken').waitFor();
    // Logout keeps the language: the login form is in English.
    await page.locator('header button').filter({ hasText: 'admin' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('status').getByText('You have signed out').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('Required').count()).toBe(2);
    await page.getByLabel('Login').fill('admin');
    await page.getByLabel('Password').fill('wrong-pass');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('status').getByText('Wrong login or password').waitFor();
    await page.getByLabel('Password').fill('admin-pass');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('status').getByText('Signed in').waitFor();
    await page.goto(`${panel.server.url}/setting`);
    await page.getByLabel('Interface language').click();
    await page.getByRole('option', { name: 'Українська' }).click();
    await page.getByText('Мова інтерфейсу').first().waitFor();
    await page.reload();
    await menu.getByText('Профілі').waitFor();
  });

  it('the cards share one width: one column at 1440 px, stacked within a 390 px phone', async () => {
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${panel.server.url}/setting`);
      await page.getByTestId('webhooks').waitFor();
      await page.getByTestId('own-media-usage').waitFor();
      const cards = await page
        .locator('main .MuiCard-root')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, w: r.width, y: r.y })));
      // Password, two-factor, its policy (an admin's), language, media, API keys, webhooks.
      expect(cards.length).toBe(7);
      expect(new Set(cards.map((c) => Math.round(c.w))).size).toBe(1);
      expect(new Set(cards.map((c) => Math.round(c.x))).size).toBe(1);
      for (let i = 1; i < cards.length; i++) expect(cards[i]!.y).toBeGreaterThan(cards[i - 1]!.y);
      expect(cards[0]!.x + cards[0]!.w).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  });

  it('Ukrainian pages show no English react-admin labels or raw keys', async () => {
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    for (const path of ['/users', '/users/create', '/users/1', '/setting']) {
      await page.goto(`${panel.server.url}${path}`);
      await page.getByRole('navigation', { name: 'main menu' }).waitFor();
      await page.waitForLoadState('networkidle');
      const text = (await bodyText()).replace(/Create user|User #\d+/g, ''); // SPEC titles, verbatim
      expect(text, path).not.toMatch(RAW_KEY);
      expect(text, path).not.toMatch(/\b(Save|Delete|Create|Rows per page|Loading|Refresh|Profile)\b/);
    }
  });
});
