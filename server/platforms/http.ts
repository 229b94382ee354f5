/**
 * Outbound HTTP for platform drivers, one client per account proxy.
 *
 * - `proxy`: http://, https:// (HTTP CONNECT tunnel) or socks5:// / socks5h:// (SOCKS5, hostname
 *   resolved by the proxy), each with optional user:pass. No proxy means a direct connection.
 * - `ipVersion`: the address family used to resolve and connect to the proxy (or, without a proxy,
 *   to the platform host): 'ipv4' → family 4, 'ipv6' → family 6.
 * - `connectTimeoutMs` bounds the TCP/TLS/SOCKS handshake; `timeoutMs` bounds the whole exchange
 *   (headers and body). Nothing here can hang.
 * - Any failure to reach or use the proxy becomes `PlatformError` kind 'proxy' with a readable
 *   message ("Проксі недоступний: …"); other network failures become kind 'retry-later'.
 */
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, Pool, ProxyAgent, buildConnector, request as undiciRequest, type Dispatcher } from 'undici';
import { SocksClient } from 'socks';
import { PlatformError, type PlatformName } from './types';

export type IpVersion = 'ipv4' | 'ipv6';

export interface ParsedProxy {
  protocol: 'http' | 'https' | 'socks5';
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Normalised URL including credentials (keep it secret). */
  url: string;
  /** `host:port` only, safe for messages and logs. */
  display: string;
}

export type ProxyParseResult = { ok: true; proxy: ParsedProxy } | { ok: false; error: string };

export const PROXY_MESSAGES = {
  required: "Проксі обов'язковий",
  invalid: 'Невірний формат проксі: очікується http://, https:// або socks5://[логін:пароль@]хост:порт',
  protocol: 'Непідтримуваний протокол проксі: дозволені http://, https://, socks5://',
  port: 'Невірний порт проксі: має бути числом від 1 до 65535',
  host: 'Невірний хост проксі',
} as const;

const DEFAULT_PORTS: Record<ParsedProxy['protocol'], number> = { http: 80, https: 443, socks5: 1080 };

/**
 * Validates and normalises a proxy string. Pure; returns a field error message on bad input.
 * Accepts `scheme://[user:pass@]host:port` (http, https, socks5, socks5h, socks), and the sellers'
 * shorthand `host:port` and `host:port:user:pass` (taken as http).
 */
export function parseProxyUrl(input: string | null | undefined): ProxyParseResult {
  const s = (input ?? '').trim();
  if (!s) return { ok: false, error: PROXY_MESSAGES.required };
  let candidate = s;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    // host:port or host:port:user:pass (IPv4 or a hostname; IPv6 needs the URL form with brackets).
    const parts = s.split(':');
    if (parts.length === 2) candidate = `http://${parts[0]}:${parts[1]}`;
    else if (parts.length === 4)
      candidate = `http://${encodeURIComponent(parts[2]!)}:${encodeURIComponent(parts[3]!)}@${parts[0]}:${parts[1]}`;
    else return { ok: false, error: PROXY_MESSAGES.invalid };
  }
  const scheme = candidate.slice(0, candidate.indexOf(':')).toLowerCase();
  const protocol: ParsedProxy['protocol'] | undefined =
    scheme === 'http' ? 'http' : scheme === 'https' ? 'https' : ['socks5', 'socks5h', 'socks'].includes(scheme) ? 'socks5' : undefined;
  if (!protocol) return { ok: false, error: PROXY_MESSAGES.protocol };
  // WHATWG URL treats unknown schemes opaquely; parse socks as http to get host/port/auth.
  const portMatch = /^[a-z0-9+.-]+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?/i.exec(candidate);
  const rawPort = portMatch?.[1];
  if (rawPort !== undefined && (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535)) {
    return { ok: false, error: PROXY_MESSAGES.port };
  }
  let u: URL;
  try {
    u = new URL(candidate.replace(/^[a-z0-9+.-]+:\/\//i, 'http://'));
  } catch {
    return { ok: false, error: PROXY_MESSAGES.invalid };
  }
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash) return { ok: false, error: PROXY_MESSAGES.invalid };
  const host = u.hostname;
  if (!host || /[\s]/.test(host) || host.startsWith('.') || host.endsWith('..')) return { ok: false, error: PROXY_MESSAGES.host };
  const port = rawPort !== undefined ? Number(rawPort) : DEFAULT_PORTS[protocol];
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, error: PROXY_MESSAGES.port };
  let username: string | undefined;
  let password: string | undefined;
  try {
    username = u.username ? decodeURIComponent(u.username) : undefined;
    password = u.password ? decodeURIComponent(u.password) : undefined;
  } catch {
    return { ok: false, error: PROXY_MESSAGES.invalid };
  }
  const auth = username !== undefined ? `${encodeURIComponent(username)}${password !== undefined ? ':' + encodeURIComponent(password) : ''}@` : '';
  const display = `${host}:${port}`;
  return {
    ok: true,
    proxy: { protocol, host, port, username, password, url: `${protocol}://${auth}${display}`, display },
  };
}

