import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { seedStoredRequest } from '../helpers/finished-request';
import { openConsent } from '../platforms/helpers';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { makePublishClip } from '../api/publish.fixtures';
import { adminId } from './publish-seed';

/**
 * Per-platform posts in Chromium (issue 21 item 6): the operator gives TikTok its own caption in the publish
 * form, sees the counter and the preview follow it, picks a privacy level TikTok's creator_info offers (a switch
 * the creator turned off is locked), saves, and the TikTok simulator gets exactly that post. Workers are off:
 * the test runs the publish jobs itself. Then, at 1440 and 390 px, a caption for one video of two: set in that
 * video's row (which shows the texts of its profile's chosen platforms only), shown on the publication page, and posted for that video while the other gets the publication's.
 */
const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};

describeOnEachDb('per-platform posts in the browser', (kind) => {
  let sims: Simulators;
  let proxy: LocalProxy;
  let srv: TestServer;
  let api: SignedInApi;
  let browser: Browser;
  let page: Page;
  let clip: Awaited<ReturnType<typeof makePublishClip>>;
  let clip2: Awaited<ReturnType<typeof makePublishClip>>;
  let account: number;

  beforeAll(async () => {
    sims = await startSimulators();
    sims.tiktok.publishSettings.processingPolls = 0;
    proxy = await startLocalProxy();
    clip = await makePublishClip({ durationSec: 2 });
    clip2 = await makePublishClip({ durationSec: 3 });
    srv = await startTestServer({ ...sims.env, ALLOW_PRIVATE_PROXIES: 'true' }, panel, kind);
    api = await signedInApi(srv);
    ({ id: account } = await api('POST', '/api/accounts', { proxy: proxy.url, comments: 'TikTok profile' }));
    const link = await api('POST', `/api/tiktok/authorize/${account}`);
    const consent = await openConsent(link.url);
    const cb = await fetch(`${srv.url}${consent.location.pathname}${consent.location.search}`, { redirect: 'manual' });
    expect(cb.headers.get('location')).toContain('connected=');
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await sims?.close();
    await proxy?.close();
    await clip?.cleanup();
    await clip2?.cleanup();
  });

  /**
   * A finished request of one video per file (each file stored as its video), its publish form opened with the
   * shared title and a tag typed and the TikTok profile picked in the profiles list.
   */
  const openForm = async (files: string[]) => {
    const req = await seedStoredRequest(srv.tdb.db, srv.app.root.media.storage, await adminId(srv), files);
    await page.goto(`${srv.url}/video/request/${req.idUpload}`);
    await page.getByLabel('Назва').first().fill('Кіт на даху');
    await page.getByRole('textbox', { name: 'Теги' }).first().fill('кіт ');
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: 'TikTok profile' }).click();
    await page.keyboard.press('Escape');
    return req;
  };

  /** Runs the publish jobs (workers are off here) until the TikTok simulator holds `count` posts. */
  const publishUntil = async (count: number) => {
    const runner = srv.app.root.createJobRunner({
      catalogue: srv.app.root.jobs.catalogue.filter((j) => j.name.startsWith('publication.')),
    });
    await expect
      .poll(
        async () => {
          await runner.drain();
          return sims.tiktok.posts().length;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(count);
  };

  it('a caption of its own for TikTok: counter, preview, creator_info options, saved and posted', async () => {
    await openForm([clip.file]);

    const card = page.getByTestId('platform-posts');
    await card.getByRole('tab', { name: 'TikTok' }).click();
    const counter = card.locator('[data-counter="caption"]');
    // Before a caption of its own: the shared title and the tags as hashtags.
    await expect.poll(() => counter.innerText()).toBe(`${'Кіт на даху\n\n#кіт'.length} / 2200`);
    const caption = 'Свій підпис для TikTok 🐈 #кіт #дах';
    await card.getByLabel('Підпис у TikTok').fill(caption);
    await expect.poll(() => counter.innerText()).toBe(`${caption.length} / 2200`);
    expect(await counter.getAttribute('data-over')).toBe('false');
    await expect
      .poll(() => card.getByRole('figure', { name: 'Попередній перегляд у TikTok' }).innerText())
      .toContain(caption);
    // Over the limit the counter says so.
    await card.getByLabel('Підпис у TikTok').fill('я'.repeat(2201));
    await expect.poll(() => counter.getAttribute('data-over')).toBe('true');
    await card.getByLabel('Підпис у TikTok').fill(caption);

    // The privacy levels are the ones creator_info lists; stitches are off in the creator's settings: locked.
    await expect.poll(() => card.getByText(/^Можливості TikTok для \S/).count()).toBe(1);
    await expect.poll(() => card.getByLabel('Дозволити зшивання (Stitch)').isDisabled()).toBe(true);
    await card.getByRole('combobox', { name: 'Хто може дивитися' }).click();
    const levels = await page.getByRole('option').allInnerTexts();
    expect(levels).toEqual(expect.arrayContaining(['Усі', 'Друзі', 'Лише я']));
    expect(levels).not.toContain('Підписники');
    await page.getByRole('option', { name: 'Друзі' }).click();
    await card.getByLabel('Дозволити дуети').uncheck();

    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.waitForURL(/\/video\/youtube\//);

    // The publish jobs (workers are off here): TikTok gets the caption and the options.
    await publishUntil(1);
    const post = sims.tiktok.posts()[0]!;
    expect(post.title).toBe(caption);
    expect(post.privacyLevel).toBe('MUTUAL_FOLLOW_FRIENDS');
    expect(post.postInfo).toMatchObject({ disableDuet: true, disableStitch: true, disableComment: false });
  });

  for (const width of [1440, 390])
    it(`a TikTok caption for video 2 only (${width} px): saved, shown on the publication page, posted for it alone`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const fits = async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const req = await openForm([clip.file, clip2.file]);
      const [one, two] = req.videos as [number, number];
      // The second video takes the same profile (the list gave it to the first one only).
      const second = page.locator(`[data-video="${two}"]`);
      await second.getByRole('combobox', { name: 'Профіль' }).click();
      await page.getByRole('option', { name: 'TikTok profile' }).click();

      // The publication's caption for TikTok (both videos, unless one has its own).
      const shared = 'Спільний підпис #кіт';
      const card = page.getByTestId('platform-posts');
      await card.getByRole('tab', { name: 'TikTok' }).click();
      await card.getByLabel('Підпис у TikTok').fill(shared);

      // Video 2's own texts: closed until asked for; its empty caption shows what it falls back to.
      const texts = second.getByRole('button', { name: /^Тексти для платформ/ });
      expect(await texts.getAttribute('aria-expanded')).toBe('false');
      await texts.click();
      const caption = second.getByLabel('Підпис у TikTok');
      // Only the texts of the platforms chosen for its profile: TikTok, the profile's one connection.
      const youtubeTitle = second.getByLabel('Назва на YouTube');
      await caption.waitFor();
      await expect.poll(() => youtubeTitle.count()).toBe(0);
      expect(await second.getByLabel('Підпис в Instagram').count()).toBe(0);
      const platformBox = (platform: string) =>
        page
          .getByTestId('profile-platforms')
          .getByRole('checkbox', { name: new RegExp(`^${platform} для TikTok profile`) });
      await platformBox('TikTok').uncheck();
      await second.getByTestId('video-texts-none').waitFor();
      expect(await caption.count()).toBe(0);
      await platformBox('YouTube').check();
      await youtubeTitle.waitFor();
      await platformBox('YouTube').uncheck();
      await platformBox('TikTok').check();
      await caption.waitFor();
      expect(await youtubeTitle.count()).toBe(0);
      expect(await caption.getAttribute('placeholder')).toBe(shared);
      const counter = second.locator('[data-counter="caption"]').first();
      await expect.poll(() => counter.innerText()).toBe(`${shared.length} / 2200`);
      const own = 'Лише для другого відео 🐈 #дах';
      await caption.fill(own);
      await expect.poll(() => counter.innerText()).toBe(`${own.length} / 2200`);
      await caption.fill('я'.repeat(2201));
      await expect.poll(() => counter.getAttribute('data-over')).toBe('true');
      await caption.fill(own);
      await expect.poll(() => second.locator('[data-own-texts="1"]').count()).toBe(1);
      // A text written stays in sight when its platform is unticked.
      await platformBox('TikTok').uncheck();
      expect(await second.getByTestId('video-texts-none').count()).toBe(0);
      expect(await caption.inputValue()).toBe(own);
      await platformBox('TikTok').check();
      // Video 1 has none of its own.
      const first = page.locator(`[data-video="${one}"]`);
      expect(await first.locator('[data-own-texts]').count()).toBe(0);
      await fits();

      await page.getByRole('button', { name: 'Зберегти' }).click();
      await page.waitForURL(/\/video\/youtube\//);

      // The publication page shows video 2's caption on its card, and its edit column has it in the field.
      const shown = page.locator(`[data-video="${two}"] [data-own-text="tiktok.caption"]`);
      await expect.poll(() => shown.innerText()).toBe(`Підпис у TikTok: ${own}`);
      expect(await page.locator(`[data-video="${one}"] [data-testid="own-texts"]`).count()).toBe(0);
      const edit = page.getByTestId('video-texts');
      await edit.getByRole('button', { name: /^Тексти для платформ: Вихід 2/ }).click();
      await expect.poll(() => edit.getByLabel('Підпис у TikTok').inputValue()).toBe(own);
      await fits();

      // Published (workers are off: the test runs the publish jobs): video 2 with its own caption, video 1 with
      // the publication's.
      const before = sims.tiktok.posts().length;
      await publishUntil(before + 2);
      // Each video is its own file: the post is told by the file's hash.
      const made = sims.tiktok.posts().slice(before);
      const postOf = (file: string) => made.find((p) => p.sha256 === sha256Of(file));
      expect(postOf(clip2.file)?.title).toBe(own);
      expect(postOf(clip.file)?.title).toBe(shared);
    });
});
