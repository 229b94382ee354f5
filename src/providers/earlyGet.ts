import { readAuth } from './authStore';
import { currentLocale } from './locale';

/**
 * GETs started by the page's first script (src/boot.ts) before the panel's code has loaded, so a cold page's first data request does not wait
 * for the code to load, run and render up to the list (about 0.5 s on a 2-core machine). The HTTP client takes
 * one when it asks for the same URL with the same access token, once; anything else it fetches as usual.
 */
type Early = { token: string | null; locale: string; answer: Promise<Response | undefined> };
const early = new Map<string, Early>();

/** Not taken within this time (the page went elsewhere): dropped. */
const KEEP_MS = 15_000;

/**
 * `GET url` as the HTTP client would send it (bearer token, language, cookies), without its refresh or checks: its
 * token and language, and the answer (undefined when it did not arrive).
 */
export function earlyFetch(url: string): Early {
  const token = readAuth().accessToken;
  const locale = currentLocale();
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': locale };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = fetch(url, { headers, credentials: 'include' }).catch(() => undefined);
  return { token, locale, answer };
}

/** Starts `GET url` for the HTTP client to take (takeEarlyGet). */
export function startEarlyGet(url: string): void {
  early.set(url, earlyFetch(url));
  setTimeout(() => early.delete(url), KEEP_MS);
}

/**
 * The answer of an early GET of `url`, if one was started with the token and language the client would send now
 * (then it is taken: a second call fetches afresh). Undefined when there is none, or it failed to arrive.
 */
export function takeEarlyGet(url: string): Promise<Response | undefined> | undefined {
  const e = early.get(url);
  if (!e) return undefined;
  early.delete(url);
  if (e.token !== readAuth().accessToken || e.locale !== currentLocale()) return undefined;
  return e.answer;
}
