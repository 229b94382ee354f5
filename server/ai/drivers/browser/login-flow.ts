import type { Page } from 'playwright-core';
import { AiDriverError, type SessionCtx } from '../chat-driver';
import { isVisible, markErrorsSeen, waitForState, type PageState } from './page-state';
import { siteUrl, type SiteAdapter } from './sites';

/** Where a login (or a code) ended: logged in, waiting for a code, or a failure of one kind. */
export type LoginStep = { kind: 'ready' } | { kind: 'code_required' } | { kind: 'failed'; error: AiDriverError };

/** The states a submitted form can end in (anything but the form itself and a page still loading). */
const SETTLED: PageState[] = ['ready', 'code', 'code_error', 'challenge', 'login_error'];

export function stepFor(state: PageState, site: SiteAdapter): LoginStep {
  switch (state) {
    case 'ready':
      return { kind: 'ready' };
    case 'code':
      return { kind: 'code_required' };
    case 'challenge':
      return {
        kind: 'failed',
        error: new AiDriverError(
          'challenge',
          `${site.baseUrl} shows a bot challenge ("Just a moment…"); the driver does not try to get past it. ` +
            'Log in from a normal browser through the same proxy, or use the api driver.',
        ),
      };
    case 'login_error':
      return { kind: 'failed', error: new AiDriverError('credentials', 'The site refused the email or password') };
    case 'code_error':
      return { kind: 'failed', error: new AiDriverError('credentials', 'The site refused the verification code') };
    default:
      return {
        kind: 'failed',
        error: new AiDriverError(
          'unavailable',
          `The ${site.provider} login page did not answer as expected (${state})`,
        ),
      };
  }
}

async function goto(page: Page, url: string, timeoutMs: number) {
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (err) {
    throw new AiDriverError('network', `The ${new URL(url).host} page could not be opened`, String(err).slice(0, 300));
  }
}

/**
 * Logs in on a fresh context's page: the chat page first (a stored login state lands straight on the composer),
 * else the login form: email, then password (on the same form or the step after it), then whatever the site
 * answers: the composer, the code page, a challenge or an error.
 */
export async function logIn(page: Page, site: SiteAdapter, s: SessionCtx, timeoutMs: number): Promise<LoginStep> {
  const sel = site.selectors;
  await goto(page, siteUrl(site, 'chatPath'), timeoutMs);
  let state = await waitForState(page, site, [...SETTLED, 'login_form'], timeoutMs, s.signal);
  if (state === 'ready' || state === 'challenge') return stepFor(state, site);
  if (state !== 'login_form') {
    await goto(page, siteUrl(site, 'loginPath'), timeoutMs);
    state = await waitForState(page, site, [...SETTLED, 'login_form'], timeoutMs, s.signal);
    if (state !== 'login_form') return stepFor(state, site);
  }
  await page.locator(sel.email).first().fill(s.email, { timeout: timeoutMs });
  if (!(await isVisible(page, sel.password))) {
    await page.locator(sel.submit).first().click({ timeout: timeoutMs });
    await page
      .locator(sel.password)
      .first()
      .waitFor({ state: 'visible', timeout: timeoutMs })
      .catch(() => {});
    if (!(await isVisible(page, sel.password))) {
      return stepFor(await waitForState(page, site, SETTLED, 1000, s.signal), site);
    }
  }
  await page.locator(sel.password).first().fill(s.password, { timeout: timeoutMs });
  await page.locator(sel.submit).first().click({ timeout: timeoutMs });
  return stepFor(await waitForState(page, site, SETTLED, timeoutMs, s.signal), site);
}

/** Types the code into the waiting code page and reads the answer. */
export async function enterCode(page: Page, site: SiteAdapter, code: string, s: SessionCtx, timeoutMs: number) {
  const sel = site.selectors;
  await markErrorsSeen(page, site);
  await page.locator(sel.code).first().fill(code, { timeout: timeoutMs });
  await page.locator(sel.codeSubmit).first().click({ timeout: timeoutMs });
  const settled = SETTLED.filter((st) => st !== 'code');
  return stepFor(await waitForState(page, site, settled, timeoutMs, s.signal), site);
}
