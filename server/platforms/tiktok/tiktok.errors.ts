/** TikTok OAuth error bodies and the `{ data, error: { code, message, log_id } }` envelope → PlatformError. */
import { genericHttpError, retryAfterSec } from '../common';
import { PlatformError } from '../types';

const P = 'tiktok' as const;

/** OAuth endpoints: `{ error, error_description, log_id }` (TikTok may answer these with HTTP 200). */
export function tiktokOAuthError(status: number, headers: Record<string, string>, body: any, phase: 'exchange' | 'refresh'): PlatformError {
  const error = typeof body?.error === 'string' ? body.error : undefined;
  const description = typeof body?.error_description === 'string' ? body.error_description : '';
  const raw = error ? { error, error_description: description, log_id: body?.log_id } : body;
  const base = { platform: P, httpStatus: status, code: error ?? `http_${status}`, raw } as const;
  switch (error) {
    case 'invalid_grant':
      return phase === 'exchange'
        ? new PlatformError({ ...base, kind: 'bad-request', message: 'Код авторизації TikTok недійсний, прострочений або вже використаний. Отримайте нове посилання авторизації.' })
        : new PlatformError({ ...base, kind: 'reconnect', message: `TikTok відкликав доступ або refresh token прострочений (${description || 'invalid_grant'})` });
    case 'access_denied':
      return new PlatformError({ ...base, kind: 'reconnect', message: 'Користувач TikTok відкликав доступ застосунку' });
    case 'invalid_client':
    case 'unauthorized_client':
      return new PlatformError({ ...base, kind: 'bad-request', message: 'TikTok відхилив client_key або client_secret сервера (перевірте налаштування TikTok).' });
    case 'invalid_scope':
      return new PlatformError({ ...base, kind: 'reconnect', message: `TikTok не надав потрібні дозволи (${description || 'invalid_scope'})` });
    case 'invalid_request':
    case 'unsupported_grant_type':
      return new PlatformError({ ...base, kind: 'bad-request', message: `TikTok відхилив запит токена: ${error}${description ? ` (${description})` : ''}` });
  }
  if (error) return new PlatformError({ ...base, kind: 'bad-request', message: `TikTok повернув помилку: ${error}${description ? ` (${description})` : ''}` });
  return genericHttpError(P, status, headers, raw, description || undefined);
}

/** API envelope errors (`error.code` other than "ok"). */
export function tiktokApiError(status: number, headers: Record<string, string>, body: any): PlatformError {
  const code: string | undefined = body?.error?.code;
  const message: string = body?.error?.message ?? '';
  const raw = body?.error ?? body;
  const base = { platform: P, httpStatus: status, code: code ?? `http_${status}`, raw } as const;
  switch (code) {
    case 'access_token_invalid':
      return new PlatformError({ ...base, kind: 'refresh-token', message: 'Токен доступу TikTok недійсний або прострочений' });
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return new PlatformError({ ...base, kind: 'reconnect', message: 'Недостатньо дозволів TikTok: підключіть акаунт заново й надайте всі дозволи' });
    case 'reached_active_user_cap':
      return new PlatformError({ ...base, kind: 'reconnect', message: 'Застосунок TikTok досяг ліміту активних користувачів' });
    case 'rate_limit_exceeded':
    case 'spam_risk_too_many_posts':
    case 'spam_risk_too_many_pending_share':
    case 'internal_error':
      return new PlatformError({ ...base, kind: 'retry-later', retryAfterSec: retryAfterSec(headers), message: `TikTok просить зачекати (${code})${message ? `: ${message}` : ''}` });
    case 'spam_risk_user_banned_from_posting':
      return new PlatformError({ ...base, kind: 'bad-request', message: 'TikTok заборонив цьому акаунту публікації' });
    case 'unaudited_client_can_only_post_to_private_accounts':
      return new PlatformError({ ...base, kind: 'bad-request', message: 'Застосунок TikTok не пройшов аудит: публікувати можна лише приватно' });
  }
  if (code && code !== 'ok' && status < 500 && status !== 429 && status !== 401) {
    return new PlatformError({ ...base, kind: 'bad-request', message: `TikTok відхилив запит (${code})${message ? `: ${message}` : ''}` });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}
