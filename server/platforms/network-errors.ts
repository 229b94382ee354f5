/**
 * Low-level failures of a platform call (sockets, DNS, TLS, proxies) turned into PlatformErrors: any failure to
 * reach or use the proxy is kind 'proxy', other network failures kind 'retry-later'. Messages are stored keys
 * of kadr.platform_errors naming the proxy by `host:port` only, never its credentials.
 */
import type { ParsedProxy } from '../../src/contract/proxy';
import { isProxyHandshakeError } from './proxy-connector';
import { PROXY_REFUSED_CODE } from './proxy-guard';
import { PlatformError, platformMessage, type PlatformId } from './types';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EADDRNOTAVAIL',
  'ECONNABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** What the classifier reads of a failure and of each of its causes (any of them may be missing). */
type Failure = { error: unknown; message?: unknown; code?: string; cause?: unknown };

const asFailure = (error: unknown): Failure => {
  if (error === null || typeof error !== 'object') return { error };
  const { message, code, cause } = error as Record<string, unknown>;
  return { error, message, code: typeof code === 'string' ? code : undefined, cause };
};

function errorChain(err: unknown): Failure[] {
  const out: Failure[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 6; i++) {
    out.push(asFailure(e));
    if (e instanceof AggregateError && e.errors?.length) out.push(...e.errors.map(asFailure));
    e = asFailure(e).cause;
  }
  return out;
}

/** The reason of a network failure: a stored message (never the system's or a library's own words). */
function describeNetworkError(chain: Failure[]): string {
  const msgs = chain.map((e) => String(e?.message ?? '')).join(' | ');
  const codes = [...chain.flatMap((e) => (e.code ? [e.code] : [])), ...(msgs.match(/\bE[A-Z_]{4,}\b/g) ?? [])];
  const has = (...c: string[]) => c.some((x) => codes.includes(x));
  if (has('ECONNREFUSED')) return platformMessage('net_refused');
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT') || /timeout|timed out/i.test(msgs))
    return platformMessage('net_timeout');
  if (has('ENOTFOUND', 'EAI_AGAIN')) return platformMessage('net_dns');
  if (has('EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL')) return platformMessage('net_unreachable');
  if (has('ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE')) return platformMessage('net_reset');
  if (
    chain.some((e) => String(e?.code ?? '').startsWith('ERR_TLS') || /certificate|TLS|SSL/i.test(String(e?.message)))
  ) {
    return platformMessage('net_tls');
  }
  return platformMessage('net_unknown');
}

export interface NetworkErrorContext {
  proxy: ParsedProxy | null;
  platform?: PlatformId;
  url: string;
}

function proxyError(
  err: unknown,
  chain: Failure[],
  ctx: NetworkErrorContext & { proxy: ParsedProxy },
): PlatformError | null {
  const msgs = chain.map((e) => String(e?.message ?? '')).join(' | ');
  const proxy = ctx.proxy.display;
  const base = { kind: 'proxy', cause: err, platform: ctx.platform } as const;
  // A proxy on a loopback, private or link-local address (server/platforms/proxy-guard.ts): no address, no port.
  if (chain.some((e) => e?.code === PROXY_REFUSED_CODE)) {
    return new PlatformError({ ...base, code: 'proxy_refused', key: 'proxy_refused' });
  }
  const status = /Proxy response \((\d+)\)/.exec(msgs)?.[1];
  if (
    status === '407' ||
    /Proxy Authentication Required|authentication failed|Socks5 Authentication failed/i.test(msgs)
  ) {
    return new PlatformError({ ...base, code: 'proxy_auth', key: 'proxy_auth', params: { proxy } });
  }
  if (status) {
    const params = { proxy, status: Number(status) };
    return new PlatformError({
      ...base,
      code: 'proxy_refused',
      httpStatus: Number(status),
      key: 'proxy_cannot_reach_status',
      params,
    });
  }
  const socksStage = chain.some((e) => isProxyHandshakeError(e.error));
  if (
    socksStage &&
    /Socks5 proxy rejected connection|HostUnreachable|NetworkUnreachable|ConnectionRefused|TTLExpired/i.test(msgs)
  ) {
    return new PlatformError({ ...base, code: 'proxy_refused', key: 'proxy_cannot_reach', params: { proxy } });
  }
  // A proxy that accepts the connection but never answers the CONNECT ends in a headers or connect timeout.
  const stalled = chain.some((e) => e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_CONNECT_TIMEOUT');
  if (
    stalled ||
    socksStage ||
    chain.some((e) => NETWORK_CODES.has(e.code ?? '')) ||
    /socket|ECONN|connect/i.test(msgs)
  ) {
    const params = { proxy, reason: describeNetworkError(chain) };
    return new PlatformError({ ...base, code: 'proxy_unreachable', key: 'proxy_unreachable', params });
  }
  if (chain.some((e) => String(e?.code ?? '').startsWith('ERR_TLS') || /certificate/i.test(String(e?.message)))) {
    const params = { proxy, error: platformMessage('net_tls') };
    return new PlatformError({ ...base, code: 'proxy_tls', key: 'proxy_tls', params });
  }
  return null;
}

/** Turns a low-level failure into a PlatformError. Exported for tests. */
export function classifyNetworkError(err: unknown, ctx: NetworkErrorContext): PlatformError {
  if (err instanceof PlatformError) return err;
  const chain = errorChain(err);
  const viaProxy = ctx.proxy ? proxyError(err, chain, { ...ctx, proxy: ctx.proxy }) : null;
  if (viaProxy) return viaProxy;
  const base = { kind: 'retry-later', code: 'network', cause: err, platform: ctx.platform } as const;
  if (chain.some((e) => NETWORK_CODES.has(e.code ?? '') || String(e?.code ?? '').startsWith('ERR_TLS'))) {
    let host = ctx.url;
    try {
      host = new URL(ctx.url).host;
    } catch {
      /* keep the raw text */
    }
    return new PlatformError({
      ...base,
      key: 'host_unreachable',
      params: { host, reason: describeNetworkError(chain) },
    });
  }
  // Whatever the library said stays in `cause` (logs); the user reads a stored message.
  return new PlatformError({ ...base, key: 'network', params: { error: platformMessage('net_unknown') } });
}
