/** Google OAuth and YouTube Data API error bodies → PlatformError. */
import { at, genericHttpError, retryAfterSec, textAt } from '../common';
import { PLATFORM_TITLES, PlatformError, withCode } from '../types';

const P = 'youtube' as const;
const TITLE = { platform: PLATFORM_TITLES[P] };

/** Token endpoint: `{ error, error_description }` (400 invalid_grant, 401 invalid_client, …). */
export function googleTokenError(
  status: number,
  headers: Record<string, string>,
  body: unknown,
  phase: 'exchange' | 'refresh',
): PlatformError {
  const error = textAt(body, 'error');
  const description = textAt(body, 'error_description') ?? '';
  const raw = error ? { error, error_description: description } : body;
  switch (error) {
    case 'invalid_grant':
      return phase === 'exchange'
        ? new PlatformError({
            kind: 'bad-request',
            platform: P,
            httpStatus: status,
            code: error,
            raw,
            key: 'code_invalid',
            params: { platform: 'Google' },
          })
        : new PlatformError({
            kind: 'reconnect',
            platform: P,
            httpStatus: status,
            code: error,
            raw,
            key: 'google_revoked',
            detail: description || 'invalid_grant',
          });
    case 'invalid_client':
    case 'unauthorized_client':
      return new PlatformError({
        kind: 'bad-request',
        platform: P,
        httpStatus: status,
        code: error,
        raw,
        key: 'google_client',
      });
    case 'redirect_uri_mismatch':
      return new PlatformError({
        kind: 'bad-request',
        platform: P,
        httpStatus: status,
        code: error,
        raw,
        key: 'redirect_mismatch',
        params: { platform: 'Google' },
      });
    case 'invalid_scope':
    case 'invalid_request':
    case 'unsupported_grant_type':
      return new PlatformError({
        kind: 'bad-request',
        platform: P,
        httpStatus: status,
        code: error,
        raw,
        key: 'token_request_rejected',
        params: { platform: 'Google' },
        detail: withCode(error, description),
      });
  }
  if (status === 401)
    return new PlatformError({
      kind: 'bad-request',
      platform: P,
      httpStatus: status,
      code: 'invalid_client',
      raw,
      key: 'google_client',
    });
  return genericHttpError(P, status, headers, raw, description || undefined);
}

const RETRY_REASONS = new Set([
  'quotaExceeded',
  'dailyLimitExceeded',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'uploadLimitExceeded',
  'backendError',
  'internalError',
]);

/** Data API: `{ error: { code, message, errors: [{ reason, domain, message }] } }`. */
export function youtubeApiError(status: number, headers: Record<string, string>, body: unknown): PlatformError {
  const err = at(body, 'error');
  const reason = textAt(err, 'errors', '0', 'reason') ?? textAt(err, 'status');
  const message = textAt(err, 'message') ?? textAt(err, 'errors', '0', 'message') ?? '';
  const raw = err ?? body;
  const base = { platform: P, httpStatus: status, code: reason ?? `http_${status}`, raw } as const;
  if (reason === 'youtubeSignupRequired') {
    return new PlatformError({ ...base, kind: 'bad-request', key: 'youtube_no_channel' });
  }
  if (status === 401 || reason === 'authError') {
    return new PlatformError({ ...base, kind: 'refresh-token', key: 'token_invalid', params: TITLE });
  }
  if (reason === 'insufficientPermissions' || reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
    return new PlatformError({ ...base, kind: 'reconnect', key: 'insufficient_scopes', params: TITLE });
  }
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') {
    return new PlatformError({
      ...base,
      kind: 'retry-later',
      retryAfterSec: retryAfterSec(headers) ?? secondsToPacificMidnight(),
      key: 'youtube_quota',
    });
  }
  if (reason === 'uploadLimitExceeded') {
    return new PlatformError({ ...base, kind: 'retry-later', retryAfterSec: 24 * 3600, key: 'youtube_upload_limit' });
  }
  if (reason && RETRY_REASONS.has(reason)) {
    return new PlatformError({
      ...base,
      kind: 'retry-later',
      retryAfterSec: retryAfterSec(headers),
      key: 'asks_to_wait',
      params: TITLE,
      detail: reason,
    });
  }
  if (status === 403) {
    return new PlatformError({
      ...base,
      kind: 'bad-request',
      key: 'forbidden',
      params: TITLE,
      detail: message || undefined,
    });
  }
  if (status >= 400 && status < 500 && status !== 429) {
    return new PlatformError({
      ...base,
      kind: 'bad-request',
      key: 'rejected',
      params: TITLE,
      detail: [reason, message].filter(Boolean).join(': ') || undefined,
    });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}

/** Seconds until the next midnight in America/Los_Angeles (when the YouTube quota resets). */
export function secondsToPacificMidnight(now: Date = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hour12: false,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0) % 24;
  const elapsed =
    get('hour') * 3600 +
    Number(parts.find((p) => p.type === 'minute')?.value ?? 0) * 60 +
    Number(parts.find((p) => p.type === 'second')?.value ?? 0);
  return Math.max(60, 24 * 3600 - elapsed);
}

// ---- publishing -------------------------------------------------------------------------------------------

/** Code of the error `upload`/`probe` throw when the resumable session is gone (404/410). */
export const UPLOAD_SESSION_EXPIRED = 'upload_session_expired';

/**
 * The resumable session is gone (404/410 on a chunk or a status query). The job must not simply start a new
 * session: the final chunk may have created the video before the session expired, so it asks `findUploaded` first.
 */
export function uploadSessionExpired(status: number, raw?: unknown): PlatformError {
  return new PlatformError({
    kind: 'retry-later',
    platform: P,
    httpStatus: status,
    code: UPLOAD_SESSION_EXPIRED,
    raw,
    key: 'youtube_session_expired',
  });
}

export function isUploadSessionExpired(e: unknown): e is PlatformError {
  return e instanceof PlatformError && e.code === UPLOAD_SESSION_EXPIRED;
}

/** The platform answered the upload in a way the resumable protocol does not allow (worth a later retry). */
export function uploadProtocolError(reason: string, status?: number, raw?: unknown): PlatformError {
  return new PlatformError({
    kind: 'retry-later',
    platform: P,
    httpStatus: status,
    code: 'upload_protocol',
    raw,
    key: 'youtube_upload_protocol',
    detail: reason,
  });
}
