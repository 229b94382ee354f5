import { TokenRefreshes } from '../../server/platforms/fresh-token';
import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { PLATFORM_REGISTRY } from '../../server/platforms/registry';
import type { PlatformsConfig } from '../../server/platforms/settings';
import type { PlatformKey } from '../../src/contract/platforms';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { REDIRECT_URI, openConsent } from './helpers';

/** This file's process-wide refreshes, as the composition root holds them. */
const refreshes = new TokenRefreshes();
const withFreshToken = refreshes.withFreshToken.bind(refreshes);

let sims: Simulators;
let proxy: LocalProxy;
let config: PlatformsConfig;
const clients: PlatformHttp[] = [];

beforeAll(async () => {
  sims = await startSimulators();
  proxy = await startLocalProxy();
  config = {
    youtube: { ...sims.config.youtube, redirectUri: REDIRECT_URI },
    tiktok: { ...sims.config.tiktok, redirectUri: REDIRECT_URI },
    instagram: { ...sims.config.instagram, redirectUri: REDIRECT_URI },
  };
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await proxy.close();
  await sims.close();
});

describe("startSimulators + the registry's drivers", () => {
  it('exposes env variables for the server config', () => {
    expect(Object.keys(sims.env)).toEqual(
      expect.arrayContaining([
        'YOUTUBE_AUTH_BASE_URL',
        'YOUTUBE_TOKEN_BASE_URL',
        'YOUTUBE_API_BASE_URL',
        'TIKTOK_CLIENT_KEY',
        'INSTAGRAM_GRAPH_BASE_URL',
        'INSTAGRAM_APP_SECRET',
      ]),
    );
    expect(sims.env.YOUTUBE_API_BASE_URL).toBe(sims.google.url);
  });

  it.each<PlatformKey>(['youtube', 'tiktok', 'instagram'])(
    '%s: connect and read the profile through one account proxy',
    async (name) => {
      const http = createPlatformHttp({
        proxy: proxy.url,
        ipVersion: 'ipv4',
        platform: name,
        timeoutMs: 5_000,
        allowPrivateProxy: true,
      });
      clients.push(http);
      const driver = PLATFORM_REGISTRY[name].driver({
        http,
        settings: config[name],
        credentials: { clientId: 'acc-client', clientSecret: 'acc-secret' },
      });
      expect(driver.name).toBe(name);
      proxy.reset();
      const { query } = await openConsent(driver.authorizationUrl({ state: `s-${name}` }));
      const { code, state } = driver.parseCallback(query);
      expect(state).toBe(`s-${name}`);
      const tokens = await driver.exchangeCode({ code });
      const profile = await withFreshToken(
        tokens,
        driver,
        () => {},
        (t) => driver.getProfile(t),
      );
      expect(profile.title).toBeTruthy();
      expect(profile.url).toMatch(/^https:\/\//);
      expect(proxy.count).toBeGreaterThan(0);
    },
  );
});
