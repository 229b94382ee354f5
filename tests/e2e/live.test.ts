import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import type { DbKind } from '../../server/db/index';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { startWorkers, type Workers } from '../../server/workers';
import type { StoredEvent } from '../../server/events/events';
import type { RequestLive } from '../../src/contract/live';

/**
 * Live updates in Chromium: a real render's progress ('N з M') reaches the open request list without a reload
 * and long before its 15-second refresh; the bell counts the 'render finished' notification, opens what it is
 * about and turns it read. Prints the latency from the worker's committed report to the DOM change (never asserted).
 */
let srv: TestServer;
let browser: Browser;
let workers: Workers;
const COUNT = 3;
const clip = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-e2e-live-'));
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=480x270:r=30:d=2', '-f', 'lavfi', '-i', 'sine=d=2'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest'],
    join(dir, 'clip.mp4'),
  ]);
  return readFileSync(join(dir, 'clip.mp4'));
})();

function serverAndBrowser(kind: DbKind) {
  beforeAll(async () => {
    // One ffmpeg at a time, so the outputs finish one by one and each step can be seen.
    srv = await startTestServer(
      {},
      { renderConcurrency: 1, ...(process.env.E2E_PANEL_DIR ? { panelDir: process.env.E2E_PANEL_DIR } : {}) },
      kind,
    );
    workers = await startWorkers(srv.app.root, { pollMs: 200 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await workers?.stop();
    await srv?.close();
  });
}

async function createRequest(url: string, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const folder = await (
    await fetch(`${url}/api/folder/photo-bg`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Live' }),
    })
  ).json();
  const form = new FormData();
  for (const [k, v] of Object.entries({ countVideo: String(COUNT), isVideo: 'false', isPhoto: 'false' }))
    form.append(k, v);
  form.append('isGenerator', 'true');
  form.append('folders[]', String(folder.id));
  form.append('file', new Blob([clip], { type: 'video/mp4' }), 'clip.mp4');
  const r = await fetch(`${url}/api/create-video/create`, { method: 'POST', headers: auth, body: form });
  expect(r.status).toBeLessThan(300);
}

describeOnEachDb('live updates in the browser', (kind) => {
  serverAndBrowser(kind);

  it('shows a render’s progress live, then the bell’s “render finished”, which opens the request and turns read', async () => {
    // When the worker's report of each state was committed and handed out (server clock; the browser runs on the
    // same machine): a follower of the event bus, beside the live streams.
    const reported = new Map<string, number>();
    const events = srv.app.root.events;
    const follower = {
      deliver: async (rows: StoredEvent[]) => {
        for (const e of rows) {
          if (!e.name.startsWith('render.')) continue;
          const p = e.payload as RequestLive;
          const key = `${p.done} з ${p.count}`;
          if (!reported.has(key)) reported.set(key, Date.now());
        }
      },
    };
    await events.follow(follower);

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    const { accessToken: token } = await (
      await fetch(`${srv.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', password: 'admin-pass' }),
      })
    ).json();
    await page.goto(`${srv.url}/video/request-create`);
    await page.getByTestId('empty-list').waitFor(); // an empty list says how to start
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    // When the list read itself from the API (its first load of the new row, or its 15 s refresh).
    const listReads: number[] = [];
    page.on('response', (r) => {
      if (/\/api\/create-video\?/.test(r.url())) listReads.push(Date.now());
    });
    // Every distinct 'N з M' the list shows, with when it appeared.
    await page.evaluate(() => {
      const seen: Array<{ text: string; at: number }> = [];
      (window as any).__outputs = seen;
      const look = () => {
        const el = document.querySelector('[data-request]');
        const m = el?.textContent?.match(/(\d+) з (\d+)/);
        if (m && seen[seen.length - 1]?.text !== m[0])
          seen.push({ text: m[0], at: performance.timeOrigin + performance.now() });
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    const opened = Date.now();
    await createRequest(srv.url, token);
    const row = page
      .locator('tr')
      .filter({ has: page.locator('[data-request]') })
      .first();
    await row.getByText('Готово').waitFor({ timeout: 60_000 });
    const finishedAfterMs = Date.now() - opened;
    const shown: Array<{ text: string; at: number }> = await page.evaluate(() => (window as any).__outputs);
    expect(navigations).toBe(0);
    // Intermediate steps were shown: with only the 15 s refresh the row would jump from queued to done.
    expect(shown.map((s) => s.text)).toEqual(expect.arrayContaining([`1 з ${COUNT}`, `2 з ${COUNT}`]));
    // …patched in place by the stream: no read of the list came between the worker's report and the change.
    const patched = shown.filter((s) => {
      const at = reported.get(s.text);
      return at !== undefined && !listReads.some((t) => t >= at && t <= s.at);
    });
    expect(patched.length).toBeGreaterThan(0);
    const latencies = shown
      .filter((s) => reported.has(s.text))
      .map((s) => `${s.text}: ${Math.round(s.at - reported.get(s.text)!)} ms`);
    console.log(
      `[live ${kind}] worker report → DOM: ${latencies.join(', ')}; request done after ${finishedAfterMs} ms`,
    );

    // The bell: one unread ('render finished'); it opens the request and turns read.
    const bell = page.getByRole('button', { name: /Сповіщення/ });
    await expect.poll(() => page.locator('[data-unread-count]').getAttribute('data-unread-count')).toBe('1');
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Сповіщення' });
    const item = panel.locator('[data-notification="render_done"]');
    await item.getByText(`готовий, відео: ${COUNT}`).waitFor();
    expect(await item.getAttribute('data-unread')).toBe('true');
    await item.click();
    await page.waitForURL(/\/video\/request\/[\w-]+$/);
    await expect.poll(() => page.locator('[data-unread-count]').getAttribute('data-unread-count')).toBe('0');
    await bell.click();
    expect(await panel.locator('[data-notification="render_done"]').getAttribute('data-unread')).toBe('false');
    // Closes on an outside click.
    await page.mouse.click(5, 400);
    await panel.waitFor({ state: 'hidden' });
    await context.close();
    events.unfollow(follower);
  });
});
