import { createReadStream } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { seedFinishedRequest } from '../helpers/finished-request';
import { openConsent } from '../platforms/helpers';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { makePublishClip } from '../api/publish.fixtures';
import { adminId } from './publish-seed';

/**
 * Per-platform posts in Chromium (issue 21 item 6): the operator gives TikTok its own caption in the publish
 * form, sees the counter and the preview follow it, picks a privacy level TikTok's creator_info offers (a switch
 * the creator turned off is locked), saves, and the TikTok simulator gets exactly that post. Workers are off:
 * the test runs the publish jobs itself.
 */
const panel = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};

describeOnEachDb('per-platform posts in the browser', (kind) => {
  let sims: Simulators;
  let proxy: LocalProxy;
  let srv: TestServer;
  let api: SignedInApi;
  let browser: Browser;
  let page: Page;
  let clip: Awaited<ReturnType<typeof makePublishClip>>;
  let account: number;

  beforeAll(async () => {
    sims = await startSimulators();
    sims.tiktok.publishSettings.processingPolls = 0;
    proxy = await startLocalProxy();
    clip = await makePublishClip({ durationSec: 2 });
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
  });

  it('a caption of its own for TikTok: counter, preview, creator_info options, saved and posted', async () => {
    const req = await seedFinishedRequest(srv.tdb.db, await adminId(srv), 1);
    await srv.app.root.media.storage.put(req.storageKeys[0]!, createReadStream(clip.file));
    await page.goto(`${srv.url}/video/request/${req.idUpload}`);
    await page.getByLabel('Назва').first().fill('Кіт на даху');
    await page.getByRole('textbox', { name: 'Теги' }).first().fill('кіт ');
    await page.getByRole('combobox', { name: 'Профілі', exact: true }).click();
    await page.getByRole('option', { name: 'TikTok profile' }).click();
    await page.keyboard.press('Escape');

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
      .toBe(1);
    const post = sims.tiktok.posts()[0]!;
    expect(post.title).toBe(caption);
    expect(post.privacyLevel).toBe('MUTUAL_FOLLOW_FRIENDS');
    expect(post.postInfo).toMatchObject({ disableDuet: true, disableStitch: true, disableComment: false });
  });
});
