import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import type { SiteAdapter } from './sites';

/**
 * Where a site's page stands, read from the adapter's selectors: logged in (composer), a bot challenge, the
 * verification-code page, a login form (with or without an error message), or none of these yet (loading).
 */
export type PageState = 'ready' | 'challenge' | 'code' | 'code_error' | 'login_form' | 'login_error' | 'unknown';

const SEEN = 'data-kadr-seen';

/** Visible and, for messages, carrying text (and not marked seen). Never throws (a navigating page reads as "not there"). */
async function visible(page: Page, selector: string, needsText = false): Promise<boolean> {
  if (!selector) return false;
  try {
    const el = page
      .locator(selector)
      .and(page.locator(`:not([${SEEN}])`))
      .first();
    if (!(await el.isVisible())) return false;
    return !needsText || (await el.innerText({ timeout: 1000 })).trim().length > 0;
  } catch {
    return false;
  }
}

export async function readPageState(page: Page, site: SiteAdapter): Promise<PageState> {
  const sel = site.selectors;
  const title = await page.title().catch(() => '');
  if (new RegExp(site.challengeTitle, 'i').test(title) || (await visible(page, sel.challenge))) return 'challenge';
  if ((await visible(page, sel.composer)) && !(await visible(page, sel.loggedOut))) return 'ready';
  let path = '';
  try {
    path = new URL(page.url()).pathname;
  } catch {
    /* about:blank */
  }
  const onCode = new RegExp(site.codeUrl).test(path) || (await visible(page, sel.codePage));
  if (await visible(page, sel.loginError, true)) return onCode ? 'code_error' : 'login_error';
  if (onCode) return 'code';
  if ((await visible(page, sel.password)) || (await visible(page, sel.email))) return 'login_form';
  return 'unknown';
}

/** Polls the page until its state is one of `want` or the time is up; returns the last state read. */
export async function waitForState(
  page: Page,
  site: SiteAdapter,
  want: PageState[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<PageState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await readPageState(page, site);
    if (want.includes(state) || Date.now() >= deadline || signal?.aborted || page.isClosed()) return state;
    await sleep(200, undefined, { ref: false }).catch(() => {});
  }
}

export { visible as isVisible };

/** What this code touches of an element inside the page (the server is type-checked without the DOM's types). */
type PageElement = { setAttribute(name: string, value: string): void };

/** Marks the error messages on the page as read, so a resubmitted form is judged by the answer, not the old error. */
export async function markErrorsSeen(page: Page, site: SiteAdapter): Promise<void> {
  if (!site.selectors.loginError) return;
  await page
    .locator(site.selectors.loginError)
    .evaluateAll((els, attr) => els.forEach((e) => (e as unknown as PageElement).setAttribute(attr, '')), SEEN)
    .catch(() => {});
}
