import type { Browser, BrowserContext, Page } from 'playwright-core';
import { encodeMessage } from '../../src/contract/stored-message';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { seedFinishedRequest } from '../helpers/finished-request';
import { setPlatformState } from '../helpers/connected-tokens';

/**
 * Issue 18 leftovers in Chromium: the publication page edits platforms per profile as the publish form does
 * (what will be skipped said, nothing refused); the AI session names its profile as every place does and keeps a
 * provider's own words apart from the translated reason; an emoji in a title is drawn, not an empty box.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();

describeOnEachDb('daily use leftovers in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let adminId: number;
  const acc: Record<string, number> = {};

  const api = async (method: string, url: string, body?: unknown) => {
    const r = await fetch(`${srv.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  /** A profile connected to `platforms` the way the OAuth callback leaves it. */
  const profile = async (comments: string, platforms: { youtube?: boolean; tiktok?: boolean }) => {
    const { id } = await api('POST', '/api/accounts', { proxy: 'http://127.0.0.1:3128', comments });
    const sealed = srv.app.root.sealer.seal('{"accessToken":"a","refreshToken":"r"}');
    for (const platform of ['youtube', 'tiktok'] as const) {
      if (platforms[platform]) await setPlatformState(srv.tdb.db, id, platform, { tokensSealed: sealed, active: true });
    }
    return id as number;
  };
  /** A finished request of two videos published on YouTube, the first to `yt`, the second to `both`. */
  const publication = async (title: string) => {
    const { idUpload, videos } = await seedFinishedRequest(srv.tdb.db, adminId, 2);
    const date = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    await api('POST', `/api/upload-video/${idUpload}`, {
      title,
      description: '',
      tags: ['ліс'],
      accounts: [acc.yt, acc.both],
      inYouTube: true,
      date,
      video: videos.map((v, i) => ({
        id: v,
        title: `${title} ${i + 1}`,
        description: '',
        tags: ['ліс'],
        account: i ? acc.both : acc.yt,
        date,
      })),
    });
    return { idUpload, videos };
  };
  const states = async (videoId: number) =>
    Object.fromEntries(
      (
        await srv.tdb.db
          .selectFrom('videoPublishes')
          .select(['platform', 'state'])
          .where('videoId', '=', videoId)
          .execute()
      ).map((r) => [r.platform, r.state]),
    );
  const fits = async (width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

  beforeAll(async () => {
    srv = await startTestServer({}, panel, kind);
    const login = await (
      await fetch(`${srv.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', password: 'admin-pass' }),
      })
    ).json();
    token = login.accessToken;
    adminId = (await srv.tdb.db.selectFrom('users').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow())
      .id;
    acc.yt = await profile('Тільки YouTube', { youtube: true });
    acc.both = await profile('Обидві', { youtube: true, tiktok: true });
    await srv.tdb.db.updateTable('accounts').where('id', '=', acc.both).set({ titleChannel: 'Канал' }).execute();
    await setPlatformState(srv.tdb.db, acc.both, 'tiktok', { handle: 'obydvi_tt' });
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await srv?.close();
  });

  for (const width of [1440, 390])
    it(`the publication page edits platforms per profile and says what is skipped, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const { idUpload, videos } = await publication(`Ліс ${width}`);
      await page.goto(`${srv.url}/video/youtube/${idUpload}`);
      const box = (platform: string, id: number, name: string) =>
        page.getByRole('checkbox', { name: `${platform} для ${name} · #${id}` });
      // Each profile's row starts from its posts as they are: YouTube for both.
      await expect.poll(() => box('YouTube', acc.yt!, 'Тільки YouTube').isChecked()).toBe(true);
      expect(await box('YouTube', acc.both!, 'Обидві').isChecked()).toBe(true);
      expect(await box('TikTok', acc.both!, 'Обидві').isChecked()).toBe(false);
      expect(await page.getByTestId('skipped-list').count()).toBe(0);
      // Each profile's name reads across the table, not squeezed into a column beside the switches.
      const widths = await page.getByTestId('profile-platforms').evaluate((t) => {
        const table = t.querySelector('[role="table"]')!.getBoundingClientRect().width;
        return [...t.querySelectorAll('[data-profile] [role="rowheader"]')].map(
          (h) => h.getBoundingClientRect().width / table,
        );
      });
      expect(widths.length).toBe(2);
      for (const w of widths) expect(w).toBeGreaterThan(0.95);

      // TikTok for every profile: the one without TikTok is said to be skipped, nothing is refused.
      await page.getByRole('checkbox', { name: 'TikTok для Усі профілі' }).check();
      const skipped = page.getByTestId('skipped-list');
      await skipped.getByText('Буде пропущено (1)').waitFor();
      await skipped
        .getByText(
          `Вихід 1 · ID відео ${videos[0]} → профіль Тільки YouTube · #${acc.yt}, TikTok: ` +
            'профіль не підключено до TikTok',
        )
        .waitFor();
      // The second profile goes to TikTok only.
      await box('YouTube', acc.both!, 'Обидві').uncheck();
      await fits(width);

      await page.getByRole('button', { name: 'Зберегти' }).click();
      await toast(page, 'Оновлено дані').waitFor();
      await toast(page, `Пропущено (профіль не підключено): #${acc.yt} TikTok`).waitFor();
      expect(await states(videos[0]!)).toEqual({ youtube: 'scheduled' });
      expect(await states(videos[1]!)).toEqual({ youtube: 'cancelled', tiktok: 'scheduled' });
      // The form opens again from the saved state.
      await expect.poll(() => box('TikTok', acc.both!, 'Обидві').isChecked()).toBe(true);
      expect(await box('YouTube', acc.both!, 'Обидві').isChecked()).toBe(false);
      await fits(width);
    });

  for (const width of [1440, 390])
    it(`an AI session names its profile and keeps the provider's words apart, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const at = new Date().toISOString();
      const detail = 'Rate limit reached for gpt-4o in organization org-kadr on requests per min';
      const { id } = await srv.tdb.db
        .insertInto('aiSessions')
        .values({
          userId: adminId,
          accountId: acc.both!,
          email: `s${width}@gpt.test`,
          status: 'error',
          isActive: 0,
          errorText: encodeMessage('kadr.ai_errors.with_detail', {
            message: encodeMessage('kadr.ai_errors.rate_limit', { provider: 'GPT' }),
            detail,
          }),
          passwordSealed: null,
          passwordDeepseekSealed: null,
          proxySealed: null,
          browserStateGptSealed: null,
          browserStateDeepseekSealed: null,
          createdAt: at,
          updatedAt: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await page.goto(`${srv.url}/ai/list/${id}`);
      const info = page.getByTestId('ai-session-info');
      // The profile as every picker names it: comment · #id, with its handles.
      const name = info.getByTestId('profile-name');
      await name.waitFor();
      expect(await name.getAttribute('title')).toBe(`Обидві · #${acc.both} · Канал, @obydvi_tt`);
      // The reason in Ukrainian, the provider's words on their own line.
      const error = page.getByTestId('ai-error-text');
      await error.getByText('GPT: забагато запитів, спробуйте пізніше', { exact: true }).waitFor();
      await error.getByText(`Відповідь провайдера: ${detail}`, { exact: true }).waitFor();
      await fits(width);
    });

  it('an emoji in a title is drawn in colour (an emoji font in the panel), not as an empty box', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const { idUpload } = await publication('Осінь 🍂');
    await page.goto(`${srv.url}/video/youtube/${idUpload}`);
    const title = page.getByText('Осінь 🍂 1', { exact: true });
    await title.waitFor();
    const drawn = await title.evaluate(async (el) => {
      const family = getComputedStyle(el).fontFamily;
      // The panel's emoji face is there and made of a colour emoji font of the system.
      const faces = await document.fonts.load(`48px ${family}`, '🍂');
      // The emoji drawn in the title's own font stack: a colour glyph has coloured pixels; a missing glyph's box
      // (or a monochrome fallback) has none.
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 64;
      const ctx = canvas.getContext('2d')!;
      ctx.font = `48px ${family}`;
      ctx.textBaseline = 'top';
      ctx.fillStyle = '#000';
      ctx.fillText('🍂', 4, 4);
      const px = ctx.getImageData(0, 0, 64, 64).data;
      let coloured = 0;
      for (let i = 0; i < px.length; i += 4) {
        const [r, g, b, a] = [px[i]!, px[i + 1]!, px[i + 2]!, px[i + 3]!];
        if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
      }
      return { family, loaded: faces.map((f) => `${f.family}:${f.status}`), coloured };
    });
    expect(drawn.family).toContain('Kadr Emoji');
    expect(
      drawn.loaded.some((f) => /Kadr Emoji"?:loaded$/.test(f)),
      drawn.loaded.join(),
    ).toBe(true);
    expect(drawn.coloured).toBeGreaterThan(100);
    // The emoji face takes only emoji: the title's letters keep the text font's widths.
    const widths = await title.evaluate((el) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      const family = getComputedStyle(el).fontFamily;
      const measure = (f: string) => ((ctx.font = `16px ${f}`), ctx.measureText('Осінь у лісі 1234 #12').width);
      return [measure(family), measure(family.replace(/,\s*"?Kadr Emoji"?/, ''))];
    });
    expect(widths[0]).toBe(widths[1]);
  });
});
