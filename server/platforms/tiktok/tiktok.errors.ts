/** TikTok OAuth error bodies and the `{ data, error: { code, message, log_id } }` envelope → PlatformError. */
import { at, genericHttpError, retryAfterSec, textAt } from '../common';
import { encodeMessage } from '../../../src/contract/stored-message';
import { PLATFORM_TITLES, PlatformError, withCode, type PlatformErrorKey } from '../types';

const P = 'tiktok' as const;
const TITLE = { platform: PLATFORM_TITLES[P] };

/** OAuth endpoints: `{ error, error_description, log_id }` (TikTok may answer these with HTTP 200). */
export function tiktokOAuthError(
  status: number,
  headers: Record<string, string>,
  body: unknown,
  phase: 'exchange' | 'refresh',
): PlatformError {
  const error = textAt(body, 'error');
  const description = textAt(body, 'error_description') ?? '';
  const raw = error ? { error, error_description: description, log_id: at(body, 'log_id') } : body;
  const base = { platform: P, httpStatus: status, code: error ?? `http_${status}`, raw } as const;
  switch (error) {
    case 'invalid_grant':
      return phase === 'exchange'
        ? new PlatformError({ ...base, kind: 'bad-request', key: 'code_invalid', params: TITLE })
        : new PlatformError({
            ...base,
            kind: 'reconnect',
            key: 'tiktok_revoked',
            detail: description || 'invalid_grant',
          });
    case 'access_denied':
      return new PlatformError({ ...base, kind: 'reconnect', key: 'tiktok_user_revoked' });
    case 'invalid_client':
    case 'unauthorized_client':
      return new PlatformError({ ...base, kind: 'bad-request', key: 'tiktok_client' });
    case 'invalid_scope':
      return new PlatformError({
        ...base,
        kind: 'reconnect',
        key: 'scopes_not_granted',
        params: TITLE,
        detail: description || 'invalid_scope',
      });
    case 'invalid_request':
    case 'unsupported_grant_type':
      return new PlatformError({
        ...base,
        kind: 'bad-request',
        key: 'token_request_rejected',
        params: TITLE,
        detail: withCode(error, description),
      });
  }
  if (error)
    return new PlatformError({
      ...base,
      kind: 'bad-request',
      key: 'returned_error',
      params: TITLE,
      detail: withCode(error, description),
    });
  return genericHttpError(P, status, headers, raw, description || undefined);
}

/** API envelope errors (`error.code` other than "ok"). */
export function tiktokApiError(status: number, headers: Record<string, string>, body: unknown): PlatformError {
  const code = textAt(body, 'error', 'code');
  const message = textAt(body, 'error', 'message') ?? '';
  const raw = at(body, 'error') ?? body;
  const base = { platform: P, httpStatus: status, code: code ?? `http_${status}`, raw } as const;
  switch (code) {
    case 'access_token_invalid':
      return new PlatformError({ ...base, kind: 'refresh-token', key: 'token_invalid', params: TITLE });
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return new PlatformError({ ...base, kind: 'reconnect', key: 'insufficient_scopes', params: TITLE });
    case 'reached_active_user_cap':
      return new PlatformError({ ...base, kind: 'reconnect', key: 'tiktok_user_cap' });
    case 'rate_limit_exceeded':
      // Limits are per token per minute: without Retry-After, the window is the wait.
      return new PlatformError({
        ...base,
        kind: 'retry-later',
        retryAfterSec: retryAfterSec(headers) ?? 60,
        key: 'rate_limited',
        params: TITLE,
      });
    case 'spam_risk_too_many_posts':
    case 'spam_risk_too_many_pending_share': {
      // Rolling 24-hour caps: the quota counter knows when a slot frees; TikTok does not say.
      const key = code === 'spam_risk_too_many_posts' ? 'tiktok_daily_post_cap' : 'tiktok_pending_shares';
      return new PlatformError({ ...base, kind: 'retry-later', retryAfterSec: retryAfterSec(headers), key });
    }
    case 'privacy_level_option_mismatch':
      return new PlatformError({ ...base, kind: 'bad-request', key: 'tiktok_privacy_mismatch' });
    case 'internal_error':
      return new PlatformError({
        ...base,
        kind: 'retry-later',
        retryAfterSec: retryAfterSec(headers),
        key: 'asks_to_wait',
        params: TITLE,
        detail: [code, message].filter(Boolean).join(': '),
      });
    case 'spam_risk_user_banned_from_posting':
      return new PlatformError({ ...base, kind: 'bad-request', key: 'tiktok_banned' });
    case 'unaudited_client_can_only_post_to_private_accounts':
      return new PlatformError({ ...base, kind: 'bad-request', key: 'tiktok_unaudited' });
  }
  if (code && code !== 'ok' && status < 500 && status !== 429 && status !== 401) {
    return new PlatformError({
      ...base,
      kind: 'bad-request',
      key: 'rejected',
      params: TITLE,
      detail: [code, message].filter(Boolean).join(': '),
    });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}

/**
 * `fail_reason` of a FAILED post (Get Post Status), as a readable reason. Spam and ban reasons are the account's
 * or the caption's problem; `internal` is TikTok's and may be tried again with a new upload.
 */
const FAIL_REASON_KEYS: Record<string, PlatformErrorKey> = {
  file_format_check_failed: 'tiktok_fail_file_format',
  duration_check_failed: 'tiktok_fail_duration',
  frame_rate_check_failed: 'tiktok_fail_frame_rate',
  picture_size_check_failed: 'tiktok_fail_picture_size',
  internal: 'tiktok_fail_internal',
  video_pull_failed: 'tiktok_fail_video_pull',
  publish_cancelled: 'tiktok_fail_cancelled',
  auth_removed: 'tiktok_fail_auth_removed',
  spam_risk_too_many_posts: 'tiktok_daily_post_cap',
  spam_risk_user_banned_from_posting: 'tiktok_banned',
  spam_risk_text: 'tiktok_fail_spam_text',
};

export function tiktokFailReasonError(reason: string | null | undefined): PlatformError {
  const code = reason || 'unknown';
  const known = FAIL_REASON_KEYS[code] ?? (code.startsWith('spam_risk') ? 'tiktok_fail_spam' : undefined);
  const why = encodeMessage(`kadr.platform_errors.${known ?? 'tiktok_fail_unknown'}`);
  const retry = code === 'internal' || code === 'spam_risk_too_many_posts';
  const kind = retry ? 'retry-later' : code === 'auth_removed' ? 'reconnect' : 'bad-request';
  const params = { reason: why };
  const raw = { fail_reason: reason };
  // A reason Kadr does not know is said as such; TikTok's own code goes on the detail line.
  const detail = known ? undefined : code;
  return new PlatformError({ kind, platform: P, code, key: 'tiktok_publish_failed', params, raw, detail });
}
