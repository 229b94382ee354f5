import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi } from '../helpers/server-api';
import { startWorkers, type Workers } from '../../server/workers';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { holdDeadPort, startLocalProxy, type DeadAddress, type LocalProxy } from '../../sim/platforms/local-proxy';

/**
 * A profile's proxy is checked as soon as it is saved (issue 18 item 2), with the workers on: a profile created
 * behind a dead proxy reads "Не працює" with the proxy's reason in the list before any post is made, and an open
 * list shows another one's check by itself (live). A working proxy saved instead clears it. The platforms are the
 * simulators, reached through a local proxy.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describeOnEachDb('the proxy check after a save, in the browser', (kind) => {
  let srv: TestServer;
  let sims: Simulators;
  let proxy: LocalProxy;
  let dead: DeadAddress;
  let workers: Workers;
  let browser: Browser;

  beforeAll(async () => {
    sims = await startSimulators();
    proxy = await startLocalProxy();
    dead = await holdDeadPort();
    srv = await startTestServer({ ...sims.env, ALLOW_PRIVATE_PROXIES: 'true' }, panel, kind);
    workers = await startWorkers(srv.app.root, { pollMs: 200 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await workers?.stop();
    await srv?.close();
    await sims?.close();
    await proxy?.close();
    await dead?.close();
  });

  it('a dead proxy shows on the profile right after the save; a working one clears it', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await signInAs(page, srv.url, 'admin', 'admin-pass');
      const deadProxy = `http://127.0.0.1:${dead.port}`;
      const reason = `Не працює: Проксі недоступний: 127.0.0.1:${dead.port} — з'єднання відхилено`;

      // Created behind a dead proxy, connected nowhere yet: the list says so without any post.
      await page.goto(`${srv.url}/accounts/create`);
      await field(page, 'Проксі').fill(deadProxy);
      await field(page, 'Коментар').fill('Мертвий проксі');
      await page.getByRole('button', { name: 'Створити' }).click();
      await page.getByText('Профіль створено').waitFor();
      await page.waitForURL(/\/accounts\/\d+$/);
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      await page.goto(`${srv.url}/accounts/list`);
      const row = page.locator('tr').filter({ hasText: 'Мертвий проксі' });
      await row.locator('[data-status="error"]').waitFor();
      expect(await row.locator('[data-reason]').innerText()).toBe(reason);

      // An open list shows by itself the check of a profile saved elsewhere (another tab, the API).
      const api = await signedInApi(srv);
      await api('POST', '/api/accounts', { proxy: deadProxy, comments: 'Ще один мертвий' });
      const other = page.locator('tr').filter({ hasText: 'Ще один мертвий' });
      await other.locator('[data-status="error"]').waitFor();
      expect(await other.locator('[data-reason]').innerText()).toBe(reason);

      // At a phone's width the reason wraps in its row.
      await page.setViewportSize({ width: 390, height: 800 });
      await row.locator('[data-reason]').waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await page.setViewportSize({ width: 1440, height: 900 });

      // A working proxy saved on the profile's page: checked too, and the profile no longer fails.
      await page.goto(`${srv.url}/accounts/${id}`);
      await field(page, 'Проксі').fill(proxy.url);
      await page.getByRole('button', { name: 'Зберегти' }).click();
      await page.getByText('Профіль змінено').waitFor();
      await page.goto(`${srv.url}/accounts/list`);
      await row.locator('[data-status]').first().waitFor();
      expect(await row.locator('[data-status="error"]').count()).toBe(0);
      expect(await row.locator('[data-reason]').count()).toBe(0);
      // One check per save that set a proxy, each run once.
      const checks = async () =>
        (await srv.app.root.queue.list()).filter((j) => j.name === 'accounts.proxy-check').map((j) => j.status);
      await expect.poll(checks).toEqual(['done', 'done', 'done']);
    } finally {
      await context.close();
    }
  });
});
