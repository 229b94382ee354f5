import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { AI_SIM_KEY, startAiSimulator, type AiSimulator } from '../../sim/ai/ai-sim';
import { aiVideoJob } from '../../server/ai/ai.jobs';
import { connectPlatform } from '../helpers/connected-tokens';

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

  /**
   * On an AI video's publish form: it is prefilled (title, its session's profile, the profile's connected
   * platforms), fits the window, says that Instagram will be skipped once it is chosen, and publishes the edited
   * title to YouTube only; then the AI video list.
   */
  /** `repeat`: the video's file is already live on the profile: refused until "Дозволити повтор" is on. */
  const publishThroughForm = async (aiId: number, title: string, width = 1440, repeat = false) => {
    const row = await srv.tdb.db.selectFrom('aiVideos').selectAll().where('id', '=', aiId).executeTakeFirstOrThrow();
    const shared = page.getByLabel('Назва').first();
    await expect.poll(() => shared.inputValue()).toBe(row.title);
    const videoCard = page.getByRole('group', { name: `ШІ-відео · ID ${aiId}` });
    expect(await videoCard.getByRole('combobox', { name: 'Профіль' }).inputValue()).toBe(`AI profile · #${accountId}`);
    const box = (platform: string) =>
      page.getByRole('checkbox', { name: `${platform} для AI profile · #${accountId}` });
    await expect.poll(() => box('YouTube').isChecked()).toBe(true);
    expect(await box('TikTok').isChecked()).toBe(false);
    expect(await page.getByTestId('skipped-list').count()).toBe(0);
    await box('Instagram').check();
    await page
      .getByTestId('skipped-list')
      .getByText(`профіль AI profile · #${accountId}, Instagram: профіль не підключено до Instagram`, { exact: false })
      .waitFor();
    await shared.fill(`${title} (ред.)`);
    expect(await videoCard.getByLabel('Назва').inputValue()).toBe(`${title} (ред.)`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (repeat) {
      await page.getByRole('button', { name: 'Зберегти' }).click();
      await page
        .getByText(`уже заплановано або опубліковано в профілі #${accountId} на YouTube`, { exact: false })
        .first()
        .waitFor();
      await videoCard.getByLabel('Дозволити повтор').check();
    }
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Відео надіслано на публікацію').waitFor();
    await toast(page, `Пропущено (профіль не підключено): #${accountId} Instagram`).waitFor();
    await page.waitForURL(/\/ai\/video$/);
    const published = await srv.tdb.db
      .selectFrom('aiVideos')
      .innerJoin('videos', 'videos.id', 'aiVideos.videoId')
      .select(['aiVideos.status', 'videos.title', 'videos.accountId', 'videos.id'])
      .where('aiVideos.id', '=', aiId)
      .executeTakeFirstOrThrow();
    expect(published).toMatchObject({ status: 'publication', title: `${title} (ред.)`, accountId });
    const rows = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select('platform')
      .where('videoId', '=', published.id)
      .execute();
    expect(rows.map((r) => r.platform)).toEqual(['youtube']);
  };

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
    await connectPlatform(srv.tdb.db, srv.app.root.sealer, accountId, 'youtube');
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

  it("profile: 'Email GPT не задан', connect GPT saving the edits for the operator (id stored), then DeepSeek", async () => {
    // No session yet: the empty list says how one starts.
    await page.goto(`${srv.url}/ai/list`);
    const empty = page.getByTestId('empty-list');
    await empty.getByText('Сесій ШІ ще немає').waitFor();
    await empty.getByText('натиснуто «Підключити GPT»', { exact: false }).waitFor();
    await empty.getByRole('link', { name: 'Відкрити профілі' }).waitFor();

    await page.goto(`${srv.url}/accounts/${accountId}`);
    await page.getByLabel('GPT', { exact: true }).check();
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    await toast(page, 'Email GPT не задан').waitFor();
    // The DeepSeek button waits for a GPT id.
    expect(await page.getByRole('button', { name: 'Підключити DeepSeek' }).count()).toBe(0);

    await page.getByLabel('Email GPT').fill(EMAIL);
    await page.getByLabel('Пароль GPT (ключ API)').fill('sk-wrong');
    await page.getByLabel('Пароль DeepSeek (ключ API)').fill(AI_SIM_KEY);
    // Unsaved edits do not block the click. A key the provider refuses: an error toast (not a success-style
    // one), nothing saved, and no id on the profile.
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    const refused = page
      .locator('[role="status"]')
      .filter({ hasText: /не прийняв ключ|ключ/ })
      .first();
    await refused.waitFor();
    const acc = async () => api('GET', `/api/accounts/${accountId}`);
    expect((await acc()).idGPT ?? null).toBeNull();

    expect((await acc()).emailGPT ?? null).toBeNull();

    // The right key, still unsaved: the profile is saved for the operator, then the session id is stored.
    await page.getByLabel('Пароль GPT (ключ API)').fill(AI_SIM_KEY);
    await page.getByRole('button', { name: 'Підключити GPT' }).click();
    await toast(page, 'Профіль змінено').waitFor();
    await expect.poll(async () => (await acc()).idGPT).toBe(String(await sessionId()));
    expect((await acc()).emailGPT).toBe(EMAIL);
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
    // Publish opens the publish form prefilled (nothing is posted yet); the operator edits and chooses.
    await page.setViewportSize({ width: 1440, height: 900 });
    await modal.getByRole('button', { name: 'Опублікувати' }).click();
    await page.waitForURL(new RegExp(`/ai/video/${first}/publish$`));
    await publishThroughForm(first!, 'Лісовий туман');
    await card.locator('[data-status="publication"]').first().waitFor();
    await page.setViewportSize({ width: 1280, height: 720 });

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

  it('AI Publish at 390 px: the prefilled form fits the phone and publishes', async () => {
    // A third finished video of the same session (its file shared with the first, already posted to the profile:
    // a repeat, allowed on the form), published from a phone.
    const src = await srv.tdb.db.selectFrom('aiVideos').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const { id } = await srv.tdb.db
      .insertInto('aiVideos')
      .values({
        userId: src.userId,
        sessionId: src.sessionId,
        status: 'success',
        prompt: src.prompt,
        title: 'Морський берег',
        description: 'Світанок',
        tags: '["море"]',
        storageKey: src.storageKey,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${srv.url}/ai/video`);
      await page
        .getByRole('group', { name: `Відео ШІ #${id}` })
        .getByRole('button', { name: 'Опублікувати' })
        .click();
      await page.waitForURL(new RegExp(`/ai/video/${id}/publish$`));
      await publishThroughForm(id, 'Морський берег', 390, true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
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
      await p2.getByTestId('record-not-found').getByRole('heading', { name: 'Не знайдено' }).waitFor();
      await p2.goto(`${srv.url}/ai/list`);
      await p2.getByText('Сесій ШІ ще немає').waitFor();
    } finally {
      await ctx2.close();
    }
  });
});
