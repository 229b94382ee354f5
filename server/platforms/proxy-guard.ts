/**
 * Keeps a profile's proxy from pointing inward (SSRF): a proxy whose address is loopback, private (RFC 1918,
 * CGNAT 100.64/10, IPv6 ULA), link-local, unspecified or any other non-public range is refused, however it is
 * spelled (`localhost`, `127.1`, `2130706433`, `0x7f.1`, `[::1]`, `[::ffff:127.0.0.1]`, `0.0.0.0`).
 *
 * Names are checked where the connection is opened, after DNS: the guarded lookup resolves every address of
 * the name, refuses the lot if one of them is not public, and hands the socket the address it checked, so a
 * name cannot be re-pointed between the check and the connect. Address literals never reach a lookup (Node
 * connects to them directly), so they are checked before the connector is built.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The code of the error a refused proxy address raises (server/platforms/network-errors.ts maps it). */
export const PROXY_REFUSED_CODE = 'EKADR_PROXY_REFUSED';

export class ProxyRefusedError extends Error {
  readonly code = PROXY_REFUSED_CODE;
  constructor() {
    super('proxy address refused');
  }
}

/** Whether an address is a public unicast one (IPv4-mapped IPv6 is judged as the IPv4 it carries). */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'unicast';
}

/** A literal address (as WHATWG URL or the proxy grammar leaves it) that is not public; names give false. */
export function isRefusedLiteral(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) !== 0 && !isPublicAddress(bare);
}

/**
 * A lookup for net/tls.connect that resolves every address of the name and refuses them all when one is not
 * public. Answers in the shape the caller asked for (`all` or one address).
 */
type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

export function guardedLookup(base: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  const resolve = base as unknown as Lookup;
  const guarded: Lookup = (hostname, options, callback) => {
    const opts: LookupOptions = typeof options === 'object' && options ? options : { family: Number(options) };
    resolve(hostname, { ...opts, all: true }, (err, found) => {
      if (err) return callback(err);
      const addresses: LookupAddress[] = Array.isArray(found) ? found : [{ address: String(found), family: 4 }];
      if (!addresses.length) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
      if (addresses.some((a) => !isPublicAddress(a.address))) return callback(new ProxyRefusedError());
      if (opts.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return guarded as unknown as LookupFunction;
}
