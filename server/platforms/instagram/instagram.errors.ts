/** Instagram OAuth and Graph API error bodies → PlatformError. */
import { asNode, at, genericHttpError, retryAfterSec, textAt } from '../common';
import {
  PLATFORM_TITLES,
  PlatformError,
  platformMessage,
  type PlatformErrorKey,
  type PlatformErrorKind,
} from '../types';

const P = 'instagram' as const;
const TITLE = { platform: PLATFORM_TITLES[P] };

/** api.instagram.com/oauth/access_token: `{ error_type, code, error_message }` (or a Graph-style body). */
export function instagramOAuthError(status: number, headers: Record<string, string>, body: unknown): PlatformError {
  const error = at(body, 'error');
  if (error && typeof error === 'object') return instagramGraphError(status, headers, body, 'exchange');
  const type = textAt(body, 'error_type');
  const message = textAt(body, 'error_message') ?? '';
  const raw = type ? { error_type: type, code: at(body, 'code'), error_message: message } : body;
  if (type || (status >= 400 && status < 500)) {
    if (/client|app/i.test(message) && /secret|invalid|id/i.test(message) && !/code/i.test(message)) {
      return new PlatformError({
        kind: 'bad-request',
        platform: P,
        httpStatus: status,
        code: type ?? 'invalid_client',
        raw,
        key: 'instagram_client',
      });
    }
    if (/redirect/i.test(message)) {
      return new PlatformError({
        kind: 'bad-request',
        platform: P,
        httpStatus: status,
        code: type ?? 'redirect_uri',
        raw,
        key: 'redirect_mismatch',
        params: TITLE,
      });
    }
    return new PlatformError({
      kind: 'bad-request',
      platform: P,
      httpStatus: status,
      code: type ?? `http_${status}`,
      raw,
      key: 'code_invalid',
      params: TITLE,
      detail: message || undefined,
    });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}

/**
 * Graph API: `{ error: { message, type, code, error_subcode, is_transient, fbtrace_id } }`.
 * 190 invalid/expired token; 4/17/32/613 rate limits; 9+2207042 publishing limit; 100 bad parameter.
 */
export function instagramGraphError(
  status: number,
  headers: Record<string, string>,
  body: unknown,
  phase: 'api' | 'exchange' | 'refresh' = 'api',
): PlatformError {
  const e = asNode<GraphErrorBody>(at(body, 'error'));
  const code = Number(e.code);
  const sub = e.error_subcode !== undefined ? Number(e.error_subcode) : undefined;
  const message = textAt(e, 'error_user_msg') ?? textAt(e, 'message') ?? '';
  const raw = at(body, 'error') ?? body;
  const base = {
    platform: P,
    httpStatus: status,
    code: Number.isFinite(code) ? String(sub ? `${code}/${sub}` : code) : `http_${status}`,
    raw,
  } as const;
  if (code === 190 || code === 102 || e.code === 'REVOKED_ACCESS_TOKEN' || sub === 33) {
    const revoked = sub === 458 || sub === 460 || e.code === 'REVOKED_ACCESS_TOKEN';
    const why = platformMessage(
      sub === 463 ? 'instagram_token_expired' : revoked ? 'instagram_token_revoked' : 'instagram_token_bad',
    );
    if (phase === 'api')
      return new PlatformError({ ...base, kind: 'refresh-token', key: 'instagram_token_invalid', params: { why } });
    return new PlatformError({ ...base, kind: 'reconnect', key: 'instagram_cannot_refresh', params: { why } });
  }
  if (
    [4, 17, 32, 613].includes(code) ||
    (code === 9 && sub === 2207042) ||
    e.is_transient === true ||
    sub === 2207082
  ) {
    return new PlatformError({
      ...base,
      kind: 'retry-later',
      retryAfterSec: retryAfterSec(headers) ?? (code === 9 ? 3600 : undefined),
      ...(code === 9
        ? { key: 'instagram_publish_limit' }
        : { key: 'asks_to_wait', params: TITLE, detail: message || undefined }),
    });
  }
  if (code === 10 || code === 200 || (code >= 200 && code < 300)) {
    return new PlatformError({
      ...base,
      kind: 'reconnect',
      key: 'insufficient_scopes',
      params: TITLE,
      detail: message || undefined,
    });
  }
  if (status >= 500) return genericHttpError(P, status, headers, raw, message || undefined);
  if (Number.isFinite(code) || (status >= 400 && status !== 429)) {
    return new PlatformError({
      ...base,
      kind: 'bad-request',
      key: 'rejected',
      params: TITLE,
      detail: message || undefined,
    });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}

// ---- Publishing (Reels containers, media_publish, insights) ---------------------------------------------------

/** Container processing failures and publish refusals by subcode: what the user reads and what the job does. */
const PROCESSING: Record<number, { key: PlatformErrorKey; kind: PlatformErrorKind }> = {
  2207026: { key: 'instagram_unsupported_format', kind: 'bad-request' },
  2207003: { key: 'instagram_download_timeout', kind: 'retry-later' },
  2207052: { key: 'instagram_fetch_failed', kind: 'retry-later' },
  2207020: { key: 'instagram_container_expired', kind: 'retry-later' },
  2207001: { key: 'instagram_spam', kind: 'bad-request' },
  2207050: { key: 'instagram_restricted', kind: 'bad-request' },
  2207082: { key: 'instagram_processing_retry', kind: 'retry-later' },
  2207027: { key: 'instagram_not_ready', kind: 'retry-later' },
};

/** The Graph API's error object. */
interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number | string;
  error_subcode?: number;
  error_user_msg?: string;
  is_transient?: boolean;
}

/** 458 app removed, 460 password changed, 463 expired, 467 logged out: a long-lived token that cannot come back. */
const TOKEN_GONE_SUBCODES = new Set([458, 460, 463, 467]);

/**
 * A container's ERROR (its `status` reads "Error: Media upload has failed with error code 2207026") or a 2207xxx
 * refusal. A retry-later one needs a NEW container (the old one is dead), except 2207027 (not ready yet: poll again).
 */
export function instagramProcessingError(subcode: number | undefined, raw: unknown, detail?: string): PlatformError {
  const known = subcode !== undefined ? PROCESSING[subcode] : undefined;
  const code = subcode !== undefined ? String(subcode) : 'processing_failed';
  if (known) return new PlatformError({ platform: P, kind: known.kind, key: known.key, code, raw });
  const params = { code: subcode ?? '?' };
  const key = 'instagram_processing_failed';
  return new PlatformError({ platform: P, kind: 'bad-request', key, params, code, raw, detail });
}

/** Reads the 2207xxx code out of a container's `status` text. */
export function processingSubcode(status: unknown): number | undefined {
  const m = /\b(22\d{5})\b/.exec(String(status ?? ''));
  return m ? Number(m[1]) : undefined;
}

/**
 * Graph errors of the publishing calls: 190 → refresh-token, or reconnect when the token is gone for good
 * (458/460/463/467, REVOKED_ACCESS_TOKEN); 4/17/32/613 and 9+2207042 → retry-later; 100 → bad-request; 2207xxx →
 * readable processing keys; is_transient → retry-later.
 */
export function instagramPublishError(status: number, headers: Record<string, string>, body: unknown): PlatformError {
  const error = asNode<{ error?: GraphErrorBody }>(body).error;
  const e: GraphErrorBody = error ?? {};
  const code = Number(e.code);
  const sub = e.error_subcode !== undefined ? Number(e.error_subcode) : undefined;
  const raw = error ?? body;
  const message: string = e.error_user_msg ?? e.message ?? '';
  const codeText = Number.isFinite(code) ? (sub ? `${code}/${sub}` : String(code)) : `http_${status}`;
  const base = { platform: P, httpStatus: status, raw, code: codeText };
  if (code === 190 || e.code === 'REVOKED_ACCESS_TOKEN') {
    if (e.code === 'REVOKED_ACCESS_TOKEN' || (sub !== undefined && TOKEN_GONE_SUBCODES.has(sub))) {
      const why = platformMessage(sub === 463 ? 'instagram_token_expired' : 'instagram_token_revoked');
      return new PlatformError({ ...base, kind: 'reconnect', key: 'instagram_cannot_refresh', params: { why } });
    }
    return instagramGraphError(status, headers, body, 'api');
  }
  if (code === 9 && sub === 2207042) {
    const wait = retryAfterSec(headers) ?? 3600;
    return new PlatformError({ ...base, kind: 'retry-later', key: 'instagram_publish_limit', retryAfterSec: wait });
  }
  if (sub !== undefined && sub >= 2207000 && sub < 2208000) {
    const err = instagramProcessingError(sub, raw, message || undefined);
    const detail = err.key === 'instagram_processing_failed' ? message || undefined : undefined;
    return new PlatformError({ ...base, kind: err.kind, key: err.key, params: err.params, detail });
  }
  const detail = message || undefined;
  if (code === 100) return new PlatformError({ ...base, kind: 'bad-request', key: 'rejected', params: TITLE, detail });
  if (e.is_transient === true && status < 500) {
    const wait = { retryAfterSec: retryAfterSec(headers) };
    return new PlatformError({ ...base, ...wait, kind: 'retry-later', key: 'asks_to_wait', params: TITLE, detail });
  }
  return instagramGraphError(status, headers, body, 'api');
}
