import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signedInWindow } from '../helpers/browser';
import type { TestServer } from '../helpers/server';
import { startFoundationServer } from './foundation-panel';
import { LONG_TOKEN, seedLayoutData, type LayoutData } from './layout-data';
import { layoutScreens, waitReady, type Screen } from './layout-screens';

/**
 * Issue 18 items 3, 4, 7 and 8 in Chromium: every list, form and show screen, holding the long names, errors and
 * tag lists of real use, fits a laptop (1280, 1440) and a phone (390) without scrolling sideways, in both
 * languages. The page is no wider than the window, no table scrolls sideways inside its box, the app bar's
 * buttons (bell, user menu) and the list's create button are on screen; no field label or placeholder is cut, the
 * tags label sits above its chips, and a long error wraps. One server, one browser, one page per width.
 */
let srv: TestServer;
let browser: Browser;
let d: LayoutData;
let SCREENS: Screen[];

beforeAll(async () => {
  srv = await startFoundationServer();
  d = await seedLayoutData(srv);
  SCREENS = layoutScreens(d);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

/** What does not fit on the screen shown, each as a short sentence (none: it fits). */
const misfits = (page: Page, longError: string) =>
  page.evaluate((longError) => {
    const out: string[] = [];
    const vw = window.innerWidth;
    const name = (e: Element) =>
      `<${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} ${String(e.className).split(' ').slice(0, 2).join('.')}>`;
    // Shown on screen: not hidden, and larger than the 1 px box of text kept for screen readers only (MUI's
    // visuallyHidden: a chart's table caption), which clips on purpose.
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== 'hidden';
    };
    if (document.documentElement.scrollWidth > vw) out.push(`page is ${document.documentElement.scrollWidth} px wide`);
    // A box that scrolls sideways (a table wider than its card) is a page that does not fit, too.
    for (const e of document.querySelectorAll('body *')) {
      if (e.matches('input, textarea, .MuiTabs-scroller') || !visible(e)) continue;
      const ox = getComputedStyle(e).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && e.scrollWidth > e.clientWidth + 1)
        out.push(`${name(e)} scrolls sideways (${e.scrollWidth} in ${e.clientWidth})`);
    }
    // Nothing is clipped silently: a box that hides its overflow (a card, a table cell) holds what it shows,
    // unless it is one line cut with an ellipsis; a table row ends inside its card.
    for (const e of document.querySelectorAll('body *')) {
      if (e.matches('input, textarea, .MuiTabs-scroller, .MuiSwitch-root, .MuiSwitch-switchBase') || !visible(e))
        continue;
      const s = getComputedStyle(e);
      if ((s.overflowX === 'hidden' || s.overflowX === 'clip') && s.textOverflow !== 'ellipsis')
        if (e.scrollWidth > e.clientWidth + 1)
          out.push(`${name(e)} clips its content (${e.scrollWidth} in ${e.clientWidth})`);
    }
    // A row inside a box kept for screen readers only (a phone's stacked table keeps its head there, 1 px wide and
    // clipped) is not seen, however wide its own box.
    const readersOnly = (e: Element, upTo: Element) => {
      for (let a = e.parentElement; a && a !== upTo; a = a.parentElement) if (!visible(a)) return true;
      return false;
    };
    for (const row of document.querySelectorAll('tr')) {
      const card = row.closest('.MuiPaper-root');
      if (!card || !visible(row) || readersOnly(row, card)) continue;
      const over = row.getBoundingClientRect().right - card.getBoundingClientRect().right;
      if (over > 1) out.push(`a table row runs ${Math.round(over)} px past its card`);
    }
    // The page title: a title too long for the bar ends in an ellipsis (its text inline: an inline-block is cut
    // mid-letter), and a title 'X #id' keeps its id on screen.
    const title = document.querySelector('#react-admin-title');
    if (title && visible(title)) {
      const text = title.textContent ?? '';
      const box = title.getBoundingClientRect();
      const inline = [...title.querySelectorAll('*')].every((e) => getComputedStyle(e).display === 'inline');
      if (title.scrollWidth > title.clientWidth + 1 && !(getComputedStyle(title).textOverflow === 'ellipsis' && inline))
        out.push(`the title "${text}" is cut without an ellipsis`);
      const id = /#\d+/.exec(text);
      const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); id && n; n = walker.nextNode()) {
        const at = n.textContent!.indexOf(id[0]);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + id[0].length);
        if (range.getBoundingClientRect().right > box.right + 1) out.push(`the title "${text}" loses its id`);
      }
    }
    // On a laptop, a cell's text is not cut while its column has room for more of it.
    if (vw >= 1280)
      for (const e of document.querySelectorAll('td *')) {
        if (!visible(e) || getComputedStyle(e).textOverflow !== 'ellipsis' || e.scrollWidth <= e.clientWidth + 1)
          continue;
        const cell = e.closest('td')!;
        // The room after the text, up to the cell's padding (what stands before it, a thumbnail, is not room).
        const spare =
          cell.getBoundingClientRect().right -
          parseFloat(getComputedStyle(cell).paddingRight) -
          e.getBoundingClientRect().right;
        if (spare > 40) out.push(`"${e.textContent}" is cut with ${Math.round(spare)} px to spare`);
      }
    // The app bar: every button (menu, bell, refresh, user menu) whole on screen.
    const bar = [...document.querySelectorAll('header button')].filter(visible);
    if (bar.length < 3) out.push(`the app bar shows ${bar.length} buttons`);
    for (const b of bar) {
      const r = b.getBoundingClientRect();
      if (r.left < 0 || r.right > vw) out.push(`app bar button "${b.getAttribute('aria-label')}" is off-screen`);
    }
    // Field labels and placeholders are read whole.
    for (const l of document.querySelectorAll('label.MuiInputLabel-root')) {
      if (visible(l) && l.scrollWidth > l.clientWidth + 1) out.push(`label "${l.textContent}" is cut`);
      const root = l.parentElement?.querySelector('.MuiInputBase-root');
      const chip = root?.querySelector('.MuiChip-root');
      if (chip && visible(l) && l.getBoundingClientRect().bottom > chip.getBoundingClientRect().top + 1)
        out.push(`label "${l.textContent}" overlaps its chips`);
    }
    const ctx = document.createElement('canvas').getContext('2d')!;
    for (const i of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      if (!i.placeholder || i.value || !visible(i)) continue;
      const s = getComputedStyle(i);
      ctx.font = s.font;
      const room = i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      if (ctx.measureText(i.placeholder).width > room + 1) out.push(`placeholder "${i.placeholder}" is cut`);
    }
    // A long error wraps inside its box: neither cut nor running out of it.
    for (const e of document.querySelectorAll('body *')) {
      if (!visible(e) || ![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.includes(longError)))
        continue;
      if (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > vw)
        out.push(`the long error in ${name(e)} does not wrap`);
    }
    return out;
  }, longError);

