/** Google OAuth and YouTube Data API error bodies → PlatformError. */
import { genericHttpError, retryAfterSec } from '../common';
import { PlatformError } from '../types';

const P = 'youtube' as const;

/** Token endpoint: `{ error, error_description }` (400 invalid_grant, 401 invalid_client, …). */
export function googleTokenError(status: number, headers: Record<string, string>, body: any, phase: 'exchange' | 'refresh'): PlatformError {
  const error = typeof body?.error === 'string' ? body.error : undefined;
  const description = typeof body?.error_description === 'string' ? body.error_description : '';
  const raw = error ? { error, error_description: description } : body;
  switch (error) {
    case 'invalid_grant':
      return phase === 'exchange'
        ? new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: error, raw, message: 'Код авторизації Google недійсний, прострочений або вже використаний. Отримайте нове посилання авторизації.' })
        : new PlatformError({
            kind: 'reconnect', platform: P, httpStatus: status, code: error, raw,
            message: `Google відкликав доступ або строк дії дозволу минув (${description || 'invalid_grant'}). Якщо проєкт Google Cloud цього client_id у статусі «Testing», дозвіл діє лише 7 днів: переведіть його в «In production»`,
          });
    case 'invalid_client':
    case 'unauthorized_client':
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: error, raw, message: 'Google відхилив client_id або client_secret цього профілю. Перевірте їх у налаштуваннях YouTube.' });
    case 'redirect_uri_mismatch':
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: error, raw, message: 'Redirect URI не збігається з зареєстрованим у Google Cloud Console для цього client_id.' });
    case 'invalid_scope':
    case 'invalid_request':
    case 'unsupported_grant_type':
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: error, raw, message: `Google відхилив запит токена: ${error}${description ? ` (${description})` : ''}` });
  }
  if (status === 401) return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: 'invalid_client', raw, message: 'Google відхилив client_id або client_secret цього профілю.' });
  return genericHttpError(P, status, headers, raw, description || undefined);
}

const RETRY_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded', 'rateLimitExceeded', 'userRateLimitExceeded', 'uploadLimitExceeded', 'backendError', 'internalError']);

/** Data API: `{ error: { code, message, errors: [{ reason, domain, message }] } }`. */
export function youtubeApiError(status: number, headers: Record<string, string>, body: any): PlatformError {
  const err = body?.error;
  const reason: string | undefined = err?.errors?.[0]?.reason ?? (typeof err?.status === 'string' ? err.status : undefined);
  const message: string = err?.message ?? err?.errors?.[0]?.message ?? '';
  const raw = err ?? body;
  const base = { platform: P, httpStatus: status, code: reason ?? `http_${status}`, raw } as const;
  if (reason === 'youtubeSignupRequired') {
    return new PlatformError({ ...base, kind: 'bad-request', message: 'У цього Google-акаунта немає YouTube-каналу. Створіть канал і підключіть акаунт заново.' });
  }
  if (status === 401 || reason === 'authError') {
    return new PlatformError({ ...base, kind: 'refresh-token', message: 'Токен доступу YouTube недійсний або прострочений' });
  }
  if (reason === 'insufficientPermissions' || reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
    return new PlatformError({ ...base, kind: 'reconnect', message: 'Недостатньо дозволів YouTube: підключіть акаунт заново й надайте всі дозволи' });
  }
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') {
    return new PlatformError({ ...base, kind: 'retry-later', retryAfterSec: retryAfterSec(headers) ?? secondsToPacificMidnight(), message: 'Вичерпано денну квоту YouTube API; вона оновиться опівночі за тихоокеанським часом' });
  }
  if (reason === 'uploadLimitExceeded') {
    return new PlatformError({ ...base, kind: 'retry-later', retryAfterSec: 24 * 3600, message: 'Канал досяг денного ліміту завантажень YouTube; спробуйте через 24 години' });
  }
  if (reason && RETRY_REASONS.has(reason)) {
    return new PlatformError({ ...base, kind: 'retry-later', retryAfterSec: retryAfterSec(headers), message: `YouTube просить зачекати (${reason})` });
  }
  if (status === 403) {
    return new PlatformError({ ...base, kind: 'bad-request', message: `YouTube заборонив дію${message ? `: ${message}` : ''}` });
  }
  if (status >= 400 && status < 500 && status !== 429) {
    return new PlatformError({ ...base, kind: 'bad-request', message: `YouTube відхилив запит${reason ? ` (${reason})` : ''}${message ? `: ${message}` : ''}` });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}

/** Seconds until the next midnight in America/Los_Angeles (when the YouTube quota resets). */
export function secondsToPacificMidnight(now: Date = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0) % 24;
  const elapsed = get('hour') * 3600 + Number(parts.find((p) => p.type === 'minute')?.value ?? 0) * 60 + Number(parts.find((p) => p.type === 'second')?.value ?? 0);
  return Math.max(60, 24 * 3600 - elapsed);
}
