/** Instagram OAuth and Graph API error bodies → PlatformError. */
import { genericHttpError, retryAfterSec } from '../common';
import { PlatformError } from '../types';

const P = 'instagram' as const;

/** api.instagram.com/oauth/access_token: `{ error_type, code, error_message }` (or a Graph-style body). */
export function instagramOAuthError(status: number, headers: Record<string, string>, body: any): PlatformError {
  if (body?.error && typeof body.error === 'object') return instagramGraphError(status, headers, body, 'exchange');
  const type = body?.error_type as string | undefined;
  const message = (body?.error_message as string | undefined) ?? '';
  const raw = type ? { error_type: type, code: body?.code, error_message: message } : body;
  if (type || (status >= 400 && status < 500)) {
    if (/client|app/i.test(message) && /secret|invalid|id/i.test(message) && !/code/i.test(message)) {
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: type ?? 'invalid_client', raw, message: 'Instagram відхилив App ID або App Secret сервера (перевірте налаштування Instagram).' });
    }
    if (/redirect/i.test(message)) {
      return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: type ?? 'redirect_uri', raw, message: 'Redirect URI не збігається з зареєстрованим у застосунку Instagram.' });
    }
    return new PlatformError({ kind: 'bad-request', platform: P, httpStatus: status, code: type ?? `http_${status}`, raw, message: `Код авторизації Instagram недійсний, прострочений або вже використаний${message ? ` (${message})` : ''}. Отримайте нове посилання авторизації.` });
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
    const why = sub === 463 ? 'строк дії токена минув' : sub === 458 || sub === 460 || e.code === 'REVOKED_ACCESS_TOKEN' ? 'доступ відкликано' : 'токен недійсний';
    if (phase === 'api') return new PlatformError({ ...base, kind: 'refresh-token', message: `Токен доступу Instagram недійсний: ${why}` });
    return new PlatformError({ ...base, kind: 'reconnect', message: `Instagram: ${why}; оновити токен неможливо` });
  }
  if ([4, 17, 32, 613].includes(code) || (code === 9 && sub === 2207042) || e.is_transient === true || sub === 2207082) {
    return new PlatformError({
      ...base, kind: 'retry-later', retryAfterSec: retryAfterSec(headers) ?? (code === 9 ? 3600 : undefined),
      message: code === 9 ? 'Досягнуто ліміту публікацій Instagram за 24 години' : `Instagram просить зачекати${message ? `: ${message}` : ''}`,
    });
  }
  if (code === 10 || code === 200 || (code >= 200 && code < 300)) {
    return new PlatformError({ ...base, kind: 'reconnect', message: `Недостатньо дозволів Instagram: підключіть акаунт заново${message ? ` (${message})` : ''}` });
  }
  if (status >= 500) return genericHttpError(P, status, headers, raw, message || undefined);
  if (Number.isFinite(code) || (status >= 400 && status !== 429)) {
    return new PlatformError({ ...base, kind: 'bad-request', message: `Instagram відхилив запит${message ? `: ${message}` : ''}` });
  }
  return genericHttpError(P, status, headers, raw, message || undefined);
}
