/**
 * The one proxy grammar, shared by the panel's form check and the server's outbound connections.
 *
 * Accepts `scheme://[user:pass@]host[:port]` with scheme http, https, socks5, socks5h or socks (socks5h and
 * socks are SOCKS5 with the hostname resolved by the proxy), and the sellers' shorthands `host:port` and
 * `host:port:user:pass` (taken as http). IPv6 hosts need the URL form with brackets. Pure: no I/O.
 */
export type ProxyProtocol = 'http' | 'https' | 'socks5';

export interface ParsedProxy {
  protocol: ProxyProtocol;
  /** Lower-cased host name or address (IPv6 in brackets). */
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Normalised URL including credentials (keep it secret). */
  url: string;
  /** `host:port` only, safe for messages and logs. */
  display: string;
}

/** Why a proxy string was refused; each reason has a message key in kadr.platform_errors. */
export type ProxyError = 'required' | 'invalid' | 'protocol' | 'port' | 'host';
export const PROXY_ERROR_KEYS: Record<ProxyError, string> = {
  required: 'kadr.platform_errors.proxy_reason_required',
  invalid: 'kadr.platform_errors.proxy_reason_invalid',
  protocol: 'kadr.platform_errors.proxy_reason_protocol',
  port: 'kadr.platform_errors.proxy_reason_port',
  host: 'kadr.platform_errors.proxy_reason_host',
};

export type ProxyParseResult = { ok: true; proxy: ParsedProxy } | { ok: false; error: ProxyError };

const DEFAULT_PORTS: Record<ProxyProtocol, number> = { http: 80, https: 443, socks5: 1080 };
const SCHEMES: Record<string, ProxyProtocol> = {
  http: 'http',
  https: 'https',
  socks5: 'socks5',
  socks5h: 'socks5',
  socks: 'socks5',
};
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const fail = (error: ProxyError): ProxyParseResult => ({ ok: false, error });

/** The URL form of the sellers' shorthands; null when the string is neither a URL nor a shorthand. */
function withScheme(s: string): string | null {
  if (HAS_SCHEME.test(s)) return s;
  const parts = s.split(':');
  if (parts.length === 2) return `http://${parts[0]}:${parts[1]}`;
  if (parts.length === 4) {
    return `http://${encodeURIComponent(parts[2]!)}:${encodeURIComponent(parts[3]!)}@${parts[0]}:${parts[1]}`;
  }
  return null;
}

function decode(s: string): string | undefined | null {
  try {
    return s ? decodeURIComponent(s) : undefined;
  } catch {
    return null;
  }
}

/** Validates and normalises a proxy string. */
export function parseProxy(input: string | null | undefined): ProxyParseResult {
  const s = (input ?? '').trim();
  if (!s) return fail('required');
  if (/\s/.test(s)) return fail('invalid');
  const candidate = withScheme(s);
  if (!candidate) return fail('invalid');
  const protocol = SCHEMES[candidate.slice(0, candidate.indexOf(':')).toLowerCase()];
  if (!protocol) return fail('protocol');
  // WHATWG URL treats unknown schemes opaquely and drops default ports: read the port by hand first.
  const rawPort = /^[a-z0-9+.-]+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?/i.exec(candidate)?.[1];
  if (rawPort !== undefined && (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535)) {
    return fail('port');
  }
  let u: URL;
  try {
    u = new URL(candidate.replace(/^[a-z0-9+.-]+:\/\//i, 'http://'));
  } catch {
    return fail('invalid');
  }
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash) return fail('invalid');
  const host = u.hostname;
  if (!host || host.startsWith('.') || host.endsWith('..')) return fail('host');
  const port = rawPort !== undefined ? Number(rawPort) : DEFAULT_PORTS[protocol];
  const username = decode(u.username);
  const password = decode(u.password);
  if (username === null || password === null) return fail('invalid');
  const auth =
    username !== undefined
      ? `${encodeURIComponent(username)}${password !== undefined ? ':' + encodeURIComponent(password) : ''}@`
      : '';
  const display = `${host}:${port}`;
  return {
    ok: true,
    proxy: { protocol, host, port, username, password, url: `${protocol}://${auth}${display}`, display },
  };
}

/** Whether a proxy string is usable (the form's check). */
export const isValidProxy = (input: string | null | undefined): boolean => parseProxy(input).ok;
