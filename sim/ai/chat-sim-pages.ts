/**
 * The chat simulator's pages (./chat-sim.ts): the shapes the real chat sites serve and the gpt site adapter
 * looks for (server/ai/drivers/browser/sites.ts): a login form, the email-verification code form, a
 * "Just a moment…" challenge, and the chat page with `#prompt-textarea`, `button[data-testid="send-button"]`
 * (hidden while an answer streams in, when `button[data-testid="stop-button"]` shows) and
 * `[data-message-author-role="assistant"] .markdown` turns.
 */
export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  `<style>body{font:16px system-ui;margin:2rem;max-width:48rem}[hidden]{display:none!important}` +
  `.error-message{color:#b00}#prompt-textarea{border:1px solid #888;min-height:3rem;padding:.5rem}` +
  `[data-message-author-role]{margin:.5rem 0;padding:.5rem;border-radius:6px}` +
  `[data-message-author-role=user]{background:#eef}[data-message-author-role=assistant]{background:#f4f4f4}` +
  `</style></head><body>${body}</body></html>`;

const error = (message?: string) => (message ? `<div role="alert" class="error-message">${esc(message)}</div>` : '');

/** Email and password on one form, or (two-step) email first, then the password with the email carried along. */
export function loginPage(opts: { error?: string; email?: string; step?: 'email' | 'password' | 'both' } = {}) {
  const step = opts.step ?? 'both';
  const email =
    step === 'password'
      ? `<input type="hidden" name="email" value="${esc(opts.email ?? '')}"><p>${esc(opts.email ?? '')}</p>`
      : `<label>Email address <input name="email" type="email" autocomplete="username" value="${esc(opts.email ?? '')}"></label>`;
  const password =
    step === 'email'
      ? ''
      : '<label>Password <input name="password" type="password" autocomplete="current-password"></label>';
  return page(
    'Log in - ChatSim',
    `<h1>Welcome back</h1>${error(opts.error)}<form method="post" action="/auth/login">${email}${password}` +
      `<button type="submit">Continue</button></form>`,
  );
}

export function codePage(opts: { email: string; error?: string }) {
  return page(
    'Check your inbox - ChatSim',
    `<h1>Check your inbox</h1><p>Enter the verification code we just sent to ${esc(opts.email)}</p>${error(opts.error)}` +
      `<form method="post" action="/auth/email-verification"><label>Code <input name="code" inputmode="numeric"></label>` +
      `<button type="submit">Continue</button></form>`,
  );
}

export function challengePage() {
  return page(
    'Just a moment...',
    `<h1>chatsim.local</h1><h2>Verify you are human by completing the action below.</h2>` +
      `<div id="challenge-running"><div class="cf-turnstile" data-sitekey="0x4AAAAAAA" style="width:300px;height:65px;border:1px solid #ccc">` +
      `<label><input type="checkbox"> Verify you are human</label></div></div>`,
  );
}

export type SimTurn = { role: 'user' | 'assistant'; html: string };

const turnHtml = (t: SimTurn) =>
  t.role === 'user'
    ? `<div data-message-author-role="user"><div class="whitespace-pre-wrap">${t.html}</div></div>`
    : `<div data-message-author-role="assistant"><div class="markdown prose">${t.html}</div></div>`;

/** Streams the answer in: the send button hides, the stop button shows, the turn's HTML grows chunk by chunk. */
const CHAT_SCRIPT = `
const thread = document.getElementById('thread');
const box = document.getElementById('prompt-textarea');
const send = document.querySelector('[data-testid="send-button"]');
const stop = document.querySelector('[data-testid="stop-button"]');
send.addEventListener('click', async () => {
  const text = box.innerText.trim();
  if (!text) return;
  box.textContent = '';
  const user = document.createElement('div');
  user.setAttribute('data-message-author-role', 'user');
  user.innerHTML = '<div class="whitespace-pre-wrap"></div>';
  user.firstChild.textContent = text;
  const bot = document.createElement('div');
  bot.setAttribute('data-message-author-role', 'assistant');
  bot.innerHTML = '<div class="markdown prose result-streaming"></div>';
  thread.append(user, bot);
  send.hidden = true; stop.hidden = false;
  const md = bot.firstChild;
  try {
    const res = await fetch('/backend-api/conversation', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let acc = '';
    for (;;) { const { done, value } = await reader.read(); if (done) break; acc += dec.decode(value, { stream: true }); md.innerHTML = acc; }
  } finally { md.classList.remove('result-streaming'); send.hidden = false; stop.hidden = true; }
});`;

export function chatPage(turns: SimTurn[]) {
  return page(
    'ChatSim',
    `<main><div id="thread">${turns.map(turnHtml).join('')}</div>` +
      `<div id="composer"><div id="prompt-textarea" contenteditable="true" role="textbox" aria-label="Message ChatSim"></div>` +
      `<button type="button" data-testid="send-button" aria-label="Send prompt">Send</button>` +
      `<button type="button" data-testid="stop-button" aria-label="Stop streaming" hidden>Stop</button></div></main>` +
      `<script>${CHAT_SCRIPT}</script>`,
  );
}
