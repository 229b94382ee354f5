import { fetchUtils, HttpError } from 'ra-core';
import { API } from '../contract/endpoints';
import { ERROR_CODES } from '../contract/error-codes';
import { readAuth, signOut, writeAuth } from './authStore';
import { contract } from './contract';
import { takeEarlyGet } from './earlyGet';
import { setMustEnrol } from './enrolment';
import { currentLocale } from './locale';
import { parseAnswer } from './parseAnswer';
import { loggedOut } from './sessionEnd';

export type Options = fetchUtils.Options;

/**
 * A refresh that did not renew the session. `refused`: the server answered 401 (the session is over: sign
 * out); otherwise it could not be asked (network error, 5xx) and the session may well be alive: stay signed in.
 */
export class RefreshError extends Error {
  constructor(
    public readonly refused: boolean,
    public readonly status = 0,
  ) {
    super(refused ? 'ra.notification.logged_out' : 'ra.notification.http_error');
  }
}

/** Waits between tries of a refresh the server could not answer (network error, 5xx); tests shorten them. */
export const refreshPolicy = { retryDelaysMs: [500, 2_000, 5_000] };

let inflight: Promise<void> | null = null;

/** Ends the session here: clears the stored tokens and tells the app. */
export function endSession(): void {
  signOut();
  loggedOut();
}

/** What the panel reads of a refresh's answer: the rotated tokens. */
const tokensAnswer = async () =>
  (await contract.auth()).RefreshResponseSchema.pick({ accessToken: true, refreshToken: true });

async function refreshRequest(refreshToken: string): Promise<void> {
  let res: Response;
  let answer: Awaited<ReturnType<typeof tokensAnswer>>;
  try {
    // The answer's schema first: once the server has rotated the token, its answer must be read.
    answer = await tokensAnswer();
    res = await fetch(API.auth.refresh, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': currentLocale() },
      body: JSON.stringify({ refreshToken }),
    });
  } catch {
    throw new RefreshError(false);
  }
  // Another tab may have rotated the token meanwhile: its successor is already stored, the session goes on.
  if (res.status === 401 && readAuth().refreshToken && readAuth().refreshToken !== refreshToken) return;
  if (!res.ok) throw new RefreshError(res.status === 401, res.status);
  const tokens = parseAnswer(answer, `POST ${API.auth.refresh}`, await res.json());
  writeAuth({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
}

/**
 * One try at a time across tabs (Web Locks where the browser has them): a tab that waited reuses the result.
 */
async function refreshTokens(): Promise<void> {
  const started = readAuth().refreshToken;
  const once = async () => {
    const current = readAuth().refreshToken;
    if (!current) throw new RefreshError(true, 401);
    if (current !== started) return; // another tab refreshed while this one waited
    await refreshRequest(current);
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await (locks ? locks.request('kadr-auth-refresh', once) : once());
    } catch (e) {
      const delay = refreshPolicy.retryDelaysMs[attempt];
      if (!(e instanceof RefreshError) || e.refused || delay === undefined) throw e;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** One refresh for any number of concurrent 401s; a server it cannot reach is retried a few times. */
export const refreshOnce = () =>
  (inflight ??= refreshTokens().finally(() => {
    inflight = null;
  }));

/**
 * For calls made outside the data provider (uploads, custom fetches) after a 401: refreshes, and when the
 * server refuses (401) ends the session at once, as the data provider does. Rejects with the RefreshError.
 */
export async function refreshOrEndSession(): Promise<void> {
  try {
    await refreshOnce();
  } catch (e) {
    if (!(e instanceof RefreshError) || e.refused) endSession();
    throw e;
  }
}

/** The `code` of a refused call's answer (src/contract/http.ts ErrorSchema), if any. */
const codeOf = (body: unknown) =>
  typeof body === 'object' && body !== null && 'code' in body ? (body as { code: unknown }).code : undefined;

function withAuth(o: Options = {}): Options {
  const headers = new Headers(o.headers ?? { Accept: 'application/json' });
  const { accessToken } = readAuth();
  if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
  headers.set('Accept-Language', currentLocale());
  return { ...o, headers, credentials: 'include' };
}

/**
 * What fetchUtils.fetchJson answers, from a GET the page's first script (src/boot.ts) started early (src/providers/earlyGet.ts) if there is one
 * for this URL and it succeeded; otherwise undefined (the client fetches as usual, 401 and refresh included).
 */
async function earlyAnswer(url: string, o: Options) {
  if ((o.method ?? 'GET') !== 'GET' || o.body !== undefined || o.signal?.aborted) return undefined;
  const res = await takeEarlyGet(url);
  if (!res?.ok) return undefined;
  const body = await res.text();
  let json;
  try {
    json = JSON.parse(body);
  } catch {
    // not JSON: as fetchJson
  }
  return { status: res.status, headers: res.headers, body, json };
}

/**
 * A client for one API: fetchJson on `baseUrl` + path with the bearer token. On a 401 it refreshes once (one
 * refresh shared by concurrent requests of every client, since both APIs accept the same tokens) and retries
 * the request once. A refresh refused with 401 signs the user out; one the server could not answer keeps them
 * signed in and fails the call with a 503-like error (not a 401, so react-admin does not sign out).
 */
export function makeHttpClient(baseUrl = '') {
  return async function client(url: string, o: Options = {}) {
    const target = `${baseUrl}${url}`;
    const heldToken = readAuth().accessToken;
    try {
      return (await earlyAnswer(target, o)) ?? (await fetchUtils.fetchJson(target, withAuth(o)));
    } catch (e) {
      // An admin requires 2FA and this user has not turned it on: the panel leads to Settings to enrol.
      if (e instanceof HttpError && e.status === 403 && codeOf(e.body) === ERROR_CODES.enrolTwoFactor)
        setMustEnrol(true);
      if (!(e instanceof HttpError) || e.status !== 401 || !readAuth().refreshToken) throw e;
      try {
        // Another request may have refreshed already while this one was in flight.
        if (readAuth().accessToken === heldToken) await refreshOnce();
      } catch (err) {
        if (err instanceof RefreshError && !err.refused) throw new HttpError(err.message, err.status || 503);
        endSession();
        throw e;
      }
      return fetchUtils.fetchJson(target, withAuth(o));
    }
  };
}

export type HttpClient = ReturnType<typeof makeHttpClient>;

/** The main API's client (same origin). */
export const httpClient: HttpClient = makeHttpClient('');
