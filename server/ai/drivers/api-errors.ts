import { APIConnectionError, APIError } from 'openai';
import { AiDriverError, type AiErrorKind } from './chat-driver';

const MODERATION = /content_policy|content_filter|moderation|safety/i;

/** The kind of an HTTP status from an OpenAI-compatible server (also used by the video generators). */
export function kindOfStatus(status: number, code = ''): AiErrorKind {
  if (status === 401 || status === 403) return 'credentials';
  if (status === 402) return 'billing';
  if (status === 429) return /insufficient_quota|billing/i.test(code) ? 'billing' : 'rate_limit';
  if (status >= 500) return 'unavailable';
  if (MODERATION.test(code)) return 'moderation';
  return 'bad_request';
}

/** Any failure of an SDK call as an AiDriverError with the provider's own words as detail (never the key). */
export function toDriverError(err: unknown): AiDriverError {
  if (err instanceof AiDriverError) return err;
  if (err instanceof APIError && typeof err.status === 'number') {
    const code = `${err.code ?? ''} ${err.type ?? ''}`;
    const kind = kindOfStatus(err.status, code);
    return new AiDriverError(kind, `kadr.ai_errors.${kind}`, clip(providerMessage(err)));
  }
  if (err instanceof APIConnectionError)
    return new AiDriverError('network', 'kadr.ai_errors.network', clip(causeOf(err)));
  return new AiDriverError('network', 'kadr.ai_errors.network', clip(err instanceof Error ? err.message : String(err)));
}

function providerMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : `HTTP ${err.status}`;
}

function causeOf(err: Error): string {
  let e: unknown = err;
  const parts: string[] = [];
  while (e instanceof Error && parts.length < 4) {
    if (e.message) parts.push(e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);
