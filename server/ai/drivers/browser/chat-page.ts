import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import type { ZodType } from 'zod';
import { AiDriverError } from '../chat-driver';
import { isVisible, readPageState } from './page-state';
import { sanitizeChatHtml } from '../html';
import type { SiteAdapter } from './sites';

const POLL_MS = 250;
/** Polls in a row with the same answer and no stop button before the answer counts as finished. */
const STABLE_POLLS = 3;

/**
 * Types `text` into the composer, presses send, waits for a new assistant turn, then for the answer to stop
 * streaming (the stop button gone, or the send button back, and the HTML unchanged for a few polls), all within
 * `timeoutMs`, and reads that turn: its text and its sanitised HTML.
 */
export async function sendOnPage(
  page: Page,
  site: SiteAdapter,
  text: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ text: string; html: string }> {
  const sel = site.selectors;
  const turns = page.locator(sel.assistantTurn);
  const before = await turns.count();
  const deadline = Date.now() + timeoutMs;
  try {
    await page.locator(sel.composer).first().fill(text, { timeout: timeoutMs });
    await page.locator(sel.send).first().click({ timeout: timeoutMs });
  } catch (err) {
    throw await pageError(page, site, 'The message could not be typed or sent', err);
  }
  const tick = async (what: string) => {
    if (signal?.aborted) throw new AiDriverError('unavailable', 'Stopped');
    if (Date.now() >= deadline)
      throw await pageError(page, site, `No ${what} within ${Math.round(timeoutMs / 1000)} s`);
    await sleep(POLL_MS, undefined, { ref: false });
  };
  while ((await turns.count()) <= before) await tick('answer');
  const last = turns.nth(before);
  let previous = '';
  for (let stable = 0; stable < STABLE_POLLS;) {
    const html = await last.innerHTML().catch(() => '');
    const streaming = sel.stop ? await isVisible(page, sel.stop) : !(await isVisible(page, sel.send));
    stable = !streaming && html.trim() && html === previous ? stable + 1 : 0;
    previous = html;
    if (stable < STABLE_POLLS) await tick('complete answer');
  }
  const answer = (await last.innerText().catch(() => '')).trim();
  return { text: answer, html: sanitizeChatHtml(previous) };
}

/** A failure on the page: a challenge that appeared mid-chat reads as one; anything else as unavailable. */
async function pageError(page: Page, site: SiteAdapter, message: string, err?: unknown): Promise<AiDriverError> {
  const state = await readPageState(page, site).catch(() => 'unknown');
  if (state === 'challenge') return new AiDriverError('challenge', `${site.baseUrl} shows a bot challenge`);
  if (state === 'login_form' || state === 'code') {
    return new AiDriverError('credentials', 'The site logged the session out; log in again');
  }
  return new AiDriverError('unavailable', message, err ? String(err).slice(0, 300) : undefined);
}

/** The first JSON object in a reply's text (replies may wrap it in prose or a code fence). */
export function parseJsonReply(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const body = fenced ?? text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new SyntaxError('no JSON object in the reply');
  return JSON.parse(body.slice(start, end + 1));
}

export const jsonPrompt = (prompt: string, name: string) =>
  `${prompt}\n\nAnswer with JSON only: one JSON object (${name}), no other text, no code fence.`;

const RETRY_PROMPT = (name: string, why: string) =>
  `Your last answer was not the JSON object asked for (${why}). Answer again with the ${name} JSON object only.`;

/** Asks for JSON through the chat, checks it with `schema`, asks once more on a bad answer. */
export async function extractOnPage<T>(
  ask: (text: string) => Promise<{ text: string }>,
  prompt: string,
  schema: ZodType<T>,
  name: string,
): Promise<T> {
  let why = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const reply = await ask(attempt === 0 ? jsonPrompt(prompt, name) : RETRY_PROMPT(name, why));
    try {
      const parsed = schema.safeParse(parseJsonReply(reply.text));
      if (parsed.success) return parsed.data;
      why = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || 'object'}: ${i.message}`)
        .join('; ');
    } catch (err) {
      why = err instanceof Error ? err.message : 'not JSON';
    }
  }
  throw new AiDriverError('bad_request', `The chat did not answer with a valid ${name} object`, why);
}
