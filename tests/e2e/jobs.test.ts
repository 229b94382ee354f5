import type { Page } from 'playwright-core';
import { keepAliveJob } from '../../server/accounts/accounts.jobs';
import { renderJob } from '../../server/videos/videos.jobs';
import { publishJob, publishJobKey } from '../../server/publishing/publishing.jobs';
import { attemptsOf } from '../../server/jobs/index';
import { signInAs } from '../helpers/browser';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { addOperator, foundationPanel } from './foundation-panel';

/**
 * The Jobs screen in Chromium (issue 20 item 6), at a laptop and a phone width: an admin sees the counts and a
 * dead render with its reason, retries it (confirmation, toast, it is queued again), filters by kind; kinds show
 * as translated labels never broken mid-word, and a reason the queue knows (a worker lost on the last attempt) is
 * translated while a handler's own error text is shown as it is; a user has no menu item and /jobs is refused.
 * Workers are off, so the jobs stay where the test puts them.
 */
const REASON = 'ffmpeg exited with code 1: Invalid data found when processing input';
const WORKER = 'kadr-worker-1:4242:a1b2c3';
const toast = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text }).first();
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
/** The kind labels in the list with a word split across two lines (a word whose text spans two line boxes). */
const brokenLabels = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-kind-label]')].flatMap((el) => {
      const text = el.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      let at = 0;
      const broken: string[] = [];
      for (const word of (text.textContent ?? '').split(' ')) {
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + word.length);
        if (range.getClientRects().length > 1) broken.push(word);
        at += word.length + 1;
      }
      return broken;
    }),
  );

