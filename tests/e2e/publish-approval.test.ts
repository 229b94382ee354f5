import { mkdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { seedFinishedRequest } from '../helpers/finished-request';
import { launchBrowser, signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { openConsent } from '../platforms/helpers';
import { makePublishClip } from '../api/publish.fixtures';

/**
 * Approval before posting in Chromium (issue 23 item 3), on both databases against the YouTube simulator: the admin
 * ticks "publications need approval" on a user's form; that user's publication stops awaiting approval (nothing
 * reaches the simulator); the admin's bell says so and opens the approvals screen, where "Схвалити" sends it, and
 * it goes out. Workers are off in the test server: the test drives the publish jobs itself.
 */
const panelDir = process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {};

describeOnEachDb('approval before posting in the browser', (kind) => {
  let srv: TestServer;
  let browser: Browser;
  let sims: Simulators;
  let proxy: LocalProxy;
  let clip: Awaited<ReturnType<typeof makePublishClip>>;
  let user: SignedInApi;
  let userId = 0;
  let accountId = 0;

  /** Runs the publish steps due, the worker's later looks (its status polls) brought to now. */
  const drain = async () => {
    await srv.tdb.db
      .updateTable('jobs')
      .set({ runAt: Date.now() })
      .where('name', '=', 'publication.publish')
      .where('status', '=', 'queued')
      .execute();
    await srv.app.root
      .createJobRunner({ catalogue: srv.app.root.jobs.catalogue.filter((j) => j.name.startsWith('publication.')) })
      .drain();
  };
  const states = async (videoId: number) =>
    (await srv.tdb.db.selectFrom('videoPublishes').select('state').where('videoId', '=', videoId).execute()).map(
      (r) => r.state,
    );

  beforeAll(async () => {
    sims = await startSimulators();
    sims.google.processingMs = 0;
    proxy = await startLocalProxy();
    clip = await makePublishClip({ durationSec: 2 });
    srv = await startTestServer({ ...sims.env, ALLOW_PRIVATE_PROXIES: 'true' }, panelDir, kind);
    browser = await launchBrowser();
    const admin = await signedInApi(srv);
    const created = await admin('POST', '/api/users', { login: 'olena', password: 'olena-pass', role: 'user' });
    userId = created.id as number;
    user = await signedInApi(srv, 'olena', 'olena-pass');
    // Olena's profile, connected to the YouTube simulator the way a person does it (consent, callback).
    const account = await user('POST', '/api/accounts', {
      proxy: proxy.url,
      inYouTube: true,
      YouTubeAuthClientId: 'yt.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 's',
    });
    accountId = account.id as number;
    const link = await user('POST', `/api/accounts/connect-youtube/${accountId}`);
    const consent = await openConsent(link.url as string);
    const cb = await fetch(`${srv.url}${consent.location.pathname}${consent.location.search}`, { redirect: 'manual' });
    expect(cb.headers.get('location')).toContain('connected=');
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await sims?.close();
    await proxy?.close();
    await clip?.cleanup();
  });

  it('the admin sets the flag, the post awaits, the bell opens the list, "Схвалити" sends it out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');

    // The user form: "Публікації потребують схвалення".
    await page.goto(`${srv.url}/users/${userId}`);
    const flag = page.getByLabel('Публікації потребують схвалення');
    await flag.waitFor();
    expect(await flag.isChecked()).toBe(false);
    await flag.check();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await expect
      .poll(async () => {
        const u = await srv.tdb.db
          .selectFrom('users')
          .select('needsApproval')
          .where('id', '=', userId)
          .executeTakeFirst();
        return Number(u?.needsApproval);
      })
      .toBe(1);

    // Olena publishes a finished video now.
    const req = await seedFinishedRequest(srv.tdb.db, userId, 1);
    const path = join(srv.config.mediaDir, ...req.storageKeys[0]!.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    await writeFile(path, readFileSync(clip.file));
    const at = new Date().toISOString();
    const v = { title: 'Осінній шортс', description: 'Опис', tags: ['осінь'] };
    await user('POST', `/api/upload-video/${req.idUpload}`, {
      ...v,
      accounts: [accountId],
      video: [{ id: req.videos[0], ...v, account: accountId, date: at }],
      date: at,
      inYouTube: true,
    });
    const videoId = req.videos[0]!;
    await drain();
    expect(await states(videoId)).toEqual(['awaiting_approval']);
    expect(sims.google.posts()).toBe(0);

    // The bell: "чекає на схвалення", which opens the approvals screen.
    await page.goto(`${srv.url}/`);
    await expect.poll(() => page.locator('[data-unread-count]').getAttribute('data-unread-count')).toBe('1');
    await page.getByRole('button', { name: /Сповіщення/ }).click();
    const item = page.getByRole('dialog', { name: 'Сповіщення' }).locator('[data-notification="approval_needed"]');
    await item.getByText('чекає на схвалення').waitFor();
    await item.click();
    await page.waitForURL(/\/approvals$/);
    // The menu has the screen too.
    await page.locator('[data-menu-item="approvals"]').waitFor();

    const row = page.locator('[data-approval]').filter({ hasText: 'Осінній шортс' });
    await row.getByText('olena').waitFor();
    await row.getByRole('button', { name: 'Схвалити' }).click();
    await page.locator('[role="status"]').filter({ hasText: 'Допис схвалено' }).first().waitFor();
    await page.getByText('Немає дописів, що чекають на схвалення').waitFor();

    // It goes out: the worker takes it now (its date has passed).
    await expect
      .poll(
        async () => {
          await drain();
          return (await states(videoId))[0];
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe('published');
    expect(sims.google.posts()).toBe(1);
    await context.close();
  });
});
