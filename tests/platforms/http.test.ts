import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { holdDeadPort, startLocalProxy, type DeadAddress, type LocalProxy } from '../../sim/platforms/local-proxy';
import { PROXY_ERROR_KEYS, parseProxy } from '../../src/contract/proxy';
import { expectPlatformError, storedKey } from './helpers';

let echo: http.Server;
let echoUrl: string;
let hangUrl: string;
let proxy: LocalProxy;
let authProxy: LocalProxy;
let dead: DeadAddress;
const clients: PlatformHttp[] = [];
const sockets = new Set<net.Socket>();

function client(opts: Parameters<typeof createPlatformHttp>[0] = {}) {
  const c = createPlatformHttp({ timeoutMs: 3_000, connectTimeoutMs: 1_500, allowPrivateProxy: true, ...opts });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  echo = http.createServer((req, res) => {
    if (req.url?.startsWith('/hang')) return; // never answers
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-multi', ['a', 'b']);
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  echo.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  hangUrl = `${echoUrl}/hang`;
  proxy = await startLocalProxy();
  authProxy = await startLocalProxy({ username: 'kadr', password: 'p@ss:word' });
  dead = await holdDeadPort();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => echo.close(() => r()));
  await proxy.close();
  await authProxy.close();
  await dead.close();
});

describe('parseProxy (src/contract/proxy.ts)', () => {
  it.each([
    ['http://1.2.3.4:8080', 'http', '1.2.3.4', 8080, undefined],
    ['https://proxy.example.com:443', 'https', 'proxy.example.com', 443, undefined],
    ['socks5://user:pa%3Ass@10.0.0.1:1080', 'socks5', '10.0.0.1', 1080, 'user'],
    ['socks5h://u:p@host.example:9050', 'socks5', 'host.example', 9050, 'u'],
    ['HTTP://User:Pass@Host.Example:3128', 'http', 'host.example', 3128, 'User'],
    ['http://[2001:db8::1]:8080', 'http', '[2001:db8::1]', 8080, undefined],
    ['1.2.3.4:8080', 'http', '1.2.3.4', 8080, undefined],
    ['1.2.3.4:8080:login:secret', 'http', '1.2.3.4', 8080, 'login'],
    ['  socks5://5.6.7.8:1080  ', 'socks5', '5.6.7.8', 1080, undefined],
  ])('accepts %s', (input, protocol, host, port, username) => {
    const r = parseProxy(input);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.proxy).toMatchObject({ protocol, host, port, username });
    expect(r.proxy.display).toBe(`${host}:${port}`);
    expect(parseProxy(r.proxy.url)).toEqual(r);
  });

  it('keeps credentials out of the display form and decodes them', () => {
    const r = parseProxy('socks5://user:pa%3Ass@10.0.0.1:1080');
    expect(r.ok && r.proxy.password).toBe('pa:ss');
    expect(r.ok && r.proxy.display).toBe('10.0.0.1:1080');
  });

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    [undefined, 'required'],
    ['ftp://1.2.3.4:21', 'protocol'],
    ['socks4://1.2.3.4:1080', 'protocol'],
    ['http://1.2.3.4:99999', 'port'],
    ['http://1.2.3.4:0', 'port'],
    ['http://1.2.3.4:abc', 'port'],
    ['http://1.2.3.4:8080/path', 'invalid'],
    ['just-a-word', 'invalid'],
    ['1.2.3.4:80:onlyuser', 'invalid'],
    ['http://:8080', 'invalid'],
  ])('rejects %j naming the reason', (input, reason) => {
    expect(parseProxy(input as string)).toEqual({ ok: false, error: reason });
  });
});

