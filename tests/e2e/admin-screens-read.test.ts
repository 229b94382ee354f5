import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, signedInWindow } from '../helpers/browser';
import type { TestServer } from '../helpers/server';
import { startFoundationServer } from './foundation-panel';
import { seedLayoutData, type LayoutData } from './layout-data';

/**
 * The newer admin screens read right in both languages, beyond fitting the window (layout.test.ts checks that):
 * the audit log names its objects in the reader's language, takes its dates as the panel writes them and keeps
 * its always-shown filters on one row on a laptop; the approvals title is whole on a phone; the CSV import names
 * each column as code with what goes in it; the job queue breaks keys only between their parts, keeps the due
 * time on one line, and a kind's state chips together on a phone; the Ukrainian titles are Ukrainian but for
 * SPEC's own words. Data of layout-data.ts, one server and browser.
 */
let srv: TestServer;
let browser: Browser;
let d: LayoutData;

beforeAll(async () => {
  srv = await startFoundationServer();
  d = await seedLayoutData(srv);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

/** A signed-in admin's page at this width and language. */
async function adminPage(lang: 'uk' | 'en', width: number): Promise<Page> {
  return (await signedInWindow(browser, srv.url, { width, lang })).page;
}

/** The lines an element's text takes (its text's line boxes, by their top). */
const lineCount = (el: Locator) =>
  el.evaluate((root) => {
    const tops: number[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects())
        if (r.width > 0 && !tops.some((t) => Math.abs(t - r.top) < 4)) tops.push(r.top);
    }
    return tops.length;
  });

/** Where the element's text goes to a new line between two letters or digits ('gener|ate'): a word cut. */
const midWordBreaks = (el: Locator) =>
  el.evaluate((root) => {
    const cuts: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      let top: number | null = null;
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0) continue;
        if (top !== null && r.top > top + 2 && /[\p{L}\p{N}]/u.test(text[i - 1]!) && /[\p{L}\p{N}]/u.test(text[i]!))
          cuts.push(`${text.slice(Math.max(0, i - 6), i)}|${text.slice(i, i + 6)}`);
        top = r.top;
      }
    }
    return cuts;
  });

describe('audit log', () => {
  it('names the objects in Ukrainian, keeps its filters on one row and filters by a date typed as DD.MM.YYYY', async () => {
    const page = await adminPage('uk', 1440);
    await page.goto(`${srv.url}/audit`);
    await page.getByText('Вебхук #1').first().waitFor();
    const objects = await page.locator('td.column-objectType').allInnerTexts();
    expect(objects).toContain('Допис #2');
    expect(objects.filter((o) => /user|profile|publication|post|webhook|api_key/.test(o))).toEqual([]);

    // Who, action, from and to: one row beside the list's buttons.
    const tops = await Promise.all(
      ['input[name="actor"]', '[data-filter="from"] input', '[data-filter="to"] input'].map(async (s) =>
        Math.round((await page.locator(s).boundingBox())!.y),
      ),
    );
    expect(new Set(tops).size).toBe(1);

    const from = page.locator('[data-filter="from"] input');
    expect(await from.getAttribute('type')).toBe('text');
    expect(await from.getAttribute('placeholder')).toBe('ДД.ММ.РРРР ГГ:ХХ');
    await from.fill('01.01.2100 00:00');
    await page.waitForURL((u) => decodeURIComponent(u.search).includes('"from":"2100-01-01T00:00:00.000Z"'));
    await page.locator('td.column-objectType').first().waitFor({ state: 'detached' });
    await from.fill('');
    await page.getByText('Вебхук #1').first().waitFor();
    await page.context().close();
  });

  it('shows times the English way on the English panel, and the objects in English', async () => {
    const page = await adminPage('en', 1440);
    await page.goto(`${srv.url}/audit`);
    await page.getByText('Webhook #1').first().waitFor();
    expect(await page.locator('td.column-at').first().innerText()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d/);
    expect(await page.locator('[data-filter="to"] input').getAttribute('placeholder')).toBe('DD.MM.YYYY HH:MM');
    await page.context().close();
  });

  it('stacks each entry on a phone, its details one field a line, in Ukrainian words', async () => {
    const page = await adminPage('uk', 390);
    await page.goto(`${srv.url}/audit`);
    const webhook = page.locator('[data-audit-entry]').filter({ hasText: 'Вебхук #1' });
    await webhook.waitFor();
    expect(await webhook.locator('[data-audit-detail] > span').allInnerTexts()).toEqual([
      expect.stringMatching(/^URL: https:\/\/hooks\.example\.com/),
      'Події: Публікацію опубліковано, Публікація не вдалася, Рендер завершено, Доступ до платформи скоро спливе',
    ]);
    // A sign-in says how, in words; a profile's changed secrets name the form's fields.
    const signIn = page.locator('[data-audit-entry]').filter({ hasText: 'Вхід' }).first();
    expect(await signIn.locator('[data-detail-field="with"]').innerText()).toBe('Спосіб: пароль');
    const secrets = page.locator('[data-audit-entry]').filter({ hasText: 'Змінено секрети профілю' }).first();
    expect(await secrets.locator('[data-detail-field="fields"]').innerText()).toBe('Поля: Проксі, client_secret');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.context().close();
  });
});

