import type { Page } from 'playwright-core';
import { signInAs } from '../helpers/browser';
import { addOperator, foundationPanel } from './foundation-panel';

describe("in the browser: an API key's life", () => {
  const panel = foundationPanel({ setUp: addOperator });
  let page: Page;
  beforeEach(async () => {
    const context = await panel.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: panel.server.url });
    page = await context.newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  const tags = (key: string) =>
    fetch(`${panel.server.url}/api/tags`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

  it('made on the settings page, shown once to copy, used, then revoked at once', async () => {
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await page.goto(`${panel.server.url}/setting`);
    const card = page.getByTestId('api-keys');
    await card.getByText('Ключів ще немає').waitFor();
    // A name is required: the server's message beside the field.
    await card.getByRole('button', { name: 'Створити ключ' }).click();
    await card.getByText("Назва обов'язкова").waitFor();
    await card.getByLabel('Назва ключа').fill('Таблиця');
    await card.getByRole('button', { name: 'Створити ключ' }).click();

    // Shown once, with a copy button.
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Скопіюйте ключ зараз: більше його не буде показано.').waitFor();
    const key = await dialog.getByTestId('shown-once').inputValue();
    expect(key).toMatch(/^kadr_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Копіювати' }).click();
    await page.getByText('Скопійовано').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await dialog.getByRole('button', { name: 'Готово' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Listed by its start only, never whole; read only by default; not used yet.
    const row = card.locator('tbody tr').first();
    await row.getByText('Таблиця').waitFor();
    await row.getByText(`${key.slice(0, 17)}…`).waitFor();
    await row.getByText('Лише читання').waitFor();
    await row.getByText('ще ні').waitFor();
    expect(await page.locator('body').innerText()).not.toContain(key);

    // It works, and its last use shows after a reload; still never shown whole.
    expect(await tags(key)).toBe(200);
    await page.reload();
    await card.locator('tbody tr').first().getByText('Діє').waitFor();
    await expect.poll(() => card.locator('tbody tr').first().getByText('ще ні').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(key);

    // Revoked: refused at the very next request.
    await card.getByRole('button', { name: 'Відкликати' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Відкликати' }).click();
    await page.getByText('Ключ відкликано').first().waitFor();
    await card.locator('tbody tr').first().getByText('Відкликано').waitFor();
    expect(await tags(key)).toBe(401);
  });

  it('an expiry is typed the way the panel writes dates, in UTC, and listed so', async () => {
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await page.goto(`${panel.server.url}/setting`);
    const card = page.getByTestId('api-keys');
    await card.getByLabel('Назва ключа').fill('До кінця року');
    const expiry = card.getByLabel('Діє до (необов’язково)');
    await card.getByText('У поясі UTC').waitFor();
    expect(await expiry.getAttribute('placeholder')).toBe('ДД.ММ.РРРР, ГГ:ХХ:СС');
    // Not a date: said beside the field, nothing is made.
    await expiry.fill('наступного тижня');
    await card.getByRole('button', { name: 'Створити ключ' }).click();
    await card.getByText('Невірна дата: введіть її як ДД.ММ.РРРР, ГГ:ХХ').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    // A date typed short is written out whole when the field is left, and the key lasts until then.
    const year = new Date().getUTCFullYear() + 1;
    await expiry.fill(`31.12.${year} 23:30`);
    await expiry.blur();
    expect(await expiry.inputValue()).toBe(`31.12.${year}, 23:30:00`);
    await card.getByRole('button', { name: 'Створити ключ' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Готово' }).click();
    const row = card.locator('tbody tr').filter({ hasText: 'До кінця року' });
    await row.getByText(`31.12.${year}, 23:30:00`, { exact: false }).waitFor();
  });

  it("an admin sees a user's keys on the user's page and revokes one; it is refused at once", async () => {
    const made = await fetch(`${panel.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'operator', password: 'user-pass' }),
    }).then((r) => r.json() as Promise<{ accessToken: string; user: { id: number } }>);
    const created = await fetch(`${panel.server.url}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${made.accessToken}` },
      body: JSON.stringify({ name: 'Скрипт', access: 'write' }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    expect(await tags(created.token)).toBe(200);

    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    await page.goto(`${panel.server.url}/users/${made.user.id}`);
    const card = page.getByTestId('user-api-keys');
    await card.getByText('API-ключі користувача').waitFor();
    const row = card.locator('tbody tr', { hasText: 'Скрипт' });
    await row.getByText('Читання і зміни').waitFor();
    await row.getByRole('button', { name: 'Відкликати' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Відкликати' }).click();
    await page.getByText('Ключ відкликано').first().waitFor();
    await row.getByText('Відкликано').waitFor();
    expect(await tags(created.token)).toBe(401);
    // The admin's own keys (Settings) are not the user's.
    await page.goto(`${panel.server.url}/setting`);
    await page.getByTestId('api-keys').getByText('Ключів ще немає').waitFor();
  });
});
