import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import type { TestServer } from '../helpers/server';
import { startFoundationServer } from './foundation-panel';
import { seedLayoutData, type LayoutData } from './layout-data';

/**
 * Issue 18's screenshot review, in Chromium: empty lists that say how to start, a failed AI video with nothing
 * to play, the AI session's 'active' as words, the upload page naming its folder and saving only picked files,
 * delete on the group and tag-set pages, a failed render request in the operator's words, and toasts that leave
 * the page title readable on a phone. One server: the empty lists first, then the layout tests' data.
 */
let srv: TestServer;
let browser: Browser;
let d: LayoutData;

beforeAll(async () => {
  srv = await startFoundationServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

/** A signed-in page (through the form; the admin unless told), Ukrainian unless told, at a laptop width unless told. */
async function adminPage(width = 1440, lang = 'uk', login = 'admin') {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript((l) => localStorage.setItem('kadr.locale', l), lang);
  const page = await context.newPage();
  await page.goto(`${srv.url}/login`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(`${login}-pass`);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.locator('header').waitFor();
  return { context, page };
}

const EMPTY = [
  { path: '/accounts/list', uk: 'Профілів ще немає', en: 'No profiles yet', create: ['Створити', 'Create'] },
  {
    path: '/video/request-create',
    uk: 'Запитів на створення відео ще немає',
    en: 'No video requests yet',
    create: ['Створити відео', 'Create videos'],
  },
  { path: '/photos', uk: 'Папок із фонами ще немає', en: 'No background folders yet', create: ['Create folder'] },
  { path: '/ai/video', uk: 'Відео ШІ ще немає', en: 'No AI videos yet', create: [] },
  // The AI lists whose records start on a profile: what is missing, and a link to the profiles.
  {
    path: '/ai/list',
    uk: 'Сесій ШІ ще немає',
    en: 'No AI sessions yet',
    create: ['Відкрити профілі', 'Open profiles'],
  },
  { path: '/ai/logs', uk: 'Логів ШІ ще немає', en: 'No AI logs yet', create: ['Відкрити профілі', 'Open profiles'] },
] as const;

describe('a new operator with nothing', () => {
  for (const lang of ['uk', 'en'] as const)
    it(`J: each empty list says what it holds and how to start (${lang}), a search matching nothing says so`, async () => {
      const { context, page } = await adminPage(1440, lang);
      for (const list of EMPTY) {
        await page.goto(srv.url + list.path);
        const empty = page.getByTestId('empty-list');
        await empty.getByText(list[lang]).waitFor();
        const create = list.create[lang === 'uk' ? 0 : list.create.length - 1];
        if (create) expect(await empty.getByRole('link', { name: create }).count()).toBe(1);
        expect(await page.getByText(lang === 'uk' ? 'Нічого не знайдено' : 'Nothing found').count()).toBe(0);
      }
      // A search that matches nothing is not an empty list.
      await page.goto(`${srv.url}/accounts/list?filter=${encodeURIComponent('{"q":"nobody"}')}`);
      await page.getByText(lang === 'uk' ? 'Нічого не знайдено' : 'Nothing found').waitFor();
      expect(await page.getByTestId('empty-list').count()).toBe(0);
      await context.close();
    });
});

describe('with the layout data', () => {
  beforeAll(async () => {
    d = await seedLayoutData(srv);
  });

  it('F: a failed AI video shows a plain box saying so, no play button; its buttons start where its error does', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${srv.url}/ai/video`);
    // The failed one's card (the layout data holds a ready AI video too).
    const card = page
      .getByRole('group', { name: /Відео ШІ #\d+/ })
      .filter({ has: page.getByLabel('Відео не створено: відтворювати нічого') });
    await card.waitFor();
    expect(await card.getByRole('button', { name: /Переглянути відео/ }).count()).toBe(0);
    expect(await card.locator('video').count()).toBe(0);
    const alert = await card.getByRole('alert').boundingBox();
    const publish = await card.getByRole('button', { name: 'Опублікувати' }).boundingBox();
    expect(Math.abs(publish!.x - alert!.x)).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('G: a session reads "Не активна" as words, in the list and on its page, not as an empty radio circle', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${srv.url}/ai/list`);
    const row = page.getByRole('row', { name: /olena\.kovalenko/ });
    await row.getByText('Не активна', { exact: true }).waitFor();
    expect(await page.locator('[data-testid="RadioButtonUncheckedIcon"]').count()).toBe(0);
    await page.goto(`${srv.url}/ai/list/${d.aiSession}`);
    await page.getByTestId('ai-session-info').getByText('Не активна', { exact: true }).waitFor();
    expect(await page.locator('[data-testid="RadioButtonUncheckedIcon"]').count()).toBe(0);
    await context.close();
  });

  it('K: the upload page names its folder and enables Save only once a file is picked', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${srv.url}/photos/create/${d.folder}`);
    await page
      .getByRole('heading', { name: 'Завантаження в папку «Пейзажі для фону: море, гори, ліс і місто»' })
      .waitFor();
    const save = page.getByRole('button', { name: 'Зберегти' });
    expect(await save.isDisabled()).toBe(true);
    await page.getByTestId('upload-hint').getByText('Потрібно додати хоча б одне зображення або відео').waitFor();
    await page.locator('input[data-zone="photo"]').setInputFiles({
      name: 'sea.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    await expect.poll(() => save.isDisabled()).toBe(false);
    expect(await page.getByTestId('upload-hint').count()).toBe(0);
    await context.close();
  });

  for (const { name, path, listPath, record, toast } of [
    {
      name: 'group',
      path: () => `/accounts/group/${d.group}`,
      listPath: '/accounts/group/list',
      record: 'Ранкові публікації кулінарних каналів (будні, 08:00–10:00)',
      toast: 'Группа видалена',
    },
    {
      name: 'tag set',
      path: () => `/tags/${d.tagSet}`,
      listPath: '/tags',
      record: 'Кулінарія та рецепти на кожен день',
      toast: 'Тег видалено',
    },
  ])
    it(`L: the ${name} page deletes after the lists' confirmation naming it, then shows the list`, async () => {
      const { context, page } = await adminPage();
      await page.goto(srv.url + path());
      await page.getByRole('button', { name: 'Видалити' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Видалити «${record}»?`).waitFor();
      await dialog.getByRole('button', { name: 'Підтвердити' }).click();
      await page.getByText(toast).waitFor();
      await page.waitForURL((u) => u.pathname === listPath);
      await page.goto(srv.url + path());
      await expect.poll(() => page.getByText(record).count()).toBe(0);
      await context.close();
    });

  it("M, N: a failed request says why in the operator's words, ffmpeg's as a detail, and that it made no videos", async () => {
    for (const lang of ['uk', 'en'] as const) {
      const { context, page } = await adminPage(1440, lang);
      const [reason, none] =
        lang === 'uk'
          ? ['Рендер не вдався: кліп не вдалося декодувати', 'Рендер не вдався: готових відео немає']
          : ['Rendering failed: the clip could not be decoded', 'Rendering failed: no videos were made'];
      await page.goto(`${srv.url}/video/request-create/${d.requests.failed}`);
      await page.getByText(reason).waitFor();
      // ffmpeg's words apart, labelled, in their own block: not part of the sentence.
      const detail = page.getByTestId('render-failure-detail');
      await detail.getByText(lang === 'uk' ? 'Технічні подробиці:' : 'Technical details:').waitFor();
      await detail
        .locator('code')
        .getByText(/^ffmpeg exited with code 1: Error while decoding/)
        .waitFor();
      expect(await page.getByText(`${reason}: ffmpeg`).count()).toBe(0);
      await page.getByTestId('request-no-outputs').getByText(none).waitFor();
      expect(await page.getByText(lang === 'uk' ? 'Відео ще не готові' : 'No videos ready yet').count()).toBe(0);
      // The list's status column: the same reason, the raw text under it.
      await page.goto(`${srv.url}/video/request-create`);
      const row = page.locator('[data-request="layoutfailed00001"]');
      await row.getByText(reason).waitFor();
      await row.getByTestId('render-failure-detail').waitFor();
      await context.close();
    }
  });

  it('Q: on a phone an error toast sits below the app bar, the page title readable', async () => {
    // The failed AI video's publish form: 'Відео ще не готове до публікації', back on the AI videos.
    const { id } = await srv.tdb.db.selectFrom('aiVideos').select('id').executeTakeFirstOrThrow();
    const { context, page } = await adminPage(390);
    await page.goto(`${srv.url}/ai/video/${id}/publish`);
    const toast = page.locator('[role="status"]').first();
    await toast.waitFor();
    const bar = await page.locator('header').boundingBox();
    const box = await toast.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);
    await context.close();
  });

  it("R: an AI error is a sentence in the reader's language, the provider's words apart and labelled", async () => {
    for (const lang of ['uk', 'en'] as const) {
      const { context, page } = await adminPage(1440, lang);
      const [sentence, label, other] =
        lang === 'uk'
          ? ['GPT тимчасово недоступний', 'Відповідь провайдера:', 'temporarily unavailable']
          : ['GPT is temporarily unavailable', 'Provider said:', 'тимчасово'];
      const check = async (scope: ReturnType<typeof page.locator>) => {
        await scope.getByText(sentence, { exact: true }).waitFor();
        const detail = scope.locator('[data-detail]');
        await detail.getByText(label).waitFor();
        await detail
          .locator('code')
          .getByText(/^upstream_connect_error_or_disconnect/)
          .waitFor();
        expect(await scope.getByText(other).count()).toBe(0);
      };
      await page.goto(`${srv.url}/ai/logs`);
      await check(page.getByTestId('ai-logs'));
      await page.goto(`${srv.url}/ai/list/${d.aiSession}`);
      await check(page.getByTestId('ai-error-text'));
      await page.goto(`${srv.url}/ai/video`);
      await check(page.getByTestId('ai-videos'));
      await context.close();
    }
  });

  it("S: dates are written the screen language's way, in UTC", async () => {
    for (const [lang, shape] of [
      ['uk', /^\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d$/],
      ['en', /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d:\d\d$/],
    ] as const) {
      const { context, page } = await adminPage(1440, lang);
      await page.goto(`${srv.url}/ai/logs`);
      const date = page.getByTestId('ai-logs').locator('tbody td').last();
      await expect.poll(async () => (await date.innerText()).trim()).toMatch(shape);
      await context.close();
    }
  });

  it("T: another user's record, on every detail page, is one not-found screen with a way back, no toast", async () => {
    const { context, page } = await adminPage(1440, 'uk', 'operator');
    const pages = [
      [`/video/youtube/${d.idUpload.published}`, '/video/list'],
      [`/video/request/${d.idUpload.ready}`, '/video/request-create'],
      [`/ai/list/${d.aiSession}`, '/ai/list'],
      [`/video/request-create/${d.requests.done}`, '/video/request-create'],
      [`/video/request-create/${d.requests.failed}`, '/video/request-create'],
      [`/photos/${d.folder}`, '/photos'],
      [`/photos/create/${d.folder}`, '/photos'],
      [`/accounts/${d.profiles[0]}`, '/accounts'],
    ] as const;
    for (const [path, back] of pages) {
      await page.goto(srv.url + path);
      const screen = page.getByTestId('record-not-found');
      await screen.getByRole('heading', { name: 'Не знайдено' }).waitFor();
      await screen.getByText('Такого запису немає, або він належить іншому користувачу.').waitFor();
      expect(await screen.getByRole('link', { name: 'До списку' }).getAttribute('href'), path).toBe(back);
      await page.locator('#react-admin-title').getByText('Не знайдено').waitFor();
      expect(new URL(page.url()).pathname, path).toBe(path);
      await page.waitForLoadState('networkidle');
      expect(await page.locator('[role="status"]').count(), path).toBe(0);
    }
    // An unknown path keeps the SPEC's '404'.
    await page.goto(`${srv.url}/no-such-screen`);
    await page.getByRole('heading', { name: '404' }).waitFor();
    await context.close();
  });

  it("U: the profile's proxy shows its password masked until the eye is pressed; saving keeps it", async () => {
    const { context, page } = await adminPage();
    await page.goto(`${srv.url}/accounts/${d.profiles[0]}`);
    const proxy = page.getByLabel('Проксі', { exact: true });
    await expect.poll(() => proxy.inputValue()).toBe('http://user:••••••@203.0.113.1:8080');
    expect(await page.content()).not.toContain('user:pass@203');
    // Saved while masked: the address stays as it was.
    await page.getByLabel('Коментар', { exact: true }).fill('Олена — основний профіль (перевірка проксі)');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText('Профіль змінено').waitFor();
    await page.reload();
    await expect.poll(() => proxy.inputValue()).toBe('http://user:••••••@203.0.113.1:8080');
    await page.getByRole('button', { name: 'Показати: Проксі' }).click();
    expect(await proxy.inputValue()).toBe('http://user:pass@203.0.113.1:8080');
    await page.getByRole('button', { name: 'Сховати: Проксі' }).click();
    expect(await proxy.inputValue()).toBe('http://user:••••••@203.0.113.1:8080');
    await context.close();
  });
});
