import { anonymizeProxy, closeAnonymizedProxy } from 'proxy-chain';
import { AiDriverError } from '../chat-driver';

/** Playwright's per-context proxy setting. */
export type ContextProxy = { server: string; username?: string; password?: string };

export type OpenedProxy = { proxy?: ContextProxy; close(): Promise<void> };

const SOCKS = /^socks(4a?|5h?)?:$/;

/**
 * The session's proxy URL as a Playwright context proxy. HTTP(S) proxies go to Chromium as they are (it answers
 * their 407 itself). Chromium cannot authenticate to a SOCKS proxy ("Browser does not support socks5 proxy
 * authentication"), so a SOCKS proxy with credentials is fronted by a local proxy-chain server on 127.0.0.1 that
 * forwards every request to it; `close()` stops that server. '' means no proxy.
 */
export async function openContextProxy(raw: string): Promise<OpenedProxy> {
  const none = { close: async () => {} };
  if (!raw.trim()) return none;
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    throw new AiDriverError('bad_request', 'The session proxy is not a valid URL');
  }
  const server = `${url.protocol}//${url.host}`;
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (!SOCKS.test(url.protocol)) {
    if (!/^https?:$/.test(url.protocol)) throw new AiDriverError('bad_request', 'Unsupported proxy scheme');
    return { proxy: username ? { server, username, password } : { server }, close: none.close };
  }
  if (!username && !password) return { proxy: { server }, close: none.close };
  const local = await anonymizeProxy({ url: url.href, port: 0 });
  return { proxy: { server: local }, close: () => closeAnonymizedProxy(local, true).then(() => undefined) };
}

/** The proxy URL with its credentials hidden, for logs. */
export function proxyForLog(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}`;
  } catch {
    return raw ? '(invalid)' : '(none)';
  }
}
