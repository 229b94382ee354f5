import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import type { DbKind } from '../../server/db/index';
import { describeOnEachDb } from '../helpers/browser-dbs';
import type { TestServer } from '../helpers/server';
import { startFoundationServer } from './foundation-panel';

/**
 * One consistent look (issue 11), clicked through as a person does: the login page, the collapsed sidebar, the
 * language switch, toasts, 404 screens, drop zones, letterboxed previews with an image viewer, the group form.
 */
const CYRILLIC = /[А-Яа-яІіЇїЄєҐґ]/;
const RAW_KEY = /\b(ra|kadr|resources)\.[a-z_]+\.[a-z_]+/;
const INVALID_FORM = 'Форма заповнена некоректно. Перевірте помилки';
/** The '›' of @mui/icons-material's ChevronRight, which sub-items used to wear. */
const CHEVRON_RIGHT = 'M10 6 8.59 7.41 13.17 12l-4.58 4.59L10 18l6-6z';

const fx = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-e2e-look-'));
  const ff = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  ff('-f', 'lavfi', '-i', 'testsrc2=s=640x360', '-frames:v', '1', join(dir, 'wide.jpg'));
  ff('-f', 'lavfi', '-i', 'smptebars=s=360x640', '-frames:v', '1', join(dir, 'tall.jpg'));
  const clip = ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart'];
  ff('-f', 'lavfi', '-i', 'testsrc2=s=480x270:r=25:d=1', ...clip, join(dir, 'wide.mp4'));
  const read = (n: string) => readFileSync(join(dir, n));
  return { wideJpg: read('wide.jpg'), tallJpg: read('tall.jpg'), wideMp4: read('wide.mp4') };
})();

let srv: TestServer;
let browser: Browser;
const ids: Record<string, number> = {};

/** The JSON API as a client script would use it (seeding what the flows look at). */
async function api(token: string | null, method: string, url: string, body?: unknown) {
  const form = body instanceof FormData;
  const r = await fetch(srv.url + url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body && !form ? { 'content-type': 'application/json' } : {}),
    },
    body: form ? body : body ? JSON.stringify(body) : undefined,
  });
  if (r.status >= 400) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
  return r.json();
}
const tokenOf = async (login: string, password: string) =>
  (await api(null, 'POST', '/api/auth/login', { login, password })).accessToken as string;

/** Admin: two profiles, a group, a tag set and a folder with a wide and a tall picture. Olena: her own folder. */
async function seed() {
  const admin = await tokenOf('admin', 'admin-pass');
  await api(admin, 'POST', '/api/users', { login: 'olena', password: 'olena-pass' });
  const olena = await tokenOf('olena', 'olena-pass');
  const profile = (n: number, comments: string) =>
    api(admin, 'POST', '/api/accounts', { proxy: `http://u:p@203.0.113.${n}:8080`, comments });
  ids.alpha = (await profile(1, 'Alpha profile')).id;
  ids.beta = (await profile(2, 'Beta profile')).id;
  ids.group = (await api(admin, 'POST', '/api/accounts-group', { name: 'Ранкові', accounts: [ids.alpha] })).id;
  ids.tagSet = (await api(admin, 'POST', '/api/tags', { name: 'Море', tags: ['sea'] })).id;
  const folder = async (token: string, name: string, files: [string, Buffer][]) => {
    const id = (await api(token, 'POST', '/api/folder/photo-bg', { name })).id as number;
    const form = new FormData();
    form.append('folderId', String(id));
    for (const [n, b] of files) form.append('files[]', new Blob([new Uint8Array(b)], { type: 'image/jpeg' }), n);
    await api(token, 'POST', '/api/photo-bg', form);
    return id;
  };
  ids.adminFolder = await folder(admin, 'Пейзажі', [
    ['wide.jpg', fx.wideJpg],
    ['tall.jpg', fx.tallJpg],
  ]);
  ids.olenaFolder = await folder(olena, 'Олена', [['tall.jpg', fx.tallJpg]]);
}

function serverAndBrowser(kind: DbKind) {
  beforeAll(async () => {
    srv = await startFoundationServer({}, kind);
    await seed();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });
}

