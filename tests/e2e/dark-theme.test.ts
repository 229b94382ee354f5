import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { getContrastRatio } from '@mui/material/styles';
import { signInAs } from '../helpers/browser';
import { seedAnalytics } from './analytics-seed';
import { foundationPanel } from './foundation-panel';

/**
 * The dark theme (issue 22, "readable in the dark"), clicked through as a person does: the app bar's toggle turns
 * the panel dark, the analytics charts' lines, bars and labels keep their contrast on the dark paper, the choice
 * survives a reload and a logout (the sign-in form wears it too), on a 390 px phone it sits in the user menu so the
 * app bar keeps its title and buttons, and with
 * nothing chosen the panel and its sign-in form follow the system's preference; the user menu's "Тема як у системі"
 * goes back to following it.
 */
const panel = foundationPanel({ setUp: async (server) => void (await seedAnalytics(server)) });

type Rgba = [number, number, number, number];
const parse = (c: string): Rgba | null => {
  const m = /rgba?\(([^)]+)\)/.exec(c);
  if (!m) return null;
  const [r, g, b, a = '1'] = m[1]!.split(',').map((x) => x.trim());
  return [Number(r), Number(g), Number(b), Number(a)];
};
/** `over` painted with its alpha on the opaque `under`. */
const paint = (under: Rgba, over: Rgba): Rgba => {
  const a = over[3];
  return [0, 1, 2].map((i) => under[i]! * (1 - a) + over[i]! * a).concat(1) as Rgba;
};
const css = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;

/**
 * The colour actually under an element: its ancestors' backgrounds from the nearest opaque one inwards, each with
 * the overlay a dark theme's elevated paper wears (a background-image gradient of translucent white).
 */
