import { APIError } from 'openai';
import { classifyNetworkError, type NetworkErrorContext } from '../../platforms/network-errors';
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

/**
 * Any failure of an SDK call as an AiDriverError: an answer keeps the provider's own words as detail (never the
 * key); a failure to connect is told as the platforms tell theirs (server/platforms/network-errors.ts: the
 * proxy by host:port and the reason as a stored message, never a library's text), and blames the session's
 * proxy only when the call went through one.
 */
export function toDriverError(err: unknown, net: NetworkErrorContext): AiDriverError {
  if (err instanceof AiDriverError) return err;
  if (err instanceof APIError && typeof err.status === 'number') {
    const code = `${err.code ?? ''} ${err.type ?? ''}`;
    const kind = kindOfStatus(err.status, code);
    return new AiDriverError(kind, `kadr.ai_errors.${kind}`, clip(providerMessage(err)));
  }
  return networkError(err, net);
}

/** A failure to reach a provider (chat or video) as an AiDriverError whose detail is a stored message. */
export function networkError(err: unknown, net: NetworkErrorContext): AiDriverError {
  const key = net.proxy ? 'kadr.ai_errors.network' : 'kadr.ai_errors.network_direct';
  return new AiDriverError('network', key, classifyNetworkError(err, net).message);
}

function providerMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : `HTTP ${err.status}`;
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);
