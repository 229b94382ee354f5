import type { Page, Response } from 'playwright-core';
import { signInAs } from '../helpers/browser';
import { foundationPanel } from './foundation-panel';

/** Text only MUI's Popper code has (@popperjs/core's attributes): what a tooltip and the bell's panel bring. */
const POPPER_CODE = 'data-popper-';
/** Text only classic zod brings (its English messages): the users screen's contract is zod/mini's. */
const CLASSIC_ZOD_CODE = 'Too big: expected';
/** A text of the messages' later part (i18n/panelParts.ts: kadr.platform_errors), which the users list never shows. */
const LATER_MESSAGE = 'Невідома платформа: %{platform}';

/**
 * What a cold page loads before anyone touches it (issue 18 item 9): only what draws the first screen. Tooltips
 * and the bell's panel load on first use, and then work as before; the users screen's contract needs zod's core
 * only.
 */
describe('first load of a screen', () => {
  const panel = foundationPanel();

  /** A fresh browser of the signed-in admin at `path`, with the text of every script it has loaded. */
  async function cold(path: string): Promise<{ page: Page; scripts: Array<Promise<string>> }> {
    const signIn = await (await panel.browser.newContext()).newPage();
    await signInAs(signIn, panel.server.url, 'admin', 'admin-pass');
    const storageState = await signIn.context().storageState();
    await signIn.context().close();
    const page = await (
      await panel.browser.newContext({ storageState, viewport: { width: 1440, height: 900 } })
    ).newPage();
    const scripts: Array<Promise<string>> = [];
    page.on('response', (r: Response) => {
      if (new URL(r.url()).pathname.endsWith('.js')) scripts.push(r.text().catch(() => ''));
    });
    await page.goto(`${panel.server.url}${path}`);
    return { page, scripts };
  }
  const loaded = async (scripts: Array<Promise<string>>, text: string) =>
    (await Promise.all(scripts)).some((s) => s.includes(text));

  it('/users draws without tooltip code; a tooltip shows on hover and names its button all along', async () => {
    const { page, scripts } = await cold('/users');
    await page.locator('td').getByText('admin', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await loaded(scripts, POPPER_CODE)).toBe(false);
    expect(await loaded(scripts, CLASSIC_ZOD_CODE)).toBe(false);

    // The menu's toggle is named by its tooltip's text before the tooltip code has loaded…
    const toggle = page.getByRole('button', { name: 'Закрити меню' });
    await toggle.waitFor();
    // …and the tooltip itself shows on the first hover.
    await toggle.hover();
    await page.getByRole('tooltip', { name: 'Закрити меню' }).waitFor();
    expect(await loaded(scripts, POPPER_CODE)).toBe(true);
    await page.context().close();
  });

  it('/users loads the core part of the messages only; the next screen brings the rest and shows its texts', async () => {
    const { page, scripts } = await cold('/users');
    await page.locator('td').getByText('admin', { exact: true }).waitFor();
    await page.getByText('Користувачі', { exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await loaded(scripts, LATER_MESSAGE)).toBe(false);

    const menu = page.getByRole('navigation', { name: 'main menu' });
    await menu.getByText('Профілі', { exact: true }).click();
    await menu.getByText('Список профілів', { exact: true }).click();
    // The profiles list's own title (kadr.accounts, a later section), not its key.
    await page.getByText('Профіля', { exact: true }).first().waitFor();
    expect(await page.getByText('kadr.accounts.title').count()).toBe(0);
    expect(await loaded(scripts, LATER_MESSAGE)).toBe(true);
    await page.context().close();
  });

  it('a cold list asks for its first page before its code has loaded, once', async () => {
    const { page } = await cold('/users');
    await page.locator('td').getByText('admin', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    const timings = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => ({ name: new URL(e.name).pathname + new URL(e.name).search, start: e.startTime })),
    );
    const listCalls = timings.filter((t) => t.name.startsWith('/api/users?page=1'));
    const screenCode = timings.find((t) => /^\/assets\/UserList-[^/]+\.js$/.test(t.name));
    expect(listCalls).toHaveLength(1);
    expect(screenCode).toBeDefined();
    expect(listCalls[0]!.start).toBeLessThan(screenCode!.start);
    await page.context().close();
  });

  it("the bell's panel loads on the first press and closes on an outside click", async () => {
    const { page, scripts } = await cold('/users');
    await page.locator('td').getByText('admin', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await loaded(scripts, POPPER_CODE)).toBe(false);

    await page.getByRole('button', { name: /Сповіщення/ }).click();
    const bellPanel = page.getByRole('dialog', { name: 'Сповіщення' });
    await bellPanel.getByText('Немає повідомлень').waitFor();
    await page.mouse.click(700, 600);
    await bellPanel.waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('a menu item the pointer rests on has its screen in by the click: no code loads after it', async () => {
    const { page } = await cold('/users');
    await page.locator('td').getByText('admin', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    const item = page.locator('[data-menu-item="tags"]');
    const code = page.waitForResponse((r) => /\/TagSetList-[^/]+\.js$/.test(r.url()));
    const messages = page.waitForResponse((r) => /\/later-[^/]+\.js$/.test(r.url()));
    await item.hover();
    const url = (await code).url();
    await messages;
    // The screen's module with everything it imports is in (an import settles once its whole graph has loaded).
    // (A string: the test's own transform would rewrite an import() in a function.)
    await page.evaluate(`import(${JSON.stringify(url)}).then(() => undefined)`);
    const after: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('.js')) after.push(r.url());
    });
    await item.click();
    await page.locator('#react-admin-title').getByText('Теги').waitFor();
    await page.waitForLoadState('networkidle');
    expect(after).toEqual([]);
    await page.context().close();
  });
});