async function backdrop(el: Locator): Promise<string> {
  const layers = await el.evaluate((e) => {
    const out: { color: string; image: string }[] = [];
    for (let n: Element | null = e; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      out.push({ color: s.backgroundColor, image: s.backgroundImage });
      if (/^rgb\(/.test(s.backgroundColor)) break;
    }
    return out;
  });
  let color: Rgba = [255, 255, 255, 1];
  for (const { color: c, image } of layers.reverse()) {
    const bg = parse(c);
    if (bg) color = paint(color, bg);
    const overlay = parse(image);
    if (overlay) color = paint(color, overlay);
  }
  return css(color);
}

const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const isDark = (color: string) => getContrastRatio(color, '#000') < getContrastRatio(color, '#fff');
const toggle = (page: Page) => page.getByRole('button', { name: 'Темна тема' });

async function openDashboard(page: Page) {
  await page.goto(`${panel.server.url}/analytics`);
  await page.locator('[data-chart="by-platform"] .MuiBarElement-root').first().waitFor();
  await page.locator('[data-chart="views-by-day-30d"] .MuiLineElement-root').first().waitFor();
}

/** Each chart's series colours, its axis labels' colour and the paper under them, once they stop changing (a bar's fill moves to its new colour in a transition). */
async function chartColours(page: Page) {
  let last = '';
  for (;;) {
    const now = await readColours(page);
    if (JSON.stringify(now) === last) return now;
    last = JSON.stringify(now);
    await page.waitForTimeout(300);
  }
}

async function readColours(page: Page) {
  const day = page.locator('[data-chart="views-by-day-30d"]');
  const bars = page.locator('[data-chart="by-platform"] .MuiBarElement-root');
  return {
    paper: await backdrop(day.locator('svg').first()),
    lines: await day.locator('.MuiLineElement-root').evaluateAll((ls) => ls.map((l) => getComputedStyle(l).stroke)),
    bars: await bars.evaluateAll((bs) => bs.map((b) => getComputedStyle(b).fill)),
    ticks: await day
      .locator('.MuiChartsAxis-tickLabel')
      .evaluateAll((ts) => [...new Set(ts.map((t) => getComputedStyle(t).fill))]),
  };
}

describe('the dark theme', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(() => {
    browser = panel.browser;
  });
  afterEach(async () => {
    await context?.close();
  });

  it('the toggle turns the panel dark, the charts stay readable, the choice survives a reload and a logout', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page = await context.newPage();
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    await openDashboard(page);
    expect(isDark(await pageBackground(page))).toBe(false);
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('false');

    await toggle(page).click();
    await expect.poll(() => pageBackground(page)).toBe('rgb(18, 18, 18)');
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('true');
    const dark = await chartColours(page);
    expect(isDark(dark.paper)).toBe(true);
    expect(dark.lines).toHaveLength(3);
    expect(dark.bars).toHaveLength(3);
    // WCAG 1.4.11: graphics at least 3:1 against what is around them; the axis labels are text (4.5:1).
    for (const c of [...dark.lines, ...dark.bars]) expect(getContrastRatio(c, dark.paper)).toBeGreaterThanOrEqual(3);
    for (const c of dark.ticks) expect(getContrastRatio(c, dark.paper)).toBeGreaterThanOrEqual(4.5);
    // The dark palette is not the light one: the light theme's lines are drawn in darker shades.
    await toggle(page).click();
    await expect.poll(() => pageBackground(page).then(isDark)).toBe(false);
    const light = await chartColours(page);
    expect(light.lines).not.toEqual(dark.lines);
    for (const c of [...light.lines, ...light.bars]) expect(getContrastRatio(c, light.paper)).toBeGreaterThanOrEqual(3);
    await toggle(page).click();

    await page.reload();
    await openDashboard(page);
    expect(await pageBackground(page)).toBe('rgb(18, 18, 18)');
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('true');

    // A logout keeps the choice: the sign-in form is dark, and so is the panel after it.
    await page.locator('header button').filter({ hasText: 'admin' }).click();
    await page.getByRole('menuitem', { name: 'Вийти' }).click();
    const form = page.locator('form[aria-label="Вхід до Kadr"]');
    await form.waitFor();
    expect(isDark(await backdrop(form))).toBe(true);
    expect(isDark(await backdrop(form.locator('h1')))).toBe(true);
    await page.reload();
    await form.waitFor();
    expect(isDark(await backdrop(form.locator('h1')))).toBe(true);
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    expect(await pageBackground(page)).toBe('rgb(18, 18, 18)');
  });

  it('on a 390 px phone the switch is in the user menu, and the app bar keeps every button and the title on screen', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    await page.setViewportSize({ width: 390, height: 844 });
    await openDashboard(page);
    await expect(toggle(page).count()).resolves.toBe(0);
    await page.locator('header button').last().click(); // the user menu (an icon on a phone)
    const item = page.getByRole('menuitemcheckbox', { name: 'Темна тема' });
    await expect(item.getAttribute('aria-checked')).resolves.toBe('false');
    await item.click();
    await expect.poll(() => pageBackground(page)).toBe('rgb(18, 18, 18)');
    await expect(item.getAttribute('aria-checked')).resolves.toBe('true');
    await page.keyboard.press('Escape');
    const off = await page.locator('header button, header h1, header [id="react-admin-title"]').evaluateAll((bs) =>
      bs
        .filter((b) => b.getBoundingClientRect().width > 0)
        .map((b) => ({ name: b.getAttribute('aria-label') ?? b.textContent, r: b.getBoundingClientRect() }))
        .filter(({ r }) => r.left < 0 || r.right > window.innerWidth)
        .map(({ name }) => name),
    );
    expect(off).toEqual([]);
    await expect(page.locator('header button').count()).resolves.toBeGreaterThanOrEqual(4);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("with nothing chosen the sign-in form and the panel follow the system; a choice then wins over it, until the system's is ticked again", async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    page = await context.newPage();
    await page.goto(`${panel.server.url}/login`);
    const form = page.locator('form[aria-label="Вхід до Kadr"]');
    await form.waitFor();
    expect(isDark(await backdrop(form.locator('h1')))).toBe(true);
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    expect(await pageBackground(page)).toBe('rgb(18, 18, 18)');
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('true');
    // Light chosen on a dark system: it stays light after a reload.
    await toggle(page).click();
    await expect.poll(() => pageBackground(page).then(isDark)).toBe(false);
    await page.reload();
    await page.getByRole('navigation', { name: 'main menu' }).waitFor();
    expect(isDark(await pageBackground(page))).toBe(false);
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('false');

    // Back to the system's: the user menu's item, unticked while a theme is chosen, forgets the choice.
    const userMenu = page.locator('header button').filter({ hasText: 'admin' });
    const system = page.getByRole('menuitemcheckbox', { name: 'Тема як у системі' });
    await userMenu.click();
    await expect(system.getAttribute('aria-checked')).resolves.toBe('false');
    await system.click();
    await expect.poll(() => pageBackground(page)).toBe('rgb(18, 18, 18)');
    await expect(system.getAttribute('aria-checked')).resolves.toBe('true');
    await page.keyboard.press('Escape');
    // Following it: the system turning light turns the panel light, also after a reload.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => pageBackground(page).then(isDark)).toBe(false);
    await page.reload();
    await page.getByRole('navigation', { name: 'main menu' }).waitFor();
    expect(isDark(await pageBackground(page))).toBe(false);
    await userMenu.click();
    await expect(system.getAttribute('aria-checked')).resolves.toBe('true');
    // Unticked, the theme shown now is kept as the choice: the system turning dark leaves it light.
    await system.click();
    await expect(system.getAttribute('aria-checked')).resolves.toBe('false');
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.getByRole('navigation', { name: 'main menu' }).waitFor();
    expect(isDark(await pageBackground(page))).toBe(false);
  });
});