async function signedIn(login = 'admin', password = 'admin-pass'): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signInAs(page, srv.url, login, password);
  return page;
}

/** Texts of the toasts on screen (a dismissed toast lingers a moment without react-hot-toast's active class). */
const shownToasts = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-rht-toaster] > div'))
      .filter((d) => d.className)
      .map((d) => (d as HTMLElement).innerText.trim()),
  );
const menu = (page: Page) => page.getByRole('navigation', { name: 'main menu' });
const isNotFoundScreen = async (page: Page) => {
  await page.getByTestId('record-not-found').getByRole('heading', { name: 'Не знайдено' }).waitFor();
  await page.getByText('Такого запису немає, або він належить іншому користувачу.').waitFor();
};

describe('one consistent look [sqlite]', () => {
  serverAndBrowser('sqlite');

  it('the login page looks the same on the first load and after a logout: filled fields, no white frame', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const look = () =>
      page.evaluate(() => {
        const field = document.querySelector('input[name="login"]')!.closest('.MuiInputBase-root')!;
        const card = document.querySelector('form')!.getBoundingClientRect();
        return {
          bodyMargin: getComputedStyle(document.body).margin,
          filled: field.classList.contains('MuiFilledInput-root'),
          outlined: field.classList.contains('MuiOutlinedInput-root'),
          font: getComputedStyle(document.body).fontFamily,
          card: [card.x, card.y, card.width, card.height].map(Math.round),
        };
      });
    await page.goto(`${srv.url}/login`);
    await page.getByLabel('Логін').waitFor();
    const first = await look();
    expect(first).toMatchObject({ bodyMargin: '0px', filled: true, outlined: false });

    await page.getByLabel('Логін').fill('admin');
    await page.getByLabel('Пароль').fill('admin-pass');
    await page.getByRole('button', { name: 'Увійти' }).click();
    await menu(page).waitFor();
    await page.locator('header button').filter({ hasText: 'admin' }).click();
    await page.getByRole('menuitem', { name: 'Вийти' }).click();
    await page.getByText('Ви вийшли із системи').waitFor();
    await page.getByLabel('Логін').waitFor();
    expect(await look()).toEqual(first);
    await page.context().close();
  });

  it('the collapsed sidebar: every item with its own icon and a tooltip; sub-items wear no chevrons', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/accounts/group/list`);
    const nav = menu(page);
    await nav.locator('[data-menu-item="profile_groups"]').waitFor();
    await nav.getByText('Відео', { exact: true }).click(); // a second group open too
    await nav.locator('[data-menu-item="create_requests"]').waitFor();
    const icons = () =>
      nav
        .locator('[data-menu-group], [data-menu-item]')
        .evaluateAll((els) => els.map((e) => e.querySelector('.MuiListItemIcon-root svg path')?.getAttribute('d')));
    // Expanded: the groups show whether they are open at their end, the sub-items their own icons.
    const expanded = await icons();
    expect(expanded).toHaveLength(16); // 9 top-level items, and the 7 sub-items of the two open groups
    expect(await nav.locator(`svg path[d="${CHEVRON_RIGHT}"]`).count()).toBe(0);
    expect(new Set(expanded).size).toBe(expanded.length);
    expect(await nav.locator('[data-menu-group="profiles"] [data-expand="less"]').count()).toBe(1);

    await page.getByRole('button', { name: 'Закрити меню' }).click();
    await expect.poll(() => nav.evaluate((n) => n.getBoundingClientRect().width)).toBeLessThan(60);
    // The pointer rests on the toggle after the click: its own tooltip ('Відкрити меню') goes once it moves away.
    await page.mouse.move(700, 600);
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    const collapsed = await icons();
    expect(collapsed.every(Boolean)).toBe(true);
    expect(new Set(collapsed).size).toBe(collapsed.length);
    expect(collapsed).toEqual(expanded);

    const tooltipOn = async (selector: string, label: string) => {
      await nav.locator(selector).first().hover();
      await page.getByRole('tooltip', { name: label }).waitFor();
      await page.mouse.move(700, 600);
      await page.getByRole('tooltip', { name: label }).waitFor({ state: 'detached' });
    };
    await tooltipOn('[data-menu-item="profiles_list"]', 'Список профілів');
    await tooltipOn('[data-menu-item="profile_groups"]', 'Групи профілів');
    await tooltipOn('[data-menu-item="youtube_list"]', 'YouTube');
    await tooltipOn('[data-menu-group="profiles"]', 'Профілі');
    await tooltipOn('[data-menu-item="background"]', 'Фон');

    // A sub-item still opens its screen from the collapsed sidebar.
    await nav.locator('[data-menu-item="profiles_list"]').click();
    await page.waitForURL(/\/accounts\/list$/);
    await page.context().close();
  });

  it('switching the language in Settings re-renders everything at once: sidebar and password labels too', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/setting`);
    await page.getByLabel('Поточний пароль').waitFor();
    await page.getByLabel('Мова інтерфейсу').click();
    await page.getByRole('option', { name: 'English' }).click();
    // No navigation: the open page, its form labels and the sidebar change together.
    await page.getByLabel('Current password').waitFor();
    await menu(page).getByText('Profiles', { exact: true }).waitFor();
    await page.getByLabel('Repeat password').waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(CYRILLIC);
    expect(text).not.toMatch(RAW_KEY);

    await page.getByLabel('Interface language').click();
    await page.getByRole('option', { name: 'Українська' }).click();
    await page.getByLabel('Поточний пароль').waitFor();
    await menu(page).getByText('Профілі', { exact: true }).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/Profiles|Current password|Settings/);
    await page.context().close();
  });

  it("another user's folder, or none, by URL is the not-found screen; so are profiles, groups and tag sets", async () => {
    const page = await signedIn('olena', 'olena-pass');
    await page.goto(`${srv.url}/photos/${ids.olenaFolder}`);
    await page.getByRole('heading', { name: 'Background (1)' }).waitFor();
    for (const path of [
      `/photos/${ids.adminFolder}`,
      `/photos/create/${ids.adminFolder}`,
      '/photos/999999',
      '/photos/abc',
      `/accounts/${ids.alpha}`,
      `/accounts/group/${ids.group}`,
      `/tags/${ids.tagSet}`,
    ]) {
      await page.goto(srv.url + path);
      await isNotFoundScreen(page);
      expect(await page.getByRole('link', { name: 'Create', exact: true }).count(), path).toBe(0);
      expect(await page.getByText('Пейзажі').count(), path).toBe(0);
      expect(await shownToasts(page), path).toEqual([]);
    }
    // A page the role may not open: react-admin's access-denied screen, with no refused read's toast beside it.
    await page.goto(`${srv.url}/users/1`);
    await page.getByText('Доступ заборонено').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await shownToasts(page)).toEqual([]);
    await page.context().close();
  });

  it('drop zones refuse the wrong kind with the SPEC toast', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/video/create`);
    await page
      .getByTestId('create-video-file')
      .setInputFiles({ name: 'sea.jpg', mimeType: 'image/jpeg', buffer: fx.wideJpg });
    await expect.poll(() => shownToasts(page)).toContain('Файл "sea.jpg" має недопустимий формат. Файл має бути відео');
    expect(await page.getByRole('button', { name: 'Прибрати файл sea.jpg' }).count()).toBe(0);
    expect(await page.getByText('Максимум одне відео').count()).toBe(0);

    await page.goto(`${srv.url}/photos/create/${ids.adminFolder}`);
    await page
      .locator('input[data-zone="photo"]')
      .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: fx.wideMp4 });
    await expect.poll(() => shownToasts(page)).toContain('Файл "clip.mp4" має недопустимий формат. Файл має бути фото');
    await page
      .locator('input[data-zone="video"]')
      .setInputFiles({ name: 'sea.jpg', mimeType: 'image/jpeg', buffer: fx.wideJpg });
    await expect.poll(() => shownToasts(page)).toContain('Файл "sea.jpg" має недопустимий формат. Файл має бути відео');
    expect(await page.getByText('clip.mp4', { exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('wide previews are letterboxed on a dark tile; a picture opens large, Esc or a click outside closes it', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/photos/${ids.adminFolder}`);
    const wide = page.getByRole('button', { name: 'Відкрити зображення: wide.jpg' });
    await wide.waitFor();
    const tile = await wide.locator('img').evaluate((img) => ({
      fit: getComputedStyle(img).objectFit,
      ground: getComputedStyle(img.closest('li')!).backgroundColor,
    }));
    expect(tile).toEqual({ fit: 'contain', ground: 'rgb(33, 33, 33)' });

    await wide.click();
    const viewer = page.getByRole('dialog', { name: 'Перегляд зображення' });
    const shown = viewer.getByRole('img', { name: 'wide.jpg' });
    await shown.waitFor();
    await expect.poll(() => shown.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(640);
    const box = (await shown.boundingBox())!;
    expect(box.width).toBeGreaterThan(box.height); // whole, not cropped into a vertical tile
    expect(box.width).toBeGreaterThan(320); // large
    await page.keyboard.press('ArrowRight');
    await viewer.getByRole('img', { name: 'tall.jpg' }).waitFor();
    await viewer.getByRole('button', { name: 'Попереднє' }).click();
    await shown.waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Відкрити зображення: tall.jpg' }).click();
    await viewer.getByRole('img', { name: 'tall.jpg' }).waitFor();
    await page.mouse.click(20, 780); // the backdrop
    await viewer.waitFor({ state: 'detached' });

    // The create-video preview of a wide clip: the whole frame on a dark tile.
    await page.goto(`${srv.url}/video/create`);
    await page
      .getByTestId('create-video-file')
      .setInputFiles({ name: 'wide.mp4', mimeType: 'video/mp4', buffer: fx.wideMp4 });
    const thumb = page.getByRole('img', { name: 'Кадр відео wide.mp4' });
    await thumb.waitFor();
    expect(
      await thumb.evaluate((img) => [
        getComputedStyle(img).objectFit,
        getComputedStyle(img.parentElement!).backgroundColor,
      ]),
    ).toEqual(['contain', 'rgb(33, 33, 33)']);
    await page.context().close();
  });
});

