import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { Browser, Page, Response } from 'playwright-core';
import { launchBrowser, signInAs } from '../tests/helpers/browser';
import { startFoundationServer } from '../tests/e2e/foundation-panel';

type Loaded = { url: string; raw: number; gzip: number };

/** Every JavaScript response a page receives while `go` runs and until the network is idle. */
async function jsLoadedBy(page: Page, go: () => Promise<unknown>): Promise<Loaded[]> {
  const seen = new Map<string, Promise<Loaded | null>>();
  const onResponse = (r: Response) => {
    const type = r.headers()['content-type'] ?? '';
    if (!/javascript/.test(type) && !new URL(r.url()).pathname.endsWith('.js')) return;
    seen.set(
      r.url(),
      r.body().then(
        (b) => ({ url: new URL(r.url()).pathname, raw: b.length, gzip: gzipSync(b).length }), // default level, as servers use
        () => null,
      ),
    );
  };
  page.on('response', onResponse);
  await go();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return (await Promise.all(seen.values())).filter((x): x is Loaded => !!x);
}

const kb = (n: number) => (n / 1024).toFixed(1).padStart(6);

function report(name: string, files: Loaded[], target: number) {
  const gzip = files.reduce((a, f) => a + f.gzip, 0);
  const raw = files.reduce((a, f) => a + f.raw, 0);
  const verdict = gzip <= target * 1024 ? 'ok' : 'OVER';
  console.log(
    `bundle    ${name.padEnd(22)} ${kb(gzip)} KB gzip (${kb(raw)} KB raw) in ${files.length} files — target ≤ ${target} KB: ${verdict}`,
  );
  for (const f of files.sort((a, b) => b.gzip - a.gzip)) console.log(`bundle      ${kb(f.gzip)} KB  ${f.url}`);
}

/**
 * Gzip bytes of the JavaScript a browser actually loads from the real server: /login signed out, and
 * /users signed in as admin (a fresh browser context holding only the saved session, so nothing comes
 * from a cache). Builds the panel first when dist/ is missing.
 */
export async function bundleBench(): Promise<void> {
  if (!existsSync('dist/index.html')) execSync('npx vite build', { stdio: 'inherit' });
  const server = await startFoundationServer();
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const anon = await browser.newContext();
    const loginPage = await anon.newPage();
    const login = await jsLoadedBy(loginPage, async () => {
      await loginPage.goto(`${server.url}/login`);
      await loginPage.getByRole('button', { name: 'Увійти' }).waitFor();
    });

    const signing = await browser.newContext();
    await signInAs(await signing.newPage(), server.url, 'admin', 'admin-pass');
    const session = await signing.storageState();
    await signing.close();
    const usersPage = await (await browser.newContext({ storageState: session })).newPage();
    const users = await jsLoadedBy(usersPage, async () => {
      await usersPage.goto(`${server.url}/users`);
      await usersPage.getByRole('cell', { name: 'admin' }).first().waitFor();
    });

    report('/login (signed out)', login, 250);
    report('/users (signed in)', users, 420);
  } finally {
    await browser?.close();
    await server.close();
  }
}
