/** Small pieces shared by the drivers: callback parsing, scope checks, expiry and Retry-After. */
import { z } from 'zod';
import type { PlatformResponse } from './http';
import { PlatformError, platformTitle, withCode, type OAuthCallback, type PlatformId } from './types';

export type QueryLike = URLSearchParams | Record<string, string | string[] | undefined>;

export function queryGetter(query: QueryLike): (name: string) => string | undefined {
  if (query instanceof URLSearchParams) return (n) => query.get(n) ?? undefined;
  return (n) => {
    const v = query[n];
    return Array.isArray(v) ? v[0] : v;
  };
}

/**
 * Reads an OAuth callback. A refusal (`error=access_denied`) or any other `error` becomes a
 * PlatformError kind 'bad-request' with a readable message; a missing code or state as well.
 */
export function parseOAuthCallback(
  platform: PlatformId,
  query: QueryLike,
  opts: { stripHashSuffix?: boolean } = {},
): OAuthCallback {
  const get = queryGetter(query);
  const title = platformTitle(platform);
  const error = get('error');
  if (error) {
    const description = get('error_description') ?? get('error_reason') ?? '';
    if (error === 'access_denied') {
      throw new PlatformError({
        kind: 'bad-request',
        platform,
        code: 'access_denied',
        raw: { error, description },
        key: 'access_denied',
        params: { platform: title },
      });
    }
    throw new PlatformError({
      kind: 'bad-request',
      platform,
      code: error,
      raw: { error, description },
      key: 'auth_error',
      params: { platform: title },
      detail: withCode(error, description),
    });
  }
  let code = get('code');
  const state = get('state');
  if (code && opts.stripHashSuffix) code = code.replace(/#_?$/, '');
  if (!code || !state) {
    throw new PlatformError({
      kind: 'bad-request',
      platform,
      code: 'invalid_callback',
      key: !code ? 'callback_no_code' : 'callback_no_state',
      params: { platform: title },
    });
  }
  return { code, state };
}

export function splitScopes(scope: unknown, sep: RegExp = /[\s,]+/): string[] {
  if (Array.isArray(scope)) return scope.map(String).filter(Boolean);
  if (typeof scope !== 'string') return [];
  return scope
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Refuses a grant that lacks a required scope (the user unticked a permission). */
export function requireScopes(platform: PlatformId, granted: string[], required: readonly string[]) {
  const missing = required.filter((s) => !granted.includes(s));
  if (missing.length) {
    throw new PlatformError({
      kind: 'reconnect',
      platform,
      code: 'scope_missing',
      raw: { granted, missing },
      key: 'scope_missing',
      params: { platform: platformTitle(platform), scopes: missing.join(', ') },
    });
  }
}

export function expiresAtFrom(now: Date, expiresInSec: unknown, fallbackSec: number): Date {
  const n = Number(expiresInSec);
  return new Date(now.getTime() + (Number.isFinite(n) && n > 0 ? n : fallbackSec) * 1000);
}

export function retryAfterSec(headers: Record<string, string>): number | undefined {
  const v = headers['retry-after'];
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, Math.round((t - Date.now()) / 1000)) : undefined;
}

/** Reads a body as JSON when it is JSON; otherwise returns { text }. Never throws on bad JSON. */
export async function readBody(res: PlatformResponse): Promise<unknown> {
  const text = await res.text();
  if (!text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { text: text.slice(0, 500) };
  }
}

/** A text field a platform may leave out or send as null: read as undefined then. */
export const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

/** The value at `path` in a JSON answer (undefined when a step is missing); array indexes are digits. */
export function at(body: unknown, ...path: string[]): unknown {
  let v = body;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The text at `path` in a JSON answer, when it is text. */
export function textAt(body: unknown, ...path: string[]): string | undefined {
  const v = at(body, ...path);
  return typeof v === 'string' ? v : undefined;
}

/**
 * A JSON answer as the platform's answer type, whose every field is optional (the publishers read what is there):
 * an object as it is, anything else as an empty one.
 */
export function asNode<T extends object>(body: unknown): T {
  return (body !== null && typeof body === 'object' ? body : {}) as T;
}

/** A JSON answer read through its schema: the parsed value, or null when it does not match. */
export function parsed<T>(schema: z.ZodType<T>, body: unknown): T | null {
  const r = schema.safeParse(body);
  return r.success ? r.data : null;
}

/** Generic mapping for statuses the platform-specific mappers leave alone. */
export function genericHttpError(
  platform: PlatformId,
  status: number,
  headers: Record<string, string>,
  raw: unknown,
  detail?: string,
): PlatformError {
  const base = { platform, httpStatus: status, raw, detail, params: { platform: platformTitle(platform), status } };
  if (status === 401)
    return new PlatformError({ ...base, kind: 'refresh-token', code: 'unauthorized', key: 'token_invalid' });
  if (status === 429) {
    const retry = retryAfterSec(headers);
    return new PlatformError({
      ...base,
      kind: 'retry-later',
      code: 'rate_limited',
      retryAfterSec: retry,
      key: 'rate_limited',
    });
  }
  if (status >= 500) {
    const retry = retryAfterSec(headers);
    return new PlatformError({
      ...base,
      kind: 'retry-later',
      code: 'server_error',
      retryAfterSec: retry,
      key: 'unavailable',
    });
  }
  return new PlatformError({ ...base, kind: 'bad-request', code: `http_${status}`, key: 'rejected_http' });
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

export function needRedirectUri(platform: PlatformId, given: string | undefined, fallback: string | undefined): string {
  const r = given ?? fallback;
  if (!r) {
    const params = { platform: platformTitle(platform) };
    throw new PlatformError({ kind: 'bad-request', platform, code: 'no_redirect_uri', key: 'no_redirect_uri', params });
  }
  return r;
}

/** Drops undefined and empty-string entries (so config overrides never blank out a default). */
export function stripUndefined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