describe('approvals', () => {
  for (const lang of ['uk', 'en'] as const)
    it(`shows its whole title on a phone (${lang})`, async () => {
      const page = await adminPage(lang, 390);
      await page.goto(`${srv.url}/approvals`);
      await page.locator('[data-approval]').first().waitFor();
      const title = page.locator('#react-admin-title');
      expect(await title.evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
      expect(await title.innerText()).toBe(lang === 'uk' ? 'Схвалення' : 'Approvals');
      // The whole title heads the card.
      expect(await page.locator('h1').innerText()).toBe(
        lang === 'uk' ? 'Дописи на схваленні' : 'Posts awaiting approval',
      );
      await page.context().close();
    });
});

describe('CSV import', () => {
  for (const lang of ['uk', 'en'] as const)
    it(`names every column as code with what it holds (${lang})`, async () => {
      const page = await adminPage(lang, 1440);
      await page.goto(`${srv.url}/video/import`);
      const columns = page.locator('code[data-csv-column]');
      await columns.first().waitFor();
      expect(await columns.allInnerTexts()).toEqual([
        'video',
        'profile',
        'group',
        'platforms',
        'title',
        'description',
        'tags',
        'date',
        'repeat',
      ]);
      const said = await page.locator('dd').allInnerTexts();
      expect(said).toHaveLength(9);
      for (const text of said) expect(text).toMatch(lang === 'uk' ? /[а-яіїєґ]{3}/ : /^[a-z“ ]/);
      expect(said.filter((t) => t.includes('kadr.'))).toEqual([]);
      await page.context().close();
    });
});

describe('job queue', () => {
  it('breaks keys only between their parts and keeps the due time and its header on one line (en, 1440)', async () => {
    const page = await adminPage('en', 1440);
    await page.goto(`${srv.url}/jobs`);
    await page.getByText('upstream_connect_error').first().waitFor();
    // Each kind's key, under its label.
    const keys = page.locator('[data-kind-label] + .MuiTypography-caption');
    // The seeded jobs, and the proxy checks of the three seeded profiles (no worker runs here).
    expect(await keys.count()).toBe(7);
    for (let i = 0; i < 7; i++) expect(await midWordBreaks(keys.nth(i))).toEqual([]);
    expect(await lineCount(page.locator('th.column-runAt'))).toBe(1);
    const due = page.locator('td.column-runAt');
    for (let i = 0; i < (await due.count()); i++) expect(await lineCount(due.nth(i))).toBe(1);
    await page.context().close();
  });

  it("keeps a kind's state chips together on a phone (uk, 390)", async () => {
    const page = await adminPage('uk', 390);
    await page.goto(`${srv.url}/jobs`);
    const kind = page.locator('[data-testid="job-summary"] [data-kind="ai.video.generate"]');
    await kind.locator('[data-state="dead"]').waitFor();
    const chipTops = await kind
      .locator('[data-state]')
      .evaluateAll((chips) => chips.map((c) => Math.round(c.getBoundingClientRect().top)));
    expect(chipTops).toHaveLength(2);
    expect(new Set(chipTops).size).toBe(1);
    await page.context().close();
  });
});

describe('titles on the Ukrainian panel', () => {
  for (const width of [1440, 390])
    it(`are Ukrainian but where SPEC §2 gives the words (${width} px)`, async () => {
      const page = await adminPage('uk', width);
      const title = page.locator('#react-admin-title');
      for (const [path, text] of [
        ['/photos/create-folder', 'Нова папка'],
        [`/photos/create/${d.folder}`, 'Фон'],
        // SPEC §2's own titles, in its words.
        ['/photos', 'Background'],
        [`/photos/${d.folder}`, 'Background (0)'],
        ['/users/create', 'Create user'],
        [`/users/${d.user}`, `User #${d.user}`],
        ['/accounts/list', 'Профіля'],
      ] as const) {
        await page.goto(srv.url + path);
        await title.getByText(text, { exact: true }).waitFor();
      }
      await page.context().close();
    });
});
