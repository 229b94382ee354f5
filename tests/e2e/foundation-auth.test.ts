import type { Page } from 'playwright-core';
import { hashPassword } from '../../server/auth/password';
import { signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { addOperator, foundationPanel } from './foundation-panel';

const authStore = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('authStore') ?? 'null'));

// Signing in, out and refreshing write sessions: on SQLite and on PostgreSQL.
describeOnEachDb('foundation in the browser: signing in and out', (kind) => {
  const panel = foundationPanel({ kind, setUp: addOperator });
  let page: Page;
  beforeEach(async () => {
    page = await (await panel.browser.newContext()).newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  it('login form: required, too short, too long, the server message for a wrong password, then "Авторизований"', async () => {
    await page.goto(`${panel.server.url}/login`);
    const submit = page.getByRole('button', { name: 'Увійти' });
    await submit.click();
    await expect.poll(() => page.getByText('Обовʼязкове до заповнення').count()).toBe(2);
    await page.getByLabel('Логін').fill('a');
    await page.getByLabel('Пароль').fill('1234');
    await submit.click();
    await expect.poll(() => page.getByText('Занадто коротко!').count()).toBe(2);
    await page.getByLabel('Логін').fill('x'.repeat(51));
    await page.getByLabel('Пароль').fill('y'.repeat(51));
    await submit.click();
    await expect.poll(() => page.getByText('Занадто довго!').count()).toBe(2);
    // Nothing reached the server so far: the form stopped every attempt.
    await page.getByLabel('Логін').fill('admin');
    await page.getByLabel('Пароль').fill('wrong-pass');
    await submit.click();
    await page.getByRole('status').getByText('Невірний логін або пароль').waitFor();
    expect(await authStore(page)).toBeNull();
    await page.getByLabel('Пароль').fill('admin-pass');
    await submit.click();
    await page.getByRole('status').getByText('Авторизований').waitFor();
    await page.getByRole('navigation', { name: 'main menu' }).waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/login');
    const stored = await authStore(page);
    expect(stored.version).toBe(1);
    expect(stored.state).toMatchObject({
      isLoading: false,
      isAuthenticated: true,
      user: { login: 'admin', role: 'admin' },
    });
    expect(stored.state.accessToken).toBeTruthy();
    expect(stored.state.refreshToken).toBeTruthy();
    // A reload keeps the session.
    await page.reload();
    await page.getByRole('navigation', { name: 'main menu' }).waitFor();
  });

  it('repeated wrong passwords for one login are refused for a while with a clear message', async () => {
    const at = new Date().toISOString();
    await panel.server.tdb.db
      .insertInto('users')
      .values({
        login: 'target',
        passwordHash: await hashPassword('target-pass'),
        role: 'user',
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await page.goto(`${panel.server.url}/login`);
    await page.getByLabel('Логін').fill('target');
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Пароль').fill(`wrong-${i}-pass`);
      await page.getByRole('button', { name: 'Увійти' }).click();
      await page.getByRole('status').getByText('Невірний логін або пароль').first().waitFor();
      await page.getByRole('button', { name: 'Увійти' }).and(page.locator(':not([disabled])')).waitFor();
    }
    await page.getByLabel('Пароль').fill('target-pass'); // even the right password, while locked
    await page.getByRole('button', { name: 'Увійти' }).click();
    await page
      .getByRole('status')
      .getByText(/Забагато невдалих спроб входу\. Спробуйте знову через \d+ хв\./)
      .waitFor();
    expect(await authStore(page)).toBeNull();
    // Only that login is locked: a colleague at the same address still signs in.
    await page.getByLabel('Логін').fill('operator');
    await page.getByLabel('Пароль').fill('user-pass');
    await page.getByRole('button', { name: 'Увійти' }).click();
    await page.getByRole('status').getByText('Авторизований').waitFor();
  });

  // Read-only: SQLite only.
  it.runIf(kind === 'sqlite')(
    'an unknown visitor opening a panel path gets the login form, and lands on that path after signing in',
    async () => {
      await page.goto(`${panel.server.url}/users/1`);
      await page.getByRole('button', { name: 'Увійти' }).waitFor();
      await page.getByLabel('Логін').fill('admin');
      await page.getByLabel('Пароль').fill('admin-pass');
      await page.getByRole('button', { name: 'Увійти' }).click();
      await page.getByText('User #1').first().waitFor();
      expect(await page.getByLabel('Логін').inputValue()).toBe('admin');
    },
  );

  it('logout: "Завантаження ..." then "Ви вийшли із системи"; the refresh token is revoked on the server', async () => {
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    const { refreshToken } = (await authStore(page)).state;
    await page.locator('header button').filter({ hasText: 'admin' }).click(); // the user menu shows the login
    await page.getByRole('menuitem', { name: 'Налаштування' }).waitFor();
    await page.getByRole('menuitem', { name: 'Вийти' }).click();
    await page
      .getByRole('status')
      .getByText(/Завантаження \.\.\.|Ви вийшли із системи/)
      .first()
      .waitFor();
    await page.getByRole('status').getByText('Ви вийшли із системи').waitFor();
    await page.getByRole('button', { name: 'Увійти' }).waitFor();
    expect((await authStore(page)).state).toMatchObject({
      isAuthenticated: false,
      user: null,
      accessToken: null,
      refreshToken: null,
    });
    const res = await fetch(`${panel.server.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(res.status).toBe(401);
    // A reload stays signed out.
    await page.reload();
    await page.getByRole('button', { name: 'Увійти' }).waitFor();
  });

  it('a revoked session (the refresh fails) goes back to the login form', async () => {
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    const { refreshToken } = (await authStore(page)).state;
    // The session is revoked elsewhere, and the access token is no longer accepted.
    await fetch(`${panel.server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    await page.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('authStore')!);
      s.state.accessToken = 'expired.token.value';
      localStorage.setItem('authStore', JSON.stringify(s));
    });
    // The next call (the profile list, on reload) gets a 401, the refresh is refused: back to the login form.
    await page.reload();
    await page.getByRole('button', { name: 'Увійти' }).waitFor({ timeout: 10_000 });
    expect((await authStore(page)).state).toMatchObject({ isAuthenticated: false, refreshToken: null });
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
  });
});

describeOnEachDb('foundation in the browser: a short-lived access token', (kind) => {
  const panel = foundationPanel({ env: { ACCESS_TOKEN_TTL_SEC: '2' }, kind });

  it('an expired access token is refreshed transparently and the request retried', async () => {
    const page = await (await panel.browser.newContext()).newPage();
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    const before = (await authStore(page)).state;
    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes.push(r.status());
    });
    // Wait until the server itself refuses the access token (its 2 s lifetime is over), not for a guessed delay.
    await expect
      .poll(
        async () =>
          (
            await fetch(`${panel.server.url}/api/auth/me`, {
              headers: { authorization: `Bearer ${before.accessToken}` },
            })
          ).status,
        { timeout: 10_000, interval: 200 },
      )
      .toBe(401);
    await page.getByRole('navigation', { name: 'main menu' }).getByText('Користувачі').click();
    await page.getByRole('cell', { name: 'admin' }).first().waitFor();
    expect(refreshes).toEqual([200]);
    const after = (await authStore(page)).state;
    expect(after.isAuthenticated).toBe(true);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(await page.getByRole('button', { name: 'Увійти' }).count()).toBe(0);
    await page.context().close();
  });
});
