import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { AI_SIM_KEY, startAiSimulator, type AiSimulator } from '../../server/ai/simulators/ai-sim';
import { aiVideoJob } from '../../server/ai/ai.jobs';

/**
 * The AI screens in Chromium against the real server and the OpenAI-compatible simulator (chat, JSON replies,
 * videos): connect GPT and DeepSeek on a profile, chat, ask for a video with the Sora toggle, review it in the
 * play modal, publish one and reject another, read the logs, delete the session, and a second user's 404. Workers
 * are off: the test runs the AI video job itself (what the worker would do), so nothing waits on a timer.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const toast = (page: Page, text: string | RegExp) => page.locator('[role="status"]').filter({ hasText: text }).first();
const EMAIL = 'operator@example.com';

describeOnEachDb('AI screens in the browser', (kind) => {
  let sim: AiSimulator;
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let accountId: number;

  const api = async (method: string, url: string, body?: unknown, bearer = token) => {
    const r = await fetch(`${srv.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const signIn = async (login: string, password: string) =>
    (
      await (
        await fetch(`${srv.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login, password }),
        })
      ).json()
    ).accessToken as string;
  /** The AI video jobs due now, run to the end (the worker's part). */
  const runVideoJobs = () => srv.app.root.createJobRunner({ concurrency: 1, catalogue: [aiVideoJob] }).drain();
  const sessionId = async () =>
    (await srv.tdb.db.selectFrom('aiSessions').select('id').where('email', '=', EMAIL).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    sim = await startAiSimulator();
    srv = await startTestServer(
      {
        AI_GPT_BASE_URL: `${sim.url}/v1`,
        AI_DEEPSEEK_BASE_URL: `${sim.url}/v1`,
        AI_VIDEO_DIALECT: 'openrouter',
        AI_VIDEO_BASE_URL: sim.url,
        AI_VIDEO_API_KEY: AI_SIM_KEY,
        AI_VIDEO_POLL_MS: '10',
        ALLOW_PRIVATE_PROXIES: 'true',
      },
      panel,
      kind,
    );
    token = await signIn('admin', 'admin-pass');
    // A profile with YouTube connected (as the OAuth callback leaves it), so an AI video can be published to it.
    accountId = (await api('POST', '/api/accounts', { proxy: 'http://127.0.0.1:3128', comments: 'AI profile' })).id;
    const sealed = srv.app.root.sealer.seal(
      JSON.stringify({ accessToken: 'a', refreshToken: 'r', expiresAt: '2099-01-01T00:00:00.000Z' }),
    );
    await srv.tdb.db
      .updateTable('accounts')
      .where('id', '=', accountId)
      .set({ isActiveYouTube: 1, tokensYouTubeSealed: sealed })
      .execute();
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await srv?.close();
    await sim?.close();
  });

  it("profile: 'Email GPT не задан', save first, connect GPT (id stored), then DeepSeek", async () => {
    await page.goto(`${srv.url}/accounts/${accountId}`);
    await page.getByLabel('GPT', { exact: true }).check();
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    await toast(page, 'Email GPT не задан').waitFor();
    // The DeepSeek button waits for a GPT id.
    expect(await page.getByRole('button', { name: 'Підключити DeepSeek' }).count()).toBe(0);

    await page.getByLabel('Email GPT').fill(EMAIL);
    await page.getByLabel('Пароль GPT (ключ API)').fill('sk-wrong');
    await page.getByLabel('Пароль DeepSeek (ключ API)').fill(AI_SIM_KEY);
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    await toast(page, 'Спершу збережіть профіль').waitFor();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Профіль змінено').waitFor();

    // A key the provider refuses: an error toast (not a success-style one), and no id on the profile.
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    const refused = page
      .locator('[role="status"]')
      .filter({ hasText: /не прийняв ключ|ключ/ })
      .first();
    await refused.waitFor();
    const acc = async () => api('GET', `/api/accounts/${accountId}`);
    expect((await acc()).idGPT ?? null).toBeNull();

    await page.getByLabel('Пароль GPT (ключ API)').fill(AI_SIM_KEY);
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Профіль змінено').waitFor();
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    await expect.poll(async () => (await acc()).idGPT).toBe(String(await sessionId()));
    await page.getByTestId('gpt-session-id').waitFor();
    await page.getByRole('button', { name: 'Підключити DeepSeek' }).click();
    await toast(page, /Вхід виконано|DeepSeek підключено/).waitFor();
  });

  it('session: tabs in ?chat=, required message, a chat turn, Sora asks for a video', async () => {
    await page.goto(`${srv.url}/ai/list`);
    const row = page.getByRole('row').filter({ hasText: EMAIL });
    await row.waitFor();
    await row.getByText(EMAIL).click();
    const id = await sessionId();
    await page.waitForURL(new RegExp(`/ai/list/${id}$`));
    await page.getByTestId('ai-session-info').getByText(EMAIL).waitFor();
    // The key is masked until revealed.
    expect(await page.getByTestId('ai-password').innerText()).not.toContain(AI_SIM_KEY);
    await page.getByRole('button', { name: 'Показати: Ключ API GPT' }).click();
    expect(await page.getByTestId('ai-password').innerText()).toBe(AI_SIM_KEY);

    await page.getByRole('button', { name: 'Надіслати' }).click();
    await page.getByText("Сообщение обов'язковий").waitFor();

    await page.getByLabel('Повідомлення', { exact: true }).fill('Привіт, <b>GPT</b>');
    await page.getByRole('button', { name: 'Надіслати' }).click();
    const turns = page.getByTestId('ai-turn');
    await expect.poll(() => turns.count()).toBe(1);
    await turns.first().getByTestId('ai-answer').waitFor();
    expect(await page.getByLabel('Повідомлення', { exact: true }).inputValue()).toBe('');

    // DeepSeek's tab keeps its own history, in the address.
    await page.getByRole('tab', { name: 'DeepSeek' }).click();
    await page.waitForURL(new RegExp(`/ai/list/${id}\\?chat=deepseek$`));
    await page.getByText('Повідомлень ще немає').waitFor();
    await page.getByRole('tab', { name: 'GPT' }).click();
    await expect.poll(() => turns.count()).toBe(1);

    // With the Sora toggle the text is a video idea: an AI video is ordered.
    await page.getByText('текст — це ідея відео', { exact: false }).waitFor();
    await page.getByLabel('Sora: згенерувати відео').check();
    await page.getByLabel('Повідомлення', { exact: true }).fill('Осінній ліс у тумані');
    await page.getByRole('button', { name: 'Надіслати' }).click();
    await toast(page, /Відео замовлено/).waitFor();
    await page.getByLabel('Sora: згенерувати відео').check();
    await page.getByLabel('Повідомлення', { exact: true }).fill('Морський берег на світанку');
    await page.getByRole('button', { name: 'Надіслати' }).click();
    await expect
      .poll(() =>
        page
          .locator('[role="status"]')
          .filter({ hasText: /Відео замовлено/ })
          .count(),
      )
      .toBe(2);

    // Stop and Screenshot only while active; the api driver has no screen to shoot and says so.
    await page.getByRole('button', { name: 'Скриншот' }).click();
    await toast(page, 'Драйвер API не має екрана').waitFor();
    await page.getByRole('button', { name: 'Зупинити' }).click();
    await toast(page, 'Сесію зупинено').waitFor();
    await page.getByRole('button', { name: 'Зупинити' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Скриншот' }).count()).toBe(0);
    await page.getByTestId('ai-session-info').locator('[data-active="false"]').waitFor();
  });

  it('AI videos: generated, played in the modal, published; another rejected after a confirmation', async () => {
    await page.goto(`${srv.url}/ai/video`);
    const cards = page.getByTestId('ai-videos').getByRole('group');
    await expect.poll(() => cards.count()).toBe(2);
    expect(await runVideoJobs()).toBe(2);
    // The list refreshes itself while videos generate.
    await expect.poll(() => page.locator('[data-status="success"]').count(), { timeout: 15_000 }).toBe(2);

    const [first, second] = (await srv.tdb.db.selectFrom('aiVideos').select('id').orderBy('id').execute()).map(
      (v) => v.id,
    );
    const card = page.getByRole('group', { name: `Відео ШІ #${first}` });
    await card.getByRole('button', { name: `Переглянути відео #${first}` }).click();
    const modal = page.getByRole('dialog', { name: new RegExp(`Відео ШІ #${first}`) });
    await modal.getByText('Назва').waitFor();
    const player = modal.getByLabel(`Програвач відео #${first}`);
    await page.waitForFunction((el) => (el as HTMLVideoElement).readyState >= 1, await player.elementHandle());
    await modal.getByRole('button', { name: 'Опублікувати' }).click();
    await toast(page, 'Відео надіслано на публікацію').waitFor();
    await modal.waitFor({ state: 'detached' });
    await card.locator('[data-status="publication"]').first().waitFor();

    const other = page.getByRole('group', { name: `Відео ШІ #${second}` });
    // Recreate generates it again: loading, then ready once the job has run.
    await other.getByRole('button', { name: 'Створити заново' }).click();
    await toast(page, 'Відео генерується знову').waitFor();
    await other.locator('[data-status="loading"]').waitFor();
    expect(await runVideoJobs()).toBe(1);
    await other.locator('[data-status="success"]').waitFor({ timeout: 15_000 });
    await other.getByRole('button', { name: 'Відхилити' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Відхилити' }).click();
    await toast(page, 'Відео відхилено').waitFor();
    await other.waitFor({ state: 'detached' });
  });

  it('logs list the steps with a link to the session; the session is deleted from the list', async () => {
    await page.goto(`${srv.url}/ai/logs`);
    const table = page.getByTestId('ai-logs');
    // Newest first: the last steps on page 1, the first sign-in on the next page.
    for (const step of [/Сесію .* зупинено/, /Відео #\d+ відхилено/, /передано на публікацію/, /згенеровано/])
      await table.getByText(step).first().waitFor();
    await page.getByRole('navigation', { name: 'pagination' }).getByRole('button', { name: '2', exact: true }).click();
    await table
      .getByText(/Вхід GPT/)
      .first()
      .waitFor();
    await table.first().waitFor();
    await table.getByRole('link', { name: EMAIL }).first().click();
    await page.waitForURL(new RegExp(`/ai/list/${await sessionId()}$`));

    await page.goto(`${srv.url}/ai/list`);
    const row = page.getByRole('row').filter({ hasText: EMAIL });
    await row.getByRole('button', { name: 'Видалити' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Підтвердити|Так|Видалити/ })
      .click();
    await toast(page, 'ИИ видалено').waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it("a second user cannot open the first user's session (404 screen), nor see it in the list", async () => {
    const acc2 = (await api('POST', '/api/accounts', { proxy: 'http://127.0.0.1:3128', comments: 'second' })).id;
    const reply = await api('POST', '/api/ai/setting/login', {
      proxy: '',
      user: { email: 'owner@example.com', password: AI_SIM_KEY, idAccount: acc2 },
    });
    expect(reply.success).toBe(true);
    await api('POST', '/api/users', { login: 'other', password: 'other-pass', repeatPassword: 'other-pass' });
    const ctx2 = await browser.newContext();
    try {
      const p2 = await ctx2.newPage();
      await signInAs(p2, srv.url, 'other', 'other-pass');
      await p2.goto(`${srv.url}/ai/list/${reply.id}`);
      await p2.getByRole('heading', { name: '404' }).waitFor();
      await p2.goto(`${srv.url}/ai/list`);
      await p2.getByText('Нічого не знайдено').waitFor();
    } finally {
      await ctx2.close();
    }
  });
});