/** Whether the element is whole inside the window. */
const onScreen = async (page: Page, selector: ReturnType<Page['locator']>) => {
  const box = await selector.boundingBox();
  const vw = page.viewportSize()!.width;
  return Boolean(box && box.x >= 0 && box.x + box.width <= vw && box.width > 0);
};

const RUNS = [
  { lang: 'uk', width: 1280 },
  { lang: 'uk', width: 390 },
  { lang: 'en', width: 1440 },
  { lang: 'en', width: 390 },
] as const;

describe('every screen fits the window', () => {
  for (const { lang, width } of RUNS)
    it(`${width} px, ${lang}`, async () => {
      const { context, page } = await signedInWindow(browser, srv.url, { width, height: 800, lang });
      const problems: string[] = [];
      for (const screen of SCREENS) {
        await page.goto(srv.url + screen.path());
        await waitReady(page, screen.ready);
        // Measured at rest: a screen whose first look does not fit is measured again once its requests are
        // over (a busy machine can show data before the layout that holds it, a phone's list before its cards).
        let found = await misfits(page, LONG_TOKEN);
        if (found.length) {
          await page.waitForLoadState('networkidle');
          found = await misfits(page, LONG_TOKEN);
        }
        for (const p of found) problems.push(`${screen.name}: ${p}`);
        if (screen.create) {
          const create = page.getByRole('link', { name: screen.create[lang], exact: true });
          if (!(await onScreen(page, create))) problems.push(`${screen.name}: the create button is off-screen`);
        }
      }
      expect(problems).toEqual([]);
      await context.close();
    });
});