// This flow writes: it runs on SQLite and on PostgreSQL.
describeOnEachDb('one consistent look: the group form', (kind) => {
  serverAndBrowser(kind);

  it("Save is enabled from the start and still validates; the success dismisses the form's earlier error toast", async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/accounts/group/create`);
    const save = page.getByRole('button', { name: 'Зберегти' });
    await save.waitFor();
    expect(await save.isEnabled()).toBe(true);
    // MUI's own words are in the panel's language too (they were 'Open' / 'Clear').
    expect(await page.getByRole('button', { name: 'Відкрити', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Open', exact: true }).count()).toBe(0);
    await save.click();
    await page.getByText('Мінімум один профіль').waitFor();
    await expect.poll(() => shownToasts(page)).toContain(INVALID_FORM);

    // The pointer rests on the toast, which holds react-hot-toast's timers: only the success can take it away.
    await page.locator('[data-rht-toaster]').getByText(INVALID_FORM).hover();
    await page.getByLabel('Назва').fill('Вечірні');
    const profiles = page.getByRole('combobox', { name: 'Профілі' });
    await profiles.focus();
    await profiles.press('ArrowDown');
    await page.getByRole('option').first().waitFor();
    await profiles.press('ArrowDown');
    await profiles.press('Enter');
    await page.getByRole('button', { name: /profile/ }).waitFor();
    expect(await shownToasts(page)).toContain(INVALID_FORM);
    await save.press('Enter');
    await expect.poll(() => shownToasts(page)).toContain('Группа створено');
    await expect.poll(() => shownToasts(page)).not.toContain(INVALID_FORM);
    await page.waitForURL(/\/accounts\/group\/list$/);

    // The saved group's form: Save enabled with nothing changed, saving it again works.
    await page.getByRole('cell', { name: 'Вечірні' }).click();
    await page.waitForURL(/\/accounts\/group\/\d+$/);
    await page.getByRole('button', { name: /profile/ }).waitFor();
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await expect.poll(() => shownToasts(page)).toContain('Группа змінено');
    const row = await srv.tdb.db
      .selectFrom('accountGroups')
      .select('name')
      .where('name', '=', 'Вечірні')
      .executeTakeFirst();
    expect(row?.name).toBe('Вечірні');
    await page.context().close();
  });
});
