/**
 * Outbound HTTP for platform drivers, one client per account proxy.
 *
 * - `proxy`: a proxy string in the grammar of src/contract/proxy.ts (http://, https:// CONNECT tunnel,
 *   socks5:// / socks5h://, with optional user:pass); none means a direct connection. The connections
 *   themselves are opened in ./proxy-connector.ts.
 * - `ipVersion`: the address family used to resolve and connect to the proxy (or, without a proxy,
 *   to the platform host): 'ipv4' → family 4, 'ipv6' → family 6.
 * - `connectTimeoutMs` bounds the TCP/TLS/SOCKS handshake; `timeoutMs` bounds the whole exchange
 *   (headers and body). Nothing here can hang.
 * - Any failure to reach or use the proxy becomes `PlatformError` kind 'proxy' (./network-errors.ts);
 *   other network failures become kind 'retry-later'.
 */
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { request as undiciRequest, type Dispatcher } from 'undici';
import type { IpVersion } from '../../src/contract/accounts';
import { PROXY_ERROR_KEYS, parseProxy, type ParsedProxy } from '../../src/contract/proxy';
import { classifyNetworkError } from './network-errors';
import { buildProxyDispatcher } from './proxy-connector';
import { PlatformError, type PlatformId } from './types';

export type { IpVersion, ParsedProxy };
export { classifyNetworkError };

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
  platform?: PlatformId;
  /** Test hook: DNS lookup used for the proxy (or direct) connection. */
  lookup?: LookupFunction;
  /**
   * Take a proxy on loopback, a private or link-local network (config ALLOW_PRIVATE_PROXIES). Off by default:
   * such a proxy fails every call with PlatformError kind 'proxy', key 'proxy_refused'.
   */
  allowPrivateProxy?: boolean;
}

export interface PlatformHttp {
  request(url: string | URL, options?: PlatformRequestOptions): Promise<PlatformResponse>;
  readonly proxy: ParsedProxy | null;
  readonly ipVersion: IpVersion;
  close(): Promise<void>;
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

function rejectOnAbort(signal: AbortSignal, pending: Promise<Dispatcher.ResponseData>): Promise<never> {
  return new Promise<never>((_, reject) => {
    const onAbort = () => {
      // If undici answers after all, free the connection.
      pending.then(
        (r) => r.body.dump().catch(() => {}),
        () => {},
      );
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
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function createPlatformHttp(options: PlatformHttpOptions = {}): PlatformHttp {
  let proxy: ParsedProxy | null = null;
  if (options.proxy) {
    const parsed = parseProxy(options.proxy);
    if (!parsed.ok) {
      const params = { reason: PROXY_ERROR_KEYS[parsed.error] };
      throw new PlatformError({
        kind: 'proxy',
        code: 'proxy_invalid',
        key: 'proxy_invalid',
        params,
        platform: options.platform,
      });
    }
    proxy = parsed.proxy;
  }
  const ipVersion: IpVersion = options.ipVersion ?? 'ipv4';
  const family = ipVersion === 'ipv6' ? 6 : 4;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(10_000, timeoutMs);
  const dispatcher = buildProxyDispatcher({
    proxy,
    family,
    timeoutMs,
    connectTimeoutMs,
    lookup: options.lookup,
    allowPrivateProxy: options.allowPrivateProxy,
  });

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
      body =
        typeof s === 'string' || Buffer.isBuffer(s) || s instanceof Uint8Array || s instanceof Readable
          ? s
          : Readable.from(s);
      if (b.contentType) headers['content-type'] ??= b.contentType;
      if (b.contentLength !== undefined) headers['content-length'] ??= String(b.contentLength);
    }
    const method = (opts.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase();
    const perRequestTimeout = opts.timeoutMs ?? timeoutMs;
    const timeoutSignal = AbortSignal.timeout(perRequestTimeout);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeoutSignal]) : timeoutSignal;
    const seconds = Math.round(perRequestTimeout / 1000);
    const onTimeout = () =>
      proxy
        ? new PlatformError({
            kind: 'proxy',
            code: 'timeout',
            platform: options.platform,
            key: 'proxy_timeout',
            params: { proxy: proxy.display, seconds },
          })
        : new PlatformError({
            kind: 'retry-later',
            code: 'timeout',
            platform: options.platform,
            key: 'platform_timeout',
            params: { seconds, host: url.host },
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
            kind: 'retry-later',
            code: 'invalid_json',
            httpStatus: res.statusCode,
            platform: options.platform,
            key: 'invalid_json',
            params: { status: res.statusCode },
            raw: t.slice(0, 500),
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
      await Promise.race([
        dispatcher.close().catch(() => {}),
        new Promise<void>((r) => (timer = setTimeout(r, 1_000))),
      ]);
      clearTimeout(timer);
      await dispatcher.destroy().catch(() => {});
    },
  };
}