/** The field error for a proxy string, or null when it is valid. */
export function proxyFieldError(input: string | null | undefined): string | null {
  const r = parseProxyUrl(input);
  return r.ok ? null : r.error;
}

// ---------------------------------------------------------------------------------------------

export type FormValue = string | number | boolean | null | undefined;

export type RequestBody =
  | { json: unknown }
  | { form: Record<string, FormValue> | URLSearchParams }
  | {
      stream: Readable | AsyncIterable<Uint8Array> | Buffer | Uint8Array | string;
      contentType?: string;
      contentLength?: number;
    };

export interface PlatformRequestOptions {
  method?: string;
  headers?: Record<string, string | undefined>;
  /** Appended to the URL's query string (undefined values skipped). */
  query?: Record<string, FormValue>;
  body?: RequestBody;
  signal?: AbortSignal;
  /** Overrides the client's overall timeout for this request (uploads need more). */
  timeoutMs?: number;
}

export interface PlatformResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  url: string;
  text(): Promise<string>;
  /** Parses JSON; an empty body gives null; invalid JSON gives PlatformError 'retry-later'. */
  json<T = unknown>(): Promise<T>;
  /** The raw body stream (consume it or call dump()). */
  body: Readable;
  dump(): Promise<void>;
}

export interface PlatformHttpOptions {
  proxy?: string | null;
  ipVersion?: IpVersion;
  /** Overall timeout per request (default 30 s). */
  timeoutMs?: number;
  /** TCP/TLS/SOCKS handshake timeout (default min(10 s, timeoutMs)). */
  connectTimeoutMs?: number;
  /** Used in error messages. */
  platform?: PlatformName;
  /** Test hook: DNS lookup used for the proxy (or direct) connection. */
  lookup?: LookupFunction;
}

export interface PlatformHttp {
  request(url: string | URL, options?: PlatformRequestOptions): Promise<PlatformResponse>;
  readonly proxy: ParsedProxy | null;
  readonly ipVersion: IpVersion;
  close(): Promise<void>;
}

const PROXY_CONNECT_FAILED = Symbol('proxy-connect-failed');

/** Marks an error raised while talking to the proxy itself (SOCKS handshake). */
function markProxyError<E>(err: E): E {
  if (err && typeof err === 'object') (err as any)[PROXY_CONNECT_FAILED] = true;
  return err;
}

