import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { renderedRequest, youtubeProfile } from './publish-seed';
import { setPlatformState } from '../helpers/connected-tokens';

/**
 * Publishing in Chromium, the way an operator clicks: the publish form of a finished request (seeded straight in
 * the database with real rendered files, so no render runs), the YouTube list, the publication detail (edit,
 * 'Оновлено дані') and publishing a failed video again. Workers are off: the API writes the publish rows and jobs;
 * what a worker would do later is seeded as state.
 */
/** A day 30 days ahead (within the default scheduling horizon), as typed (DD.MM.YYYY) and as ISO (YYYY-MM-DD). */
const soon = (() => {
  const iso = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const [y, m, d] = iso.split('-');
  return { iso, typed: `${d}.${m}.${y}` };
})();

const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();
/** A video of the form or the detail, named by its output number and its id ('Вихід 2 · ID відео 40'). */
const videoCard = (page: Page, n: number) =>
  page.getByRole('group', { name: new RegExp(`^Вихід ${n} · ID відео \\d+$`) });

describeOnEachDb('publishing in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: SignedInApi;
  const acc: Record<string, number> = {};
  const profile = (comments: string) => youtubeProfile(srv, api, comments);
  const finishedRequest = (count: number) => renderedRequest(srv, count);

  beforeAll(async () => {
    srv = await startTestServer({}, panel, kind);
    api = await signedInApi(srv);
    acc.alpha = await profile('Alpha profile');
    acc.beta = await profile('Beta profile');
    acc.gamma = await profile('Gamma profile');
    // YouTube and TikTok connected.
    acc.delta = await profile('Delta profile');
    await setPlatformState(srv.tdb.db, acc.delta, 'tiktok', {
      tokensSealed: srv.app.root.sealer.seal('{"accessToken":"a"}'),
      active: true,
    });
    await api('POST', '/api/accounts-group', { name: 'Кулінарія', accounts: [acc.beta, acc.gamma] });
    await api('POST', '/api/tags', { name: 'Осінь', tags: ['осінь', 'ліс'] });
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

  it('publish form: §5 messages, shared fields and quick-picks fill the videos, position assignment, Save', async () => {
    const req = await finishedRequest(3);
    await page.goto(`${srv.url}/video/request-create`);
    await page.locator(`[data-request="${req.idUpload}"]`).waitFor();
    const requestRow = page.locator('tr').filter({ has: page.locator(`[data-request="${req.idUpload}"]`) });
    // A finished request's videos can be watched from the list.
    await requestRow.getByRole('button', { name: 'Переглянути відео' }).click();
    const dialog = page.getByRole('dialog', { name: `Відео запиту #${req.id}` });
    await dialog.getByLabel(`Програвач: Вихід 3 · ID відео ${req.videos[2]}`).waitFor();
    await dialog.getByRole('button', { name: 'Закрити' }).click();
    await dialog.waitFor({ state: 'detached' });
    await requestRow.getByRole('link', { name: 'Опублікувати' }).click();
    await page.waitForURL(new RegExp(`/video/request/${req.idUpload}$`));
    await videoCard(page, 3).waitFor();
    // Each video plays from its signed link (Range) and can be downloaded.
    const player = page.getByLabel(`Програвач: Вихід 1 · ID відео ${req.videos[0]}`);
    await page.waitForFunction((el) => (el as HTMLVideoElement).readyState >= 1, await player.elementHandle());
    expect(await videoCard(page, 1).getByRole('link', { name: 'Завантажити' }).getAttribute('download')).toBe(
      `Вихід 1 · ID відео ${req.videos[0]}.mp4`,
    );

    // SPEC §5: title required, at least one tag, at least one profile.
    await page.getByRole('button', { name: 'Зберегти' }).click();
    const shared = page.locator('form > div > div').first();
    await shared.getByText("Назва обов'язкова").first().waitFor();
    await shared.getByText('Мінімум один тег').first().waitFor();
    await shared.getByText('Мінімум один профіль').first().waitFor();

    // The shared title and tags go into each video; a tag set adds its tags.
    await page.getByLabel('Назва').first().fill('Осінній ліс');
    await page.getByRole('textbox', { name: 'Теги' }).first().fill('природа ');
    await page.getByLabel('Додати теги з набору').first().click();
    await page.getByRole('option', { name: 'Осінь' }).click();
    for (const n of [1, 2, 3]) {
      expect(await videoCard(page, n).getByLabel('Назва').inputValue()).toBe('Осінній ліс');
      expect(
        await videoCard(page, n).getByRole('list', { name: 'Теги' }).getByRole('listitem').allInnerTexts(),
      ).toEqual(['природа', 'осінь', 'ліс']);
    }
    // A video given its own title keeps it when the shared one changes.
    await videoCard(page, 3).getByLabel('Назва').fill('Третє відео');
    await page.getByLabel('Назва').first().fill('Осінь у лісі');
    expect(await videoCard(page, 1).getByLabel('Назва').inputValue()).toBe('Осінь у лісі');
    expect(await videoCard(page, 3).getByLabel('Назва').inputValue()).toBe('Третє відео');

    // The group quick-pick selects its profiles; each video gets the profile at the same position.
    await page.getByLabel('Вибрати профілі групи').click();
    await page.getByRole('option', { name: 'Кулінарія' }).click();
    const profileOf = (n: number) => videoCard(page, n).getByRole('combobox', { name: 'Профіль' }).inputValue();
    await expect.poll(() => profileOf(1)).toBe(`Beta profile · #${acc.beta}`); // the comment and the id (issue 18)
    expect(await profileOf(2)).toBe(`Gamma profile · #${acc.gamma}`);
    expect(await profileOf(3)).toBe('');
    // Adding a profile to the selection assigns the third video.
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: 'Alpha profile' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => profileOf(3)).toBe(`Alpha profile · #${acc.alpha}`);
    // Every chosen profile has a video: nothing to warn about.
    expect(await page.getByTestId('unused-profiles').count()).toBe(0);

    // A date outside the years 2000–2100 or beyond the scheduling horizon says so as soon as the field is left,
    // before any save, with the server's messages; a wrong date says so; the right one is taken as UTC.
    const date = videoCard(page, 2).getByLabel('Дата', { exact: true });
    await date.fill('01.01.2101, 00:00:00');
    await date.press('Tab');
    await videoCard(page, 2).getByText('Дата має бути в межах 2000–2100 років').waitFor();
    await date.fill('01.03.2031, 10:30:00');
    await date.press('Tab');
    await videoCard(page, 2).getByText('Дата надто далеко: не пізніше ніж через 365 дн. від сьогодні').waitFor();
    await date.fill('31.02.2031, 10:00:00');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await videoCard(page, 2).getByText('Невірна дата', { exact: false }).waitFor();
    await date.fill(`${soon.typed}, 10:30:00`);

    // The third video leaves the form; Save publishes the other two.
    await videoCard(page, 3)
      .getByRole('button', { name: `Прибрати: Вихід 3 · ID відео ${req.videos[2]}` })
      .click();
    await videoCard(page, 3).waitFor({ state: 'detached' });
    // Alpha is still chosen but no video goes to it: said before Save, not dropped silently.
    await expect
      .poll(() => page.getByTestId('unused-profiles').innerText())
      .toBe(`Кожне відео йде одному профілю, тож цей профіль не отримає відео: Alpha profile · #${acc.alpha}`);
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Відео надіслано на публікацію').waitFor();
    await page.waitForURL(new RegExp(`/video/youtube/${req.idUpload}$`));

    const pub = await srv.tdb.db
      .selectFrom('publications')
      .selectAll()
      .where('requestId', '=', req.id)
      .executeTakeFirstOrThrow();
    expect(pub.title).toBe('Осінь у лісі');
    const videos = await srv.tdb.db
      .selectFrom('videos')
      .select(['id', 'accountId', 'title', 'date', 'status', 'publicationId'])
      .where('requestId', '=', req.id)
      .orderBy('outputIndex')
      .execute();
    expect(videos.map((v) => [v.accountId, v.publicationId, v.status])).toEqual([
      [acc.beta, pub.id, 'publication'],
      [acc.gamma, pub.id, 'publication'],
      [null, null, 'noactive'],
    ]);
    expect(new Date(videos[1]!.date!).toISOString()).toBe(`${soon.iso}T10:30:00.000Z`);
    const rows = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select(['videoId', 'platform', 'state'])
      .where('videoId', 'in', req.videos)
      .execute();
    expect(rows.map((r) => [r.videoId, r.platform, r.state]).sort()).toEqual([
      [req.videos[0], 'youtube', 'scheduled'],
      [req.videos[1], 'youtube', 'scheduled'],
    ]);
    // The same request's Publish link now opens its publication.
    await page.goto(`${srv.url}/video/request/${req.idUpload}`);
    await page.waitForURL(new RegExp(`/video/youtube/${req.idUpload}$`));
  });

  it('YouTube list → detail: edit with "Оновлено дані"; a failed video published again; a bad link is not found', async () => {
    const req = await finishedRequest(2);
    const created = await api('POST', `/api/upload-video/${req.idUpload}`, {
      title: 'Зимові пейзажі',
      description: '',
      tags: ['зима'],
      accounts: [acc.alpha, acc.beta],
      inYouTube: true,
      date: `${soon.iso}T08:00:00.000Z`,
      video: req.videos.map((id, i) => ({
        id,
        title: `Зима ${i + 1}`,
        description: '',
        tags: ['зима'],
        account: i ? acc.beta : acc.alpha,
        date: `${soon.iso}T08:00:00.000Z`,
      })),
    });

    await page.goto(`${srv.url}/accounts/list`);
    const menu = page.getByRole('navigation', { name: 'main menu' });
    await menu.getByText('Відео', { exact: true }).first().click();
    await menu.getByRole('menuitem', { name: 'YouTube' }).click();
    await page.waitForURL(/\/video\/list$/);
    const row = page.getByRole('row').filter({ hasText: 'Зимові пейзажі' });
    await row.getByText('На публікації').waitFor();
    await row.getByRole('link', { name: 'Зимові пейзажі' }).click();
    await page.waitForURL(new RegExp(`/video/youtube/${req.idUpload}$`));

    // Edit: title required; then 'Оновлено дані'.
    const title = page.getByRole('textbox', { name: 'Назва' }).first(); // not the list's sort label while it goes
    await title.fill('');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText("Назва обов'язкова").first().waitFor();
    await title.fill('Зима в горах');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await toast(page, 'Оновлено дані').waitFor();
    expect(
      (
        await srv.tdb.db
          .selectFrom('publications')
          .select('title')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).title,
    ).toBe('Зима в горах');

    // The first video failed on YouTube (what the worker would write); the detail says why and offers Publish.
    const failed = req.videos[0]!;
    await srv.tdb.db
      .updateTable('videoPublishes')
      .where('videoId', '=', failed)
      .set({
        state: 'failed',
        error: 'kadr.publications.errors.account_not_connected {"account":7,"platform":"YouTube"}',
        errorKind: 'reconnect',
      })
      .execute();
    await srv.tdb.db
      .updateTable('videos')
      .where('id', '=', failed)
      .set({
        status: 'error',
        error: 'kadr.publications.errors.account_not_connected {"account":7,"platform":"YouTube"}',
      })
      .execute();
    await page.reload();
    const card = videoCard(page, 1);
    await card.getByText('Профіль #7 не підключено до YouTube').first().waitFor();
    await card.getByText('Перепідключіть профіль', { exact: false }).waitFor();
    expect(await videoCard(page, 2).getByRole('button', { name: 'Опублікувати' }).count()).toBe(0);
    await card.getByRole('button', { name: 'Опублікувати' }).click();
    await toast(page, 'Відео надіслано на публікацію').waitFor();
    await card.locator('[data-platform="youtube"][data-state="scheduled"]').waitFor();
    const again = await srv.tdb.db
      .selectFrom('videoPublishes')
      .select(['state'])
      .where('videoId', '=', failed)
      .executeTakeFirstOrThrow();
    expect(again.state).toBe('scheduled');

    // Once live with stats, the profile page's video list shows each count as main platform + Instagram.
    const live = req.videos[1]!;
    await srv.tdb.db
      .updateTable('videos')
      .where('id', '=', live)
      .set({
        status: 'success',
        views: 120,
        viewsInstagram: 30,
        likes: 7,
        likesInstagram: 3,
        comments: 2,
        commentsInstagram: 1,
        urlYouTube: 'https://www.youtube.com/watch?v=abc',
        urlTikTok: 'https://www.tiktok.com/@a/video/1',
      })
      .execute();
    await page.goto(`${srv.url}/accounts/${acc.beta}`);
    const liveRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(live), exact: true }) });
    await liveRow.getByRole('cell', { name: '150', exact: true }).waitFor();
    await liveRow.getByRole('cell', { name: '10', exact: true }).waitFor();
    await liveRow.getByRole('cell', { name: '3', exact: true }).waitFor();
    await liveRow.getByRole('link', { name: 'TikTok' }).waitFor();

    // Every video out: no video is left to choose platforms for, so the publication page has no such table (it
    // showed a header and an "all profiles" row with nothing under it).
    await page.goto(`${srv.url}/video/youtube/${req.idUpload}`);
    await page.getByTestId('profile-platforms').waitFor();
    await srv.tdb.db
      .updateTable('videoPublishes')
      .where('videoId', 'in', req.videos)
      .set({ state: 'published' })
      .execute();
    await page.reload();
    await videoCard(page, 2).waitFor();
    expect(await page.getByTestId('profile-platforms').count()).toBe(0);

    // A link to a publication that is not there: the not-found screen, its way back to the list.
    await page.goto(`${srv.url}/video/youtube/no-such-upload`);
    const missing = page.getByTestId('record-not-found');
    await missing.getByRole('heading', { name: 'Не знайдено' }).waitFor();
    await missing.getByRole('link', { name: 'До списку' }).click();
    await page.waitForURL(/\/video\/list$/);
  });
  for (const width of [1440, 390])
    it(`platforms per profile with what will be skipped, no 404 on the first open, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const notFound: string[] = [];
      const on404 = (r: { status(): number; url(): string }) => {
        if (r.status() === 404 && r.url().includes('/api/')) notFound.push(r.url());
      };
      page.on('response', on404);
      try {
        const req = await finishedRequest(2);
        await page.goto(`${srv.url}/video/request/${req.idUpload}`);
        // Each video named by its output number and its id, said as such.
        await videoCard(page, 2).getByText(`Вихід 2 · ID відео ${req.videos[1]}`, { exact: true }).waitFor();
        await videoCard(page, 1).getByText(`Вихід 1 · ID відео ${req.videos[0]}`, { exact: true }).waitFor();
        await page.getByLabel('Назва').first().fill('Per profile');
        await page.getByRole('textbox', { name: 'Теги' }).first().fill('ліс ');
        // The profiles (each video gets the one at its position); the platforms table gets a row per profile,
        // starting from what it has connected.
        const profiles = page.getByRole('combobox', { name: 'Профілі', exact: true });
        for (const name of ['Alpha profile', 'Delta profile']) {
          await profiles.click();
          await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
        }
        await page.keyboard.press('Escape');
        const box = (platform: string, id: number, name: string) =>
          page.getByRole('checkbox', { name: `${platform} для ${name} · #${id}` });
        await expect.poll(() => box('TikTok', acc.delta!, 'Delta profile').isChecked()).toBe(true);
        expect(await box('YouTube', acc.delta!, 'Delta profile').isChecked()).toBe(true);
        expect(await box('YouTube', acc.alpha!, 'Alpha profile').isChecked()).toBe(true);
        expect(await box('TikTok', acc.alpha!, 'Alpha profile').isChecked()).toBe(false);
        expect(await page.getByTestId('skipped-list').count()).toBe(0);
        const table = page.getByTestId('profile-platforms');
        await table.locator(`[data-profile="${acc.alpha}"]`).getByText('не підключено').first().waitFor();

        // Choosing a platform a profile lacks does not block: the form says what will be skipped and why.
        await box('TikTok', acc.alpha!, 'Alpha profile').check();
        const skipped = page.getByTestId('skipped-list');
        await skipped.getByText('Буде пропущено (1)').waitFor();
        await skipped
          .getByText(
            `Вихід 1 · ID відео ${req.videos[0]} → профіль Alpha profile · #${acc.alpha}, TikTok: ` +
              'профіль не підключено до TikTok',
          )
          .waitFor();
        // Delta goes to TikTok only; "all profiles" shows YouTube as partly chosen.
        await box('YouTube', acc.delta!, 'Delta profile').uncheck();
        expect(
          await page.getByRole('checkbox', { name: 'YouTube для Усі профілі' }).getAttribute('data-indeterminate'),
        ).toBe('true');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

        await page.getByRole('button', { name: 'Зберегти' }).click();
        await toast(page, 'Відео надіслано на публікацію').waitFor();
        await toast(page, `Пропущено (профіль не підключено): #${acc.alpha} TikTok`).waitFor();
        await page.waitForURL(new RegExp(`/video/youtube/${req.idUpload}$`));
        const rows = await srv.tdb.db
          .selectFrom('videoPublishes')
          .select(['videoId', 'platform', 'accountId'])
          .where('videoId', 'in', req.videos)
          .orderBy('videoId')
          .execute();
        expect(rows.map((r) => [r.videoId, r.platform, r.accountId])).toEqual([
          [req.videos[0], 'youtube', acc.alpha],
          [req.videos[1], 'tiktok', acc.delta],
        ]);

        // Kadr's own pre-upload check refused the first video's file: Publish is not offered, the reason is.
        const gate = 'kadr.platform_errors.youtube_file_duration {"seconds":"900","max":60}';
        await srv.tdb.db
          .updateTable('videoPublishes')
          .where('videoId', '=', req.videos[0]!)
          .set({ state: 'failed', error: gate, errorKind: 'bad-request' })
          .execute();
        await srv.tdb.db.updateTable('videos').where('id', '=', req.videos[0]!).set({ status: 'error' }).execute();
        await page.reload();
        const card = videoCard(page, 1);
        await card.getByTestId('check-refused').waitFor();
        expect(await card.getByRole('button', { name: 'Опублікувати' }).count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(notFound).toEqual([]);
      } finally {
        page.off('response', on404);
        await page.setViewportSize({ width: 1280, height: 720 });
      }
    });

  for (const width of [1440, 390])
    it(`a failing profile is marked in the pickers and the form says so before Save (${width} px)`, async () => {
      // As the publisher leaves a profile whose proxy is dead: YouTube's error stored, the status 'error'.
      const failing = await profile(`Dead proxy ${width}`);
      await setPlatformState(srv.tdb.db, failing, 'youtube', {
        error: 'kadr.platform_errors.proxy_cannot_reach {"proxy":"203.0.113.9:8080"}',
      });
      await srv.tdb.db.updateTable('accounts').set({ status: 'error' }).where('id', '=', failing).execute();
      await page.setViewportSize({ width, height: 900 });
      try {
        const req = await finishedRequest(1);
        await page.goto(`${srv.url}/video/request/${req.idUpload}`);
        await videoCard(page, 1).waitFor();
        const profiles = page.getByRole('combobox', { name: 'Профілі', exact: true });
        await profiles.click();
        await profiles.fill(`Dead proxy ${width}`);
        const option = page.getByRole('option', { name: new RegExp(`^Dead proxy ${width}`) });
        await option.getByText('Не працює', { exact: true }).waitFor();
        // A working profile's option has no mark.
        await profiles.fill('Alpha profile');
        const alpha = page.getByRole('option', { name: /^Alpha profile/ });
        await alpha.waitFor();
        expect(await alpha.getByText('Не працює').count()).toBe(0);
        await profiles.fill(`Dead proxy ${width}`);
        await option.click();
        await page.keyboard.press('Escape');
        // Its chip is red, and the form says before Save that a post to it would most likely fail.
        await page
          .locator(`[data-failing]`)
          .filter({ hasText: `#${failing}` })
          .waitFor();
        await expect
          .poll(() => page.getByTestId('failing-profiles').innerText())
          .toBe(
            `Цей профіль зараз не працює, публікація на нього, найімовірніше, не вдасться: Dead proxy ${width} · ` +
              `#${failing}. Причину видно у списку профілів.`,
          );
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        // The video's own picker offers the same mark.
        const own = videoCard(page, 1).getByRole('combobox', { name: 'Профіль' });
        await own.click();
        await page
          .getByRole('option', { name: new RegExp(`^Dead proxy ${width}`) })
          .getByText('Не працює', { exact: true })
          .waitFor();
        await page.keyboard.press('Escape');
      } finally {
        await page.setViewportSize({ width: 1280, height: 720 });
      }
    });
});
