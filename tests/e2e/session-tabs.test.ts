import type { BrowserContext, Page, Route } from 'playwright-core';
import { signInAs } from '../helpers/browser';
import { foundationPanel } from './foundation-panel';

const authStore = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('authStore') ?? 'null'));
const menu = (page: Page) => page.getByRole('navigation', { name: 'main menu' });

/** Issue 9 item 8: the panel's session as operators use it, in several tabs. */
describe('the panel in two tabs', () => {
  const panel = foundationPanel();
  let context: BrowserContext;
  afterEach(async () => {
    await context?.close();
  });

  async function twoTabsWithAnExpiredToken(opts: { webLocks: boolean }) {
    context = await panel.browser.newContext();
    // Without Web Locks the tabs cannot take turns: both send the same refresh token, only the server's grace helps.
    if (!opts.webLocks)
      await context.addInitScript(() => Object.defineProperty(navigator, 'locks', { value: undefined }));
    const one = await context.newPage();
    await signInAs(one, panel.server.url, 'admin', 'admin-pass');
    const two = await context.newPage();
    await two.goto(`${panel.server.url}/accounts/list`);
    await menu(two).waitFor();
    // Watched (and, without locks, held) before the token expires: the other tab hears the change at once (a
    // storage event) and may refresh before either page is loaded again.
    const before = (await authStore(one)).state.refreshToken as string;
    const refreshes: string[] = [];
    context.on('request', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes.push(r.url());
    });
    if (!opts.webLocks) {
      // Hold the first refresh until the other tab has sent its own, so both present the same token at once.
      const held: Route[] = [];
      await context.route('**/api/auth/refresh', async (route) => {
        held.push(route);
        if (held.length === 2) for (const r of held) await r.continue();
        else if (held.length > 2) await route.continue();
      });
    }
    // The access token both tabs share expires (any token the server refuses with 401 does).
    await one.evaluate(() => {
      const raw = JSON.parse(localStorage.getItem('authStore')!);
      raw.state.accessToken = 'expired.access.token';
      localStorage.setItem('authStore', JSON.stringify(raw));
    });
    // Both tabs load a list at the same moment: each gets a 401 and refreshes.
    await Promise.all([one.goto(`${panel.server.url}/accounts/list`), two.goto(`${panel.server.url}/tags`)]);
    return { one, two, before, refreshes };
  }

  async function expectBothSignedIn({ one, two, before }: { one: Page; two: Page; before: string }) {
    for (const page of [one, two]) {
      await menu(page).waitFor();
      await expect.poll(async () => (await authStore(page)).state.refreshToken, { timeout: 30_000 }).not.toBe(before);
      expect((await authStore(page)).state.isAuthenticated).toBe(true);
    }
    expect(await one.getByLabel('Логін').count()).toBe(0);
    // The session is still alive on the server: its current refresh token rotates.
    const { refreshToken } = (await authStore(one)).state;
    const r = await fetch(`${panel.server.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(r.status).toBe(200);
  }

  it('refreshing at the same moment without a shared lock is not token reuse: both tabs stay signed in', async () => {
    const tabs = await twoTabsWithAnExpiredToken({ webLocks: false });
    await expect.poll(() => tabs.refreshes.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expectBothSignedIn(tabs);
  });

  it('with Web Locks the tabs share one refresh and both stay signed in', async () => {
    const tabs = await twoTabsWithAnExpiredToken({ webLocks: true });
    await expectBothSignedIn(tabs);
  });

  it('an id that does not exist shows the not-found screen, not an empty form', async () => {
    context = await panel.browser.newContext();
    const page = await context.newPage();
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    for (const path of ['/users/abc', '/accounts/999999', '/tags/999999', '/accounts/group/999999']) {
      await page.goto(`${panel.server.url}${path}`);
      await page.getByText('Такого запису немає, або він належить іншому користувачу.').waitFor();
      expect(await page.getByTestId('record-not-found').getByRole('heading', { name: 'Не знайдено' }).count()).toBe(1);
      expect(await page.locator('form').count()).toBe(0);
    }
  });
});
