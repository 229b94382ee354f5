/**
 * How a platform call reaches the network: the one place that opens connections for the drivers.
 *
 * - no proxy: a direct undici Agent;
 * - http:// or https:// proxy: undici's ProxyAgent (HTTP CONNECT tunnel);
 * - socks5:// proxy: an Agent whose connector opens a SOCKS5 tunnel (hostname resolved by the proxy) and
 *   upgrades it to TLS for https targets.
 * `family` is the address family used to resolve and connect to the proxy (or, without one, to the platform);
 * `connectTimeoutMs` bounds the TCP/TLS/SOCKS handshake and the CONNECT exchange.
 * Unless `allowPrivateProxy`, the proxy's address must be public (./proxy-guard.ts): names are resolved and
 * checked by the lookup the socket connects with, a refused literal fails every connection.
 */
import type { LookupFunction, TcpSocketConnectOpts } from 'node:net';
import { Agent, Pool, ProxyAgent, buildConnector, type Dispatcher } from 'undici';
import { SocksClient } from 'socks';
import type { ParsedProxy } from '../../src/contract/proxy';
import { ProxyRefusedError, guardedLookup, isRefusedLiteral } from './proxy-guard';

export interface ConnectorOptions {
  proxy: ParsedProxy | null;
  family: 4 | 6;
  /** Overall limit of one exchange (headers and body). */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Test hook: DNS lookup used for the proxy (or direct) connection. */
  lookup?: LookupFunction;
  /** ALLOW_PRIVATE_PROXIES: a proxy on loopback or a private network is taken (a local proxy in development). */
  allowPrivateProxy?: boolean;
}

/** The errors raised while talking to the proxy itself (SOCKS handshake). */
const proxyErrors = new WeakSet<object>();

function markProxyError<E>(err: E): E {
  if (err && typeof err === 'object') proxyErrors.add(err);
  return err;
}

/** Whether an error (one link of a cause chain) was raised by the SOCKS handshake with the proxy. */
export const isProxyHandshakeError = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && proxyErrors.has(err);

/** The proxy host's address through `lookup` (the guarded one checks it), so the socket connects to that address. */
function resolveProxyHost(host: string, o: ConnectorOptions & { lookup: LookupFunction }): Promise<string> {
  return new Promise((resolve, reject) => {
    o.lookup(host.replace(/^\[(.*)\]$/, '$1'), { family: o.family }, (err, address) =>
      err ? reject(err) : resolve(String(address)),
    );
  });
}

function socksConnector(proxy: ParsedProxy, o: ConnectorOptions, checked: boolean): buildConnector.connector {
  const tlsUpgrade = buildConnector({ timeout: o.connectTimeoutMs });
  return (options, callback) => {
    const port = options.port ? Number(options.port) : options.protocol === 'https:' ? 443 : 80;
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    // Guarded: resolve and check here, hand the socks client the checked address (its own errors lose our code).
    const proxyHost =
      checked && o.lookup ? resolveProxyHost(proxy.host, { ...o, lookup: o.lookup }) : Promise.resolve(proxy.host);
    const lookup = !checked && o.lookup ? { lookup: o.lookup } : {};
    proxyHost
      .then((address) =>
        SocksClient.createConnection({
          proxy: { host: address, port: proxy.port, type: 5, userId: proxy.username, password: proxy.password },
          command: 'connect',
          destination: { host, port },
          timeout: o.connectTimeoutMs,
          // socks adds host and port to these itself.
          socket_options: {
            family: o.family,
            ...lookup,
          } satisfies Partial<TcpSocketConnectOpts> as TcpSocketConnectOpts,
        }),
      )
      .then(
        ({ socket }) => {
          if (options.protocol === 'https:') tlsUpgrade({ ...options, httpSocket: socket }, callback);
          else callback(null, socket.setNoDelay(true));
        },
        (err) => callback(markProxyError(err), null),
      );
  };
}

/** The undici dispatcher every request of one platform client goes through. */
export function buildProxyDispatcher(options: ConnectorOptions): Dispatcher {
  const { proxy, timeoutMs, connectTimeoutMs } = options;
  const common = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 8, keepAliveTimeout: 4_000 };
  const guarded = proxy !== null && !options.allowPrivateProxy;
  // A refused literal never reaches a lookup: every connection fails at once, as a refused name does.
  if (guarded && isRefusedLiteral(proxy.host))
    return new Agent({ connect: (_, cb) => cb(new ProxyRefusedError(), null) });
  const o = guarded ? { ...options, lookup: guardedLookup(options.lookup) } : options;
  const lookup = o.lookup ? { lookup: o.lookup } : {};
  const netOpts = { timeout: connectTimeoutMs, family: o.family, autoSelectFamily: false, ...lookup };
  if (!proxy) return new Agent({ ...common, connect: netOpts });
  if (proxy.protocol === 'socks5') return new Agent({ ...common, connect: socksConnector(proxy, o, guarded) });
  return new ProxyAgent({
    ...common,
    uri: proxy.url,
    proxyTls: netOpts,
    requestTls: { timeout: connectTimeoutMs },
    // The CONNECT exchange with the proxy gets the connect timeout too (undici's default is 300 s).
    clientFactory: (origin, opts) =>
      new Pool(origin, { ...opts, headersTimeout: connectTimeoutMs, bodyTimeout: connectTimeoutMs }),
  });
}
