import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startChatSim, type ChatSim } from '../../sim/ai/chat-sim';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/index';

/**
 * The GPT connect flow with its code step, for real: the server's GPT driver is the browser driver (Chromium on
 * the chat web simulator, through the profile's GPT proxy); the site mails a code, the panel's 'Код авторизації'
 * modal sends it, the session id lands on the profile.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const EMAIL = 'coder@example.com';

describeOnEachDb('GPT connect with a verification code', (kind) => {
  let chat: ChatSim;
  let proxy: LocalProxy;
  let srv: TestServer;
  let browser: Browser;
  let page: Page;
  let accountId: number;
  let api: SignedInApi;

  beforeAll(async () => {
    chat = await startChatSim({ chunkDelayMs: 5 });
    chat.setAccount(EMAIL, { password: 'site-pass', needsCode: true });
    proxy = await startLocalProxy();
    srv = await startTestServer(
      { AI_GPT_DRIVER: 'browser', AI_GPT_SITE_URL: chat.url, ALLOW_PRIVATE_PROXIES: 'true' },
      panel,
      kind,
    );
    api = await signedInApi(srv);
    accountId = (
      await api('POST', '/api/accounts', {
        proxy: proxy.url,
        comments: 'code profile',
        inGPT: true,
        emailGPT: EMAIL,
        passwordGPT: 'site-pass',
        proxyGPT: proxy.url,
      })
    ).id;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await chat?.close();
    await proxy?.close();
  });

  it("'Підключити GPT' → 'Код авторизації' → 'Відправити': the code from the site's mail connects the profile", async () => {
    await page.goto(`${srv.url}/accounts/${accountId}`);
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    const modal = page.getByRole('dialog', { name: 'Код авторизації' });
    await modal.waitFor({ timeout: 30_000 });
    await modal.getByLabel('Код').press('Enter');
    await modal.getByText("Код обов'язковий").waitFor();
    await expect.poll(() => chat.outbox(EMAIL)).toMatch(/\S/);
    await modal.getByLabel('Код').fill(chat.outbox(EMAIL)!);
    await modal.getByLabel('Код').press('Enter');
    await modal.waitFor({ state: 'detached', timeout: 30_000 });
    const session = await srv.tdb.db
      .selectFrom('aiSessions')
      .select(['id', 'status'])
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    await expect.poll(async () => (await api('GET', `/api/accounts/${accountId}`)).idGPT).toBe(String(session.id));
    await page.getByTestId('gpt-session-id').waitFor();
    // The site saw the login through the profile's GPT proxy.
    expect(proxy.records.some((r) => r.allowed && r.target === new URL(chat.url).host)).toBe(true);
  });
});
