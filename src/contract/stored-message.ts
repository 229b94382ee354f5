/**
 * Messages kept in the database (a profile's `error`, `errorYouTube`, …) as i18n keys with parameters, so each
 * reader sees them in their own language: the panel translates them when shown, the server per
 * Accept-Language when one becomes an API error.
 *
 * Encoding: the key alone (`kadr.accounts.errors.connect_failed`), or the key, one space and a JSON object of
 * parameters (`kadr.platform_errors.proxy_auth {"proxy":"10.0.0.1:8080"}`). A parameter may itself be an
 * encoded message (a cause inside a reason); it is translated too. Anything else (rows written before keys,
 * Ukrainian sentences) is not a key and is shown as it is.
 */
export type MessageParams = Record<string, string | number>;

export interface StoredMessage {
  key: string;
  params: MessageParams;
}

const ENCODED = /^([A-Za-z]\w*(?:\.\w+)+)(?: (\{.*\}))?$/s;

export function encodeMessage(key: string, params: MessageParams = {}): string {
  return Object.keys(params).length ? `${key} ${JSON.stringify(params)}` : key;
}

/** The key and parameters of an encoded message; null for plain text. */
export function decodeMessage(stored: string): StoredMessage | null {
  const m = ENCODED.exec(stored);
  if (!m) return null;
  if (!m[2]) return { key: m[1]!, params: {} };
  try {
    const raw: unknown = JSON.parse(m[2]);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
    const params: MessageParams = {};
    for (const [k, v] of Object.entries(raw)) params[k] = typeof v === 'number' ? v : String(v);
    return { key: m[1]!, params };
  } catch {
    return null;
  }
}

/** Translates a stored message with `t`; plain text comes back unchanged. */
export function renderMessage(stored: string, t: (key: string, params: MessageParams) => string, depth = 0): string {
  const msg = decodeMessage(stored);
  if (!msg) return stored;
  const params: MessageParams = {};
  for (const [k, v] of Object.entries(msg.params)) {
    params[k] = typeof v === 'string' && depth < 3 ? renderMessage(v, t, depth + 1) : v;
  }
  return t(msg.key, params);
}

/**
 * The keys of a message that carries a platform's or an AI provider's own words after ours
 * (server/platforms/types.ts platformMessage, server/ai/ai-record.ts driverErrorMessage), each with whose words
 * they are: the label the panel puts before them (kadr.common.detail_label).
 */
export const WITH_DETAIL_KEYS = {
  'kadr.platform_errors.with_detail': 'platform',
  'kadr.ai_errors.with_detail': 'provider',
} as const;

export type DetailSource = (typeof WITH_DETAIL_KEYS)[keyof typeof WITH_DETAIL_KEYS];

const sourceOf = (key: string): DetailSource | undefined =>
  Object.prototype.hasOwnProperty.call(WITH_DETAIL_KEYS, key)
    ? WITH_DETAIL_KEYS[key as keyof typeof WITH_DETAIL_KEYS]
    : undefined;

/**
 * A stored message split into ours and the provider's own words: `message` is translated by the reader,
 * `detail` is shown as it is, apart and labelled by `source` (null when the message has none). A detail that is
 * itself one of our messages (a network failure's reason) is no one else's words: it stays in the sentence.
 */
export function splitDetail(stored: string): { message: string; detail: string | null; source: DetailSource | null } {
  const msg = decodeMessage(stored);
  const source = msg ? sourceOf(msg.key) : undefined;
  if (!msg || !source || typeof msg.params.message !== 'string') return { message: stored, detail: null, source: null };
  const detail = msg.params.detail;
  if (detail === undefined || detail === '') return { message: msg.params.message, detail: null, source: null };
  if (typeof detail === 'string' && decodeMessage(detail)) return { message: stored, detail: null, source: null };
  return { message: msg.params.message, detail: String(detail), source };
}

/**
 * Whether a stored message says a profile's proxy failed (`kadr.platform_errors.proxy_*`, also as the message of a
 * platform's words): what a new proxy may fix.
 */
export function isProxyFailure(stored: string | null | undefined, depth = 0): boolean {
  const msg = stored ? decodeMessage(stored) : null;
  if (!msg) return false;
  if (msg.key === 'kadr.platform_errors.with_detail' && depth < 3)
    return isProxyFailure(String(msg.params.message ?? ''), depth + 1);
  return msg.key.startsWith('kadr.platform_errors.proxy_');
}