function socksConnector(proxy: ParsedProxy, family: 4 | 6, connectTimeoutMs: number, lookup?: LookupFunction): buildConnector.connector {
  const tlsUpgrade = buildConnector({ timeout: connectTimeoutMs });
  return (options, callback) => {
    const port = options.port ? Number(options.port) : options.protocol === 'https:' ? 443 : 80;
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    SocksClient.createConnection({
      proxy: { host: proxy.host, port: proxy.port, type: 5, userId: proxy.username, password: proxy.password },
      command: 'connect',
      destination: { host, port },
      timeout: connectTimeoutMs,
      socket_options: { family, ...(lookup ? { lookup } : {}) } as any,
    }).then(
      ({ socket }) => {
        if (options.protocol === 'https:') {
          tlsUpgrade({ ...options, httpSocket: socket }, callback);
        } else {
          callback(null, socket.setNoDelay(true));
        }
      },
      (err) => callback(markProxyError(err), null),
    );
  };
}

function buildDispatcher(proxy: ParsedProxy | null, family: 4 | 6, timeoutMs: number, connectTimeoutMs: number, lookup?: LookupFunction): Dispatcher {
  const common = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 8, keepAliveTimeout: 4_000 };
  const netOpts = { timeout: connectTimeoutMs, family, autoSelectFamily: false, ...(lookup ? { lookup } : {}) };
  if (!proxy) return new Agent({ ...common, connect: netOpts });
  if (proxy.protocol === 'socks5') return new Agent({ ...common, connect: socksConnector(proxy, family, connectTimeoutMs, lookup) });
  return new ProxyAgent({
    ...common,
    uri: proxy.url,
    proxyTls: netOpts as any,
    requestTls: { timeout: connectTimeoutMs },
    // The CONNECT exchange with the proxy gets the connect timeout too (undici's default is 300 s).
    clientFactory: (origin, opts) => new Pool(origin, { ...opts, headersTimeout: connectTimeoutMs, bodyTimeout: connectTimeoutMs }),
  });
}

function appendQuery(url: URL, query?: Record<string, FormValue>) {
  if (!query) return;
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) url.searchParams.append(k, String(v));
}

function formBody(form: Record<string, FormValue> | URLSearchParams): string {
  if (form instanceof URLSearchParams) return form.toString();
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined && v !== null) p.append(k, String(v));
  return p.toString();
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
  'EADDRNOTAVAIL', 'ECONNABORTED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);

function errorChain(err: unknown): any[] {
  const out: any[] = [];
  let e: any = err;
  for (let i = 0; e && i < 6; i++) {
    out.push(e);
    if (e instanceof AggregateError && e.errors?.length) out.push(...e.errors);
    e = e.cause;
  }
  return out;
}

function describeNetworkError(chain: any[]): string {
  const msgs = chain.map((e) => String(e?.message ?? '')).join(' | ');
  const codes = [...(chain.map((e) => e?.code).filter(Boolean) as string[]), ...(msgs.match(/\bE[A-Z_]{4,}\b/g) ?? [])];
  if (codes.includes('ECONNREFUSED')) return "з'єднання відхилено";
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT') || codes.includes('ETIMEDOUT') || /timeout|timed out/i.test(msgs)) return 'не відповідає (тайм-аут з’єднання)';
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) return 'хост не знайдено (DNS)';
  if (codes.includes('EHOSTUNREACH') || codes.includes('ENETUNREACH') || codes.includes('EADDRNOTAVAIL')) return 'мережа або хост недосяжні';
  if (codes.includes('ECONNRESET') || codes.includes('UND_ERR_SOCKET') || codes.includes('EPIPE')) return "з'єднання розірвано";
  return msgs.split(' | ')[0] || 'невідома мережева помилка';
}

