import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../tests/helpers/browser';
import { startFoundationServer } from '../tests/e2e/foundation-panel';
import { seedLayoutData } from '../tests/e2e/layout-data';
import { layoutScreens, waitReady } from '../tests/e2e/layout-screens';

/**
 * `npm run screenshots [dir]`: every screen of the panel, holding the layout tests' realistic data, in both
 * languages at a laptop and a phone width, as the admin and as an operator, written as PNGs to look at
 * (default .cache/screenshots). Builds on dist/: run `npx vite build` first. `SCREENS=<regexp>` keeps the screens whose
 * name matches (e.g. `SCREENS=^publication$`; the sign-in page is always taken). `THEMES=dark` (or `light,dark`) takes
 * them in the dark theme too (the browser's system preference, which the panel follows): `dark` in the file name.
 * `LANGS=uk` keeps one language.
 */
const out = process.argv[2] ?? '.cache/screenshots';
const picked = process.env.SCREENS ? new RegExp(process.env.SCREENS) : null;
const langs = (process.env.LANGS ?? 'uk,en').split(',');
const themes = (process.env.THEMES ?? 'light')
  .split(',')
  .filter((t): t is 'light' | 'dark' => /^(light|dark)$/.test(t));
mkdirSync(out, { recursive: true });
const srv = await startFoundationServer();
const browser = await launchBrowser();
try {
  const d = await seedLayoutData(srv);
  const screens = layoutScreens(d);
  const roles = [
    { role: 'admin', password: 'admin-pass', only: () => true },
    // An operator's own screens: the admin-only ones answer "forbidden" and are not screens of theirs.
    { role: 'operator', password: 'operator-pass', only: (name: string) => !/^user/.test(name) },
  ];
  for (const [lang, width, theme] of langs.flatMap((l) =>
    [1440, 390].flatMap((w) => themes.map((t) => [l, w, t] as const)),
  ))
    for (const { role, password, only } of roles) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
      const at = theme === 'dark' ? `${lang}-${width}-dark` : `${lang}-${width}`;
      await context.addInitScript((l) => localStorage.setItem('kadr.locale', l), lang);
      const page = await context.newPage();
      await page.goto(`${srv.url}/login`);
      await page.locator('button[type="submit"]').waitFor();
      await page.screenshot({ path: join(out, `${at}-login.png`) });
      await page.locator('input[name="login"]').fill(role);
      await page.locator('input[name="password"]').fill(password);
      await page.locator('button[type="submit"]').click();
      await page.locator('header').waitFor();
      for (const screen of screens.filter((s) => only(s.name) && (!picked || picked.test(s.name)))) {
        await page.goto(srv.url + screen.path());
        // An operator does not see the admin's records: wait for the page, not for the admin's data.
        if (role === 'admin') await waitReady(page, screen.ready);
        else {
          // Their list's code may still be evaluating when the network goes quiet: give it a moment.
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(1000);
        }
        const file = `${at}-${role}-${screen.name.replace(/[^a-z0-9]+/gi, '-')}.png`;
        await page.screenshot({ path: join(out, file), fullPage: true });
      }
      await context.close();
    }
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await srv.close();
}
