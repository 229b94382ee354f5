/** Instagram OAuth and Graph API error bodies → PlatformError. */
import { genericHttpError, retryAfterSec } from '../common';
import { PLATFORM_TITLES, PlatformError, platformMessage } from '../types';

const P = 'instagram' as const;
const TITLE = { platform: PLATFORM_TITLES[P] };

/** api.instagram.com/oauth/access_token: `{ error_type, code, error_message }` (or a Graph-style body). */
export function instagramOAuthError(status: number, headers: Record<string, string>, body: any): PlatformError {
  if (body?.error && typeof body.error === 'object') return instagramGraphError(status, headers, body, 'exchange');
  const type = body?.error_type as string | undefined;
  const message = (body?.error_message as string | undefined) ?? '';
  const raw = type ? { error_type: type, code: body?.code, error_message: message } : body;
  if (type || (status >= 400 && status < 500)) {
    if (/client|app/i.test(message) && /secret|invalid|id/i.test(message) && !/code/i.test(message)) {
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: type ?? 'invalid_client', raw, key: 'instagram_client' });
    }
    if (/redirect/i.test(message)) {
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: type ?? 'redirect_uri', raw, key: 'redirect_mismatch', params: TITLE });
    }
    return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: type ?? `http_${status}`, raw, key: 'code_invalid', params: TITLE, detail: message || undefined });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}

/**
 * Graph API: `{ error: { message, type, code, error_subcode, is_transient, fbtrace_id } }`.
 * 190 invalid/expired token; 4/17/32/613 rate limits; 9+2207042 publishing limit; 100 bad parameter.
 */
export function instagramGraphError(status: number, headers: Record<string, string>, body: any, phase: 'api' | 'exchange' | 'refresh' = 'api'): PlatformError {
  const e = body?.error ?? {};
  const code = Number(e.code);
  const sub = e.error_subcode !== undefined ? Number(e.error_subcode) : undefined;
  const message: string = e.error_user_msg ?? e.message ?? '';
  const raw = body?.error ?? body;
  const base = { platform: P, httpStatus: status, code: Number.isFinite(code) ? String(sub ? `${code}/${sub}` : code) : `http_${status}`, raw } as const;
  if (code === 190 || code === 102 || e.code === 'REVOKED_ACCESS_TOKEN' || sub === 33) {
    const revoked = sub === 458 || sub === 460 || e.code === 'REVOKED_ACCESS_TOKEN';
    const why = platformMessage(sub === 463 ? 'instagram_token_expired' : revoked ? 'instagram_token_revoked' : 'instagram_token_bad');
    if (phase === 'api') return new PlatformError({ ...base, kind: 'refresh-token', key: 'instagram_token_invalid', params: { why } });
    return new PlatformError({ ...base, kind: 'reconnect', key: 'instagram_cannot_refresh', params: { why } });
  }
  if ([4, 17, 32, 613].includes(code) || (code === 9 && sub === 2207042) || e.is_transient === true || sub === 2207082) {
    return new PlatformError({
      ...base, kind: 'retry-later', retryAfterSec: retryAfterSec(headers) ?? (code === 9 ? 3600 : undefined),
      ...(code === 9 ? { key: 'instagram_publish_limit' } : { key: 'asks_to_wait', params: TITLE, detail: message || undefined }),
    });
  }
  if (code === 10 || code === 200 || (code >= 200 && code < 300)) {
    return new PlatformError({ ...base, kind: 'reconnect', key: 'insufficient_scopes', params: TITLE, detail: message || undefined });
  }
  if (status >= 500) return genericHttpError(P, status, headers, raw, message || undefined);
  if (Number.isFinite(code) || (status >= 400 && status !== 429)) {
    return new PlatformError({ ...base, kind: 'bad-request', key: 'rejected', params: TITLE, detail: message || undefined });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}
