import type { AiProvider } from '../../../../src/contract/ai';

/**
 * A chat site as data: where its pages are and which selectors find its parts, so a change of the site's markup
 * is an edit here (or a config override), never a code change. Every selector is a Playwright selector; several
 * alternatives are joined with a comma. The defaults are the shapes the real sites used when this was written
 * (../shared/notes/ai.md §3; the ChatGPT ones come from a maintained scraper, the DeepSeek ones are unverified and
 * are the first thing to check); the chat simulator (sim/ai/chat-sim.ts) serves the gpt shapes.
 */
export type SiteSelectors = {
  /** The login form's email field. */
  email: string;
  /** The password field (on the same form or on the step after the email). */
  password: string;
  /** The button that sends the login form (and the email step, on two-step forms). */
  submit: string;
  /** Something only the verification-code page has (besides `codeUrl`). */
  codePage: string;
  /** The code field and its button. */
  code: string;
  codeSubmit: string;
  /** The chat composer: seeing it (and not `loggedOut`) means the session is logged in. */
  composer: string;
  /** Something only a logged-out visitor sees beside a composer (chatgpt.com lets visitors chat); '' if none. */
  loggedOut: string;
  /** The send button, and the stop button shown while an answer streams in. */
  send: string;
  stop: string;
  /** One assistant turn's rendered answer (the last one is the reply). */
  assistantTurn: string;
  /** A bot challenge (Cloudflare "Just a moment…", Turnstile). Seeing it stops the login: no bypass, ever. */
  challenge: string;
  /** The message a wrong password (or code) shows. */
  loginError: string;
};

export type SiteAdapter = {
  provider: AiProvider;
  /** The site's origin, e.g. https://chatgpt.com (config: AI_GPT_SITE_URL / AI_DEEPSEEK_SITE_URL). */
  baseUrl: string;
  /** Paths on `baseUrl`. */
  loginPath: string;
  chatPath: string;
  /** A page whose URL matches this (regex source) is the verification-code page. */
  codeUrl: string;
  /** A page whose title matches this (regex source, case-insensitive) is a bot challenge. */
  challengeTitle: string;
  selectors: SiteSelectors;
};

const CHALLENGE =
  '#challenge-form, #challenge-running, #cf-challenge-running, .cf-turnstile, iframe[src*="challenges.cloudflare.com"]';
const CHALLENGE_TITLE = '^(Just a moment|Один момент|Attention Required)';

/** The sites as they are served; `siteAdapter` puts the configured base URL in. */
export const SITES: Record<AiProvider, Omit<SiteAdapter, 'baseUrl'> & { defaultBaseUrl: string }> = {
  gpt: {
    provider: 'gpt',
    defaultBaseUrl: 'https://chatgpt.com',
    loginPath: '/auth/login',
    chatPath: '/',
    codeUrl: '/email-verification',
    challengeTitle: CHALLENGE_TITLE,
    selectors: {
      email: 'input[name="email"], input[type="email"]',
      password: 'input[name="password"], input[type="password"]',
      submit: 'button[type="submit"]',
      codePage: 'form[action*="email-verification"]',
      code: 'input[name="code"]',
      codeSubmit: 'button[type="submit"]',
      composer: '#prompt-textarea',
      loggedOut: '[data-testid="login-button"]',
      send: 'button[data-testid="send-button"]',
      stop: 'button[data-testid="stop-button"]',
      assistantTurn: '[data-message-author-role="assistant"] .markdown',
      challenge: CHALLENGE,
      loginError: '[role="alert"]:not(#__next-route-announcer__), .error-message, [id$="-error"]',
    },
  },
  deepseek: {
    provider: 'deepseek',
    defaultBaseUrl: 'https://chat.deepseek.com',
    loginPath: '/sign_in',
    chatPath: '/',
    codeUrl: '/(email-verification|verify)',
    challengeTitle: CHALLENGE_TITLE,
    selectors: {
      email: 'input[type="text"][placeholder*="mail" i], input[name="email"], input[type="email"]',
      password: 'input[type="password"]',
      submit: 'div[role="button"].ds-sign-up-form__register-button, button[type="submit"]',
      codePage: 'form[action*="verif"]',
      code: 'input[name="code"], input[placeholder*="code" i]',
      codeSubmit: 'button[type="submit"]',
      composer: '#chat-input, textarea#chat-input, #prompt-textarea',
      loggedOut: '',
      send: 'div[role="button"][aria-disabled="false"]:has(svg), button[data-testid="send-button"]',
      stop: 'div[role="button"]:has(rect), button[data-testid="stop-button"]',
      assistantTurn: '.ds-markdown, [data-message-author-role="assistant"] .markdown',
      challenge: CHALLENGE,
      loginError: '[role="alert"], .ds-form-item__error, .error-message',
    },
  },
};

/** The adapter for `provider`, at `baseUrl` when given (config), with optional selector overrides. */
export function siteAdapter(
  provider: AiProvider,
  baseUrl?: string,
  overrides: Partial<SiteSelectors> = {},
): SiteAdapter {
  const { defaultBaseUrl, ...site } = SITES[provider];
  return {
    ...site,
    baseUrl: (baseUrl || defaultBaseUrl).replace(/\/+$/, ''),
    selectors: { ...site.selectors, ...overrides },
  };
}

export const siteUrl = (site: SiteAdapter, path: 'loginPath' | 'chatPath') => site.baseUrl + site[path];