describe('createPlatformHttp', () => {
  it('sends json, form and stream bodies and reads headers', async () => {
    const c = client();
    const j = await c.request(`${echoUrl}/j`, {
      method: 'PUT',
      query: { a: 1, skip: undefined },
      body: { json: { x: 'ї' } },
    });
    expect(j.status).toBe(200);
    expect(j.headers['x-multi']).toBe('a, b');
    const jb = await j.json<any>();
    expect(jb).toMatchObject({ method: 'PUT', url: '/j?a=1', body: '{"x":"ї"}' });
    expect(jb.headers['content-type']).toMatch(/^application\/json/);

    const f = await (await c.request(`${echoUrl}/f`, { body: { form: { a: 'b c', n: 2, none: null } } })).json<any>();
    expect(f).toMatchObject({ method: 'POST', body: 'a=b+c&n=2' });
    expect(f.headers['content-type']).toBe('application/x-www-form-urlencoded');

    const s = await (
      await c.request(`${echoUrl}/s`, {
        method: 'PUT',
        body: {
          stream: Readable.from([Buffer.from('ab'), Buffer.from('cd')]),
          contentType: 'video/mp4',
          contentLength: 4,
        },
      })
    ).json<any>();
    expect(s).toMatchObject({ method: 'PUT', body: 'abcd' });
    expect(s.headers).toMatchObject({ 'content-type': 'video/mp4', 'content-length': '4' });
  });

  it('an invalid proxy string is a proxy error at construction', () => {
    expect(() => createPlatformHttp({ proxy: 'ftp://x:1' })).toThrow(
      expect.objectContaining({ kind: 'proxy', key: 'proxy_invalid', params: { reason: PROXY_ERROR_KEYS.protocol } }),
    );
  });

  it('goes through an HTTP proxy with credentials (CONNECT)', async () => {
    authProxy.reset();
    const res = await client({ proxy: authProxy.url }).request(`${echoUrl}/via`);
    expect(res.status).toBe(200);
    expect((await res.json<any>()).headers['proxy-authorization']).toBeUndefined();
    expect(authProxy.records).toEqual([
      expect.objectContaining({ kind: 'connect', target: new URL(echoUrl).host, allowed: true }),
    ]);
  });

  it('goes through a SOCKS5 proxy with credentials', async () => {
    authProxy.reset();
    const res = await client({ proxy: authProxy.socksUrl }).request(`${echoUrl}/via-socks`);
    expect(res.status).toBe(200);
    expect(authProxy.records).toEqual([
      expect.objectContaining({ kind: 'socks5', target: new URL(echoUrl).host, allowed: true }),
    ]);
  });

  it.each(['http', 'socks5'])(
    'wrong %s proxy credentials → proxy error naming the cause, not the password',
    async (scheme) => {
      const err = await expectPlatformError(
        client({ proxy: `${scheme}://kadr:wrong-pass@127.0.0.1:${authProxy.port}` }).request(`${echoUrl}/x`),
        'proxy',
      );
      expect(err).toMatchObject({ key: 'proxy_auth', params: { proxy: `127.0.0.1:${authProxy.port}` } });
      expect(err.message).not.toContain('wrong-pass');
    },
  );

  it.each(['http', 'socks5'])('dead %s proxy → proxy error naming the refusal, not a timeout', async (scheme) => {
    const err = await expectPlatformError(
      client({ proxy: `${scheme}://127.0.0.1:${dead.port}` }).request(`${echoUrl}/x`),
      'proxy',
    );
    expect(err).toMatchObject({ code: 'proxy_unreachable', key: 'proxy_unreachable' });
    expect(err.params).toEqual({ proxy: `127.0.0.1:${dead.port}`, reason: storedKey('net_refused') });
  });

  it('a proxy that cannot reach the platform → proxy error', async () => {
    const deadTarget = `http://127.0.0.1:${dead.port}`;
    const viaHttp = await expectPlatformError(client({ proxy: proxy.url }).request(deadTarget), 'proxy');
    expect(viaHttp).toMatchObject({ code: 'proxy_refused', key: 'proxy_cannot_reach_status', params: { status: 502 } });
    const viaSocks = await expectPlatformError(client({ proxy: proxy.socksUrl }).request(deadTarget), 'proxy');
    expect(viaSocks).toMatchObject({ code: 'proxy_refused', key: 'proxy_cannot_reach' });
  });

  it('a proxy that accepts but never answers → proxy error within the timeout, no hang', async () => {
    const silent = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      for (const scheme of ['http', 'socks5']) {
        const c = client({ proxy: `${scheme}://127.0.0.1:${port}`, timeoutMs: 60_000, connectTimeoutMs: 500 });
        const err = await expectPlatformError(c.request(`${echoUrl}/x`), 'proxy');
        // Ended by the handshake's own limit (a connection timeout), not the overall one (that would be 'timeout').
        expect(err).toMatchObject({ code: 'proxy_unreachable', params: { reason: storedKey('net_timeout') } });
      }
    } finally {
      for (const s of sockets) if (s.localPort === (silent.address() as AddressInfo).port) s.destroy();
      silent.close();
    }
  });

  it('a platform that never answers → retry-later after the overall timeout', async () => {
    const before = sockets.size;
    const err = await expectPlatformError(client({ timeoutMs: 500 }).request(hangUrl), 'retry-later');
    expect(err).toMatchObject({
      code: 'timeout',
      key: 'platform_timeout',
      params: { seconds: 1, host: new URL(echoUrl).host },
    });
    // The abandoned exchange does not keep its connection open.
    await vi.waitFor(() => expect(sockets.size).toBeLessThanOrEqual(before));
  });

  it('unreachable platform without a proxy → retry-later', async () => {
    const err = await expectPlatformError(client().request(`http://127.0.0.1:${dead.port}/`), 'retry-later');
    expect(err).toMatchObject({
      code: 'network',
      key: 'host_unreachable',
      params: { reason: storedKey('net_refused') },
    });
  });

  it("the caller's abort signal is honoured", async () => {
    const ac = new AbortController();
    const p = client().request(hangUrl, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop')), 50);
    await expect(p).rejects.toThrow('stop');
  });

  it.each([
    ['ipv4', 4],
    ['ipv6', 6],
  ] as const)('resolves the proxy host with the %s family', async (ipVersion, family) => {
    const seen: number[] = [];
    const lookup = ((_host: string, options: any, cb: any) => {
      seen.push(options.family);
      if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
      else cb(null, '127.0.0.1', 4);
    }) as any;
    for (const p of [`http://proxy.test:${proxy.port}`, `socks5://proxy.test:${proxy.port}`]) {
      seen.length = 0;
      const res = await client({ proxy: p, ipVersion, lookup }).request(`${echoUrl}/fam`);
      expect(res.status).toBe(200);
      await res.dump();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((f) => f === family)).toBe(true);
    }
  });
});
