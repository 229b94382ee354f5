import { fetchUtils, HttpError } from 'ra-core';
import { readAuth, signOut, writeAuth } from './authStore';
import { currentLocale } from './locale';

export type Options = fetchUtils.Options;

let inflight: Promise<void> | null = null;
let onLoggedOut: () => void = () => {};
/** Called when a refresh fails while a token was held (the app sends the user to /login). */
export const setLoggedOutHandler = (fn: () => void) => { onLoggedOut = fn; };

async function refreshTokens(): Promise<void> {
  const { refreshToken } = readAuth();
  const res = await fetch('/api/auth/refresh', {
    method: 'POST', credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': currentLocale() },
    body: JSON.stringify({ refreshToken }),
  });
  if (!res.ok) throw new Error(`refresh failed: ${res.status}`);
  const body = await res.json();
  writeAuth({ accessToken: body.accessToken, refreshToken: body.refreshToken ?? refreshToken });
}

/** One refresh for any number of concurrent 401s. */
export const refreshOnce = () => (inflight ??= refreshTokens().finally(() => { inflight = null; }));

function withAuth(o: Options = {}): Options {
  const headers = new Headers(o.headers ?? { Accept: 'application/json' });
  const { accessToken } = readAuth();
  if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
  headers.set('Accept-Language', currentLocale());
  return { ...o, headers, credentials: 'include' };
}

/**
 * fetchJson with the bearer token. On a 401 it refreshes once (shared by concurrent requests) and retries
 * the request once; when the refresh fails while a token was held, the user is logged out.
 */
export async function httpClient(url: string, o: Options = {}) {
  const heldToken = readAuth().accessToken;
  try {
    return await fetchUtils.fetchJson(url, withAuth(o));
  } catch (e) {
    if (!(e instanceof HttpError) || e.status !== 401 || !readAuth().refreshToken) throw e;
    try {
      // Another request may have refreshed already while this one was in flight.
      if (readAuth().accessToken === heldToken) await refreshOnce();
    } catch {
      signOut();
      onLoggedOut();
      throw e;
    }
    return fetchUtils.fetchJson(url, withAuth(o));
  }
}

/** The message a person should see for a failed call (SPEC §8): the response message, else the error's own. */
export function errorMessages(e: unknown, fallback: string): string[] {
  const body = (e as HttpError)?.body;
  const m = body?.message ?? (e as Error)?.message;
  if (Array.isArray(m)) return m.map(String);
  return [m ? String(m) : fallback];
}