/** Turns a low-level failure into a PlatformError. Exported for tests. */
export function classifyNetworkError(err: unknown, ctx: { proxy: ParsedProxy | null; platform?: PlatformName; url: string }): PlatformError {
  if (err instanceof PlatformError) return err;
  const chain = errorChain(err);
  const msgs = chain.map((e) => String(e?.message ?? '')).join(' | ');
  const where = ctx.platform ? ` (${ctx.platform})` : '';
  if (ctx.proxy) {
    const p = ctx.proxy.display;
    const status = /Proxy response \((\d+)\)/.exec(msgs)?.[1];
    if (status === '407' || /Proxy Authentication Required|authentication failed|Socks5 Authentication failed/i.test(msgs)) {
      return new PlatformError({ kind: 'proxy', code: 'proxy_auth', message: `Проксі недоступний: невірний логін або пароль проксі (${p})`, cause: err, platform: ctx.platform });
    }
    if (status) {
      return new PlatformError({
        kind: 'proxy', code: 'proxy_refused', httpStatus: Number(status), cause: err, platform: ctx.platform,
        message: `Проксі недоступний: проксі ${p} не зміг з'єднатися з платформою${where} (відповідь ${status})`,
      });
    }
    const socksStage = chain.some((e) => e?.[PROXY_CONNECT_FAILED]);
    if (socksStage && /Socks5 proxy rejected connection|HostUnreachable|NetworkUnreachable|ConnectionRefused|TTLExpired/i.test(msgs)) {
      return new PlatformError({
        kind: 'proxy', code: 'proxy_refused', cause: err, platform: ctx.platform,
        message: `Проксі недоступний: проксі ${p} не зміг з'єднатися з платформою${where}`,
      });
    }
    // A proxy that accepts the connection but never answers the CONNECT ends in a headers or connect timeout.
    const stalled = chain.some((e) => e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_CONNECT_TIMEOUT');
    if (stalled || socksStage || chain.some((e) => NETWORK_CODES.has(e?.code)) || /socket|ECONN|connect/i.test(msgs)) {
      return new PlatformError({ kind: 'proxy', code: 'proxy_unreachable', message: `Проксі недоступний: ${p} — ${describeNetworkError(chain)}`, cause: err, platform: ctx.platform });
    }
    if (chain.some((e) => String(e?.code ?? '').startsWith('ERR_TLS') || /certificate/i.test(String(e?.message)))) {
      return new PlatformError({ kind: 'proxy', code: 'proxy_tls', message: `Проксі недоступний: помилка TLS через проксі ${p} (${chain[0]?.message ?? ''})`, cause: err, platform: ctx.platform });
    }
  }
  if (chain.some((e) => NETWORK_CODES.has(e?.code) || String(e?.code ?? '').startsWith('ERR_TLS'))) {
    let host = ctx.url;
    try { host = new URL(ctx.url).host; } catch { /* keep */ }
    return new PlatformError({ kind: 'retry-later', code: 'network', message: `Немає з'єднання з ${host}: ${describeNetworkError(chain)}`, cause: err, platform: ctx.platform });
  }
  return new PlatformError({ kind: 'retry-later', code: 'network', message: `Помилка мережі: ${chain[0]?.message ?? String(err)}`, cause: err, platform: ctx.platform });
}

function rejectOnAbort(signal: AbortSignal, pending: Promise<Dispatcher.ResponseData>): Promise<never> {
  return new Promise<never>((_, reject) => {
    const onAbort = () => {
      // If undici answers after all, free the connection.
      pending.then((r) => r.body.dump().catch(() => {}), () => {});
      reject(signal.reason ?? new Error('aborted'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      () => signal.removeEventListener('abort', onAbort),
      () => signal.removeEventListener('abort', onAbort),
    );
  });
}

function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function createPlatformHttp(options: PlatformHttpOptions = {}): PlatformHttp {
  let proxy: ParsedProxy | null = null;
  if (options.proxy) {
    const parsed = parseProxyUrl(options.proxy);
    if (!parsed.ok) throw new PlatformError({ kind: 'proxy', code: 'proxy_invalid', message: `Проксі недоступний: ${parsed.error}`, platform: options.platform });
    proxy = parsed.proxy;
  }
  const ipVersion: IpVersion = options.ipVersion ?? 'ipv4';
  const family = ipVersion === 'ipv6' ? 6 : 4;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(10_000, timeoutMs);
  const dispatcher = buildDispatcher(proxy, family, timeoutMs, connectTimeoutMs, options.lookup);

  async function request(input: string | URL, opts: PlatformRequestOptions = {}): Promise<PlatformResponse> {
    const url = new URL(String(input));
    appendQuery(url, opts.query);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    headers['accept'] ??= 'application/json';
    let body: string | Buffer | Uint8Array | Readable | undefined;
    const b = opts.body;
    if (b && 'json' in b) {
      body = JSON.stringify(b.json);
      headers['content-type'] ??= 'application/json; charset=UTF-8';
    } else if (b && 'form' in b) {
      body = formBody(b.form);
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (b && 'stream' in b) {
      const s = b.stream;
      body = typeof s === 'string' || Buffer.isBuffer(s) || s instanceof Uint8Array || s instanceof Readable ? s : Readable.from(s);
      if (b.contentType) headers['content-type'] ??= b.contentType;
      if (b.contentLength !== undefined) headers['content-length'] ??= String(b.contentLength);
    }
    const method = (opts.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase();
    const perRequestTimeout = opts.timeoutMs ?? timeoutMs;
    const timeoutSignal = AbortSignal.timeout(perRequestTimeout);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeoutSignal]) : timeoutSignal;
    const onTimeout = () =>
      new PlatformError({
        kind: proxy ? 'proxy' : 'retry-later',
        code: 'timeout',
        platform: options.platform,
        message: proxy
          ? `Проксі недоступний: немає відповіді через ${proxy.display} за ${Math.round(perRequestTimeout / 1000)} с`
          : `Платформа не відповіла за ${Math.round(perRequestTimeout / 1000)} с (${url.host})`,
      });

    let res: Dispatcher.ResponseData;
    try {
      const pending = undiciRequest(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher,
        signal,
        headersTimeout: perRequestTimeout,
        bodyTimeout: perRequestTimeout,
      });
      // Belt and braces: whatever state undici is in (e.g. a proxy stalling mid-handshake), the
      // caller gets an answer when the signal fires.
      res = await Promise.race([pending, rejectOnAbort(signal, pending)]);
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? err;
      if (timeoutSignal.aborted) throw onTimeout();
      throw classifyNetworkError(err, { proxy, platform: options.platform, url: url.href });
    }
    const wrapRead = async <T>(fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (err) {
        if (err instanceof PlatformError) throw err;
        if (opts.signal?.aborted) throw opts.signal.reason ?? err;
        if (timeoutSignal.aborted) throw onTimeout();
        throw classifyNetworkError(err, { proxy, platform: options.platform, url: url.href });
      }
    };
    const readable = res.body as unknown as Readable;
    let textPromise: Promise<string> | undefined;
    const text = () => (textPromise ??= wrapRead(() => res.body.text()));
    return {
      status: res.statusCode,
      headers: headerRecord(res.headers),
      url: url.href,
      body: readable,
      text,
      json: async <T>() => {
        const t = await text();
        if (!t.trim()) return null as T;
        try {
          return JSON.parse(t) as T;
        } catch {
          throw new PlatformError({
            kind: 'retry-later', code: 'invalid_json', httpStatus: res.statusCode, platform: options.platform,
            message: `Платформа повернула некоректну відповідь (HTTP ${res.statusCode})`, raw: t.slice(0, 500),
          });
        }
      },
      dump: () => wrapRead(() => res.body.dump()),
    };
  }

  return {
    request,
    proxy,
    ipVersion,
    // Graceful close, but never wait long for a connection stuck in a stalled proxy.
    close: async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([dispatcher.close().catch(() => {}), new Promise<void>((r) => (timer = setTimeout(r, 1_000)))]);
      clearTimeout(timer);
      await dispatcher.destroy().catch(() => {});
    },
  };
}