describeOnEachDb('the Jobs screen', (kind) => {
  const panel = foundationPanel({
    kind,
    setUp: async (server) => {
      await addOperator(server);
      const q = server.app.root.queue;
      // One dead render per width, so each run retries its own.
      for (const requestId of [1440, 390]) {
        await q.enqueue(renderJob, { requestId }, { key: `video.render:${requestId}` });
        const job = (await q.claim('worker-e2e', [renderJob.name], 60_000))!;
        await q.fail(job, REASON, () => 0, true);
      }
      await q.enqueue(keepAliveJob, {}, { key: 'accounts.keep-alive:e2e' });
      // A post's step held by a worker, marked with the post's state and the bytes it has sent.
      await q.enqueue(
        publishJob,
        { publishId: 77, step: 3 },
        { key: publishJobKey(77, 3), progress: `uploading|${Date.now()}|${12 * 1024 ** 2}` },
      );
      await q.claim(WORKER, [publishJob.name], 3_600_000);
      // A render whose worker vanished on every attempt (a lease that has run out at once): the queue stores it
      // dead with its own reason, a message key, at the claim after the last attempt.
      await q.enqueue(renderJob, { requestId: 7 }, { key: 'video.render:lost' });
      for (let attempt = 0; attempt <= attemptsOf(renderJob.retry); attempt++)
        await q.claim('worker-gone', [renderJob.name], -1);
    },
  });

  for (const width of [1440, 390]) {
    it(`an admin sees a dead job with its reason, retries it and filters by kind (${width} px)`, async () => {
      const page = await (await panel.browser.newContext({ viewport: { width, height: 900 } })).newPage();
      try {
        if (width < 600) {
          // On a phone the menu is a closed drawer: signed in through the form, then to the URL.
          await page.goto(`${panel.server.url}/login`);
          await page.locator('input[name="login"]').fill('admin');
          await page.locator('input[name="password"]').fill('admin-pass');
          await page.locator('button[type="submit"]').click();
          await page.waitForURL((u) => !u.pathname.startsWith('/login'));
          await page.goto(`${panel.server.url}/jobs`);
        } else {
          await signInAs(page, panel.server.url, 'admin', 'admin-pass');
          await page.getByRole('navigation', { name: 'main menu' }).getByText('Черга завдань').click();
        }
        await page.waitForURL((u) => u.pathname === '/jobs');
        const summary = page.getByTestId('job-summary');
        await summary.locator('[data-kind="video.render"] [data-state]').first().waitFor();
        const key = `video.render:${width}`;
        const renderRow = page.getByRole('row').filter({ hasText: key });
        expect(await renderRow.locator('[data-state]').innerText()).toBe('Зупинено');
        await renderRow.getByText(REASON).waitFor();
        expect(await summary.locator('[data-kind="video.render"]').innerText()).toContain('Зупинено');
        // Kinds by their labels, in the reader's language, wrapped between words only.
        expect(await summary.locator('[data-kind="video.render"]').innerText()).toContain('Рендер відео');
        expect(await renderRow.locator('[data-kind-label]').innerText()).toBe('Рендер відео');
        expect(await brokenLabels(page)).toEqual([]);
        // The queue's own reason translated; a handler's error text (ffmpeg's, above) as it is.
        const lostRow = page.getByRole('row').filter({ hasText: 'video.render:lost' });
        expect(await lostRow.locator('[data-reason]').innerText()).toBe(
          'Виконавець зупинився (його оренда минула) під час останньої спроби',
        );
        expect(await fitsWidth(page)).toBe(true);
        // A running post's step: its worker, wrapped between the id's parts only, and its progress in words; the
        // lag on one line.
        const publishRow = page.getByRole('row').filter({ hasText: publishJobKey(77, 3) });
        expect(await publishRow.locator('[data-progress]').innerText()).toBe('Допис: Завантаження, надіслано 12.0 МБ');
        expect((await publishRow.locator('[data-owner]').innerText()).replace(/\u200b/g, '')).toBe(
          `Виконує: ${WORKER}`,
        );
        expect(await publishRow.locator('[data-lag]').evaluate((el) => el.getClientRects().length)).toBe(1);
        await renderRow.getByRole('button', { name: 'Повторити' }).click();
        await page.getByRole('dialog').getByText('Завдання «Рендер відео» буде виконано знову зараз.').waitFor();
        await page.getByRole('dialog').getByRole('button', { name: 'Повторити' }).click();
        await toast(page, 'Завдання поставлено на повторне виконання').waitFor();
        await expect.poll(() => renderRow.locator('[data-state]').innerText()).toBe('Помилка, буде повтор');
        await renderRow.getByText(REASON).waitFor();
        // Still retryable (it waits for a worker), never cancellable: a render's request waits on it.
        expect(await renderRow.getByRole('button', { name: 'Повторити' }).count()).toBe(1);
        expect(await renderRow.getByRole('button', { name: 'Скасувати' }).count()).toBe(0);
        const keepAlive = page.getByRole('row').filter({ hasText: 'accounts.keep-alive:e2e' });
        expect(await keepAlive.getByRole('button', { name: 'Скасувати' }).count()).toBe(1);

        // Filter by kind: only the keep-alive pass is left.
        await page.getByRole('combobox', { name: 'Вид' }).click();
        await page.getByRole('option', { name: 'Підтримка доступу профілів' }).click();
        await expect.poll(() => page.getByRole('row').filter({ hasText: 'video.render:' }).count()).toBe(0);
        await page.getByRole('row').filter({ hasText: 'accounts.keep-alive:e2e' }).waitFor();
        expect(new URL(page.url()).searchParams.get('filter')).toContain('accounts.keep-alive');
        expect(await fitsWidth(page)).toBe(true);
        expect(await panel.server.app.root.queue.get(key)).toMatchObject({
          status: 'queued',
          attempts: 0,
        });
      } finally {
        await page.context().close();
      }
    });
  }

  it('a user has no Jobs item, and /jobs is refused in the panel and by the API', async () => {
    const page = await (await panel.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    try {
      const statuses: number[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/jobs')) statuses.push(r.status());
      });
      await signInAs(page, panel.server.url, 'operator', 'user-pass');
      const menu = page.getByRole('navigation', { name: 'main menu' });
      await menu.getByText('Теги').waitFor();
      expect(await menu.getByText('Черга завдань').count()).toBe(0);
      await page.goto(`${panel.server.url}/jobs`);
      await page.getByText('Доступ заборонено').waitFor();
      expect(await page.getByText(REASON).count()).toBe(0);
      expect(statuses.filter((s) => s !== 403)).toEqual([]);
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('authStore')!).state.accessToken);
      const res = await fetch(`${panel.server.url}/api/jobs`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(403);
    } finally {
      await page.context().close();
    }
  });
});
