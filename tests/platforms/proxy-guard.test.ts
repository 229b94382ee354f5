import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config';
import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { isPublicAddress } from '../../server/platforms/proxy-guard';
import { expectPlatformError } from './helpers';

/** SSRF through a profile's proxy (issue 9, item 3): inward proxies are refused unless allowed. */
let echo: http.Server;
let echoUrl: string;
let proxy: LocalProxy;
const clients: PlatformHttp[] = [];

function client(opts: Parameters<typeof createPlatformHttp>[0] = {}) {
  const c = createPlatformHttp({ timeoutMs: 3_000, connectTimeoutMs: 1_500, ...opts });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  echo = http.createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  proxy = await startLocalProxy();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await new Promise<void>((r) => echo.close(() => r()));
  await proxy.close();
});

/** A lookup that answers `addresses` for any name and counts its calls. */
function fakeDns(addresses: { address: string; family: 4 | 6 }[]) {
  const calls: string[] = [];
  const lookup = ((host: string, options: any, cb: any) => {
    calls.push(host);
    if (options.all) cb(null, addresses);
    else cb(null, addresses[0]!.address, addresses[0]!.family);
  }) as any;
  return { lookup, calls };
}

const SPELLINGS = [
  'localhost',
  '127.1',
  '2130706433',
  '0x7f.1',
  '0177.0.0.1',
  '[::1]',
  '0.0.0.0',
  '[::ffff:127.0.0.1]',
  '[::]',
  '10.0.0.1',
  '172.16.5.4',
  '192.168.1.1',
  '100.64.0.1',
  '169.254.169.254',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[fe80::1]',
];

describe('a proxy on a loopback, private or link-local address', () => {
  it.each(['http', 'socks5'])(
    'is refused in every spelling (%s), with no address or port in the error',
    async (scheme) => {
      for (const host of SPELLINGS) {
        const ipVersion = host.startsWith('[') ? 'ipv6' : 'ipv4';
        const c = client({ proxy: `${scheme}://${host}:${proxy.port}`, ipVersion });
        const err = await expectPlatformError(c.request(`${echoUrl}/x`), 'proxy');
        expect({ host, key: err.key, code: err.code, params: err.params }).toEqual({
          host,
          key: 'proxy_refused',
          code: 'proxy_refused',
          params: {},
        });
        expect(err.message).not.toContain(String(proxy.port));
      }
    },
  );

  it("the sellers' host:port shorthand is refused too", async () => {
    const err = await expectPlatformError(
      client({ proxy: `127.0.0.1:${proxy.port}` }).request(`${echoUrl}/x`),
      'proxy',
    );
    expect(err.key).toBe('proxy_refused');
  });

  it.each(['http', 'socks5'])(
    'a name resolving to 127.0.0.1 is refused at connect time, after DNS (%s)',
    async (scheme) => {
      const dns = fakeDns([{ address: '127.0.0.1', family: 4 }]);
      const c = client({ proxy: `${scheme}://proxy.example.com:${proxy.port}`, lookup: dns.lookup });
      const err = await expectPlatformError(c.request(`${echoUrl}/x`), 'proxy');
      expect(err.key).toBe('proxy_refused');
      expect(dns.calls).toContain('proxy.example.com');
    },
  );

  it('a name with one public and one private address is refused (every address is checked)', async () => {
    const dns = fakeDns([
      { address: '8.8.8.8', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]);
    const c = client({ proxy: `http://mixed.example.com:${proxy.port}`, lookup: dns.lookup });
    expect((await expectPlatformError(c.request(`${echoUrl}/x`), 'proxy')).key).toBe('proxy_refused');
  });

  it('a name re-pointed after a public answer is checked again on the next connection', async () => {
    let answer = '127.0.0.1';
    const lookup = ((_h: string, o: any, cb: any) =>
      o.all ? cb(null, [{ address: answer, family: 4 }]) : cb(null, answer, 4)) as any;
    const c = client({ proxy: `http://rebind.example.com:${proxy.port}`, lookup });
    expect((await expectPlatformError(c.request(`${echoUrl}/a`), 'proxy')).key).toBe('proxy_refused');
    answer = '10.0.0.1';
    expect((await expectPlatformError(c.request(`${echoUrl}/b`), 'proxy')).key).toBe('proxy_refused');
  });

  it.each(['http', 'socks5'])('is used when allowed (ALLOW_PRIVATE_PROXIES) (%s)', async (scheme) => {
    for (const host of ['localhost', '127.1', '2130706433']) {
      const res = await client({ proxy: `${scheme}://${host}:${proxy.port}`, allowPrivateProxy: true }).request(
        `${echoUrl}/ok`,
      );
      expect(res.status).toBe(200);
      await res.dump();
    }
  });

  it('a direct call (no proxy) to a platform address is not affected', async () => {
    const res = await client().request(`${echoUrl}/direct`);
    expect(res.status).toBe(200);
    await res.dump();
  });
});

describe('address classification', () => {
  it.each([
    ['8.8.8.8', true],
    ['2a00:1450:4001::1', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['0.0.0.0', false],
    ['100.64.0.1', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['169.254.1.1', false],
    ['not-an-address', false],
  ])('%s public: %s', (address, expected) => expect(isPublicAddress(address)).toBe(expected));
});

describe('ALLOW_PRIVATE_PROXIES', () => {
  const base = {
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(40),
    APP_KEY: 'k'.repeat(40),
    DATA_DIR: '/tmp/kadr-proxy-guard',
  };
  it('is off by default, on with SIMULATORS=on, and an explicit value wins', () => {
    expect(loadConfig(base as any).allowPrivateProxies).toBe(false);
    expect(loadConfig({ ...base, SIMULATORS: 'on' } as any).allowPrivateProxies).toBe(true);
    expect(loadConfig({ ...base, ALLOW_PRIVATE_PROXIES: 'true' } as any).allowPrivateProxies).toBe(true);
    expect(loadConfig({ ...base, SIMULATORS: 'on', ALLOW_PRIVATE_PROXIES: 'false' } as any).allowPrivateProxies).toBe(
      false,
    );
  });
});

describe('SIMULATOR_URL', () => {
  const base = {
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(40),
    APP_KEY: 'k'.repeat(40),
    DATA_DIR: '/tmp/kadr-sim-url',
  };
  it("points every platform host at one simulator host's consecutive ports; a host set on its own wins", () => {
    const { platforms } = loadConfig({
      ...base,
      SIMULATOR_URL: 'http://127.0.0.1:4100/',
      INSTAGRAM_GRAPH_BASE_URL: 'https://graph.example.net',
    } as any);
    expect(platforms.youtube.baseUrls).toEqual({
      auth: 'http://127.0.0.1:4100',
      token: 'http://127.0.0.1:4100',
      api: 'http://127.0.0.1:4100',
    });
    expect(platforms.tiktok.baseUrls).toEqual({ auth: 'http://127.0.0.1:4101', api: 'http://127.0.0.1:4101' });
    expect(platforms.instagram.baseUrls).toEqual({
      auth: 'http://127.0.0.1:4102',
      api: 'http://127.0.0.1:4102',
      graph: 'https://graph.example.net',
    });
    // Without it, the drivers' own defaults (the real platforms) stand.
    expect(loadConfig(base as any).platforms.youtube.baseUrls).toEqual({
      auth: undefined,
      token: undefined,
      api: undefined,
    });
  });
});
