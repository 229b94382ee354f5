import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { TokenRefreshes } from '../../server/platforms/fresh-token';
import { startTikTokSimulator, type TikTokSimulator } from '../../sim/platforms/tiktok';
import { TikTokDriver } from '../../server/platforms/tiktok/tiktok.driver';
import type { TokenSet } from '../../server/platforms/types';
import { holdDeadPort, startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { DOCUMENTED_SCOPES, REDIRECT_URI, expectPlatformError, openConsent, storedKey } from './helpers';

/** This file's process-wide refreshes, as the composition root holds them. */
const refreshes = new TokenRefreshes();
const withFreshToken = refreshes.withFreshToken.bind(refreshes);

let sim: TikTokSimulator;
let proxy: LocalProxy;
const https: PlatformHttp[] = [];

function driverVia(opts: { proxy?: string; clientSecret?: string } = {}) {
  const http = createPlatformHttp({
    proxy: opts.proxy,
    ipVersion: 'ipv4',
    timeoutMs: 5_000,
    connectTimeoutMs: 2_000,
    platform: 'tiktok',
    allowPrivateProxy: true,
  });
  https.push(http);
  return new TikTokDriver({
    http,
    credentials: { clientId: sim.clientKey, clientSecret: opts.clientSecret ?? sim.clientSecret },
    redirectUri: REDIRECT_URI,
    baseUrls: { auth: sim.url, api: sim.url },
  });
}

async function connect(driver: TikTokDriver): Promise<TokenSet> {
  const { query } = await openConsent(driver.authorizationUrl({ state: 'tt-state' }));
  const { code, state } = driver.parseCallback(query);
  expect(state).toBe('tt-state');
  return driver.exchangeCode({ code });
}

beforeAll(async () => {
  sim = await startTikTokSimulator();
  proxy = await startLocalProxy();
});
afterAll(async () => {
  await Promise.all(https.map((h) => h.close()));
  await proxy.close();
  await sim.close();
});

describe('TikTok driver', () => {
  it('builds the Login Kit v2 authorize URL with the server client key', () => {
    const url = new URL(driverVia().authorizationUrl({ state: 'abc' }));
    expect(url.origin + url.pathname).toBe(`${sim.url}/v2/auth/authorize/`);
    expect(url.searchParams.get('client_key')).toBe(sim.clientKey);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe(DOCUMENTED_SCOPES.tiktok.join(','));
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('state')).toBe('abc');
  });

  it('defaults to the real TikTok hosts and cannot edit the profile', () => {
    const d = new TikTokDriver({
      http: createPlatformHttp(),
      credentials: { clientId: 'k', clientSecret: 's' },
      redirectUri: REDIRECT_URI,
    });
    expect(d.authorizationUrl({ state: 's' })).toMatch(/^https:\/\/www\.tiktok\.com\/v2\/auth\/authorize\/\?/);
    expect(d.baseUrls.api).toBe('https://open.tiktokapis.com');
    expect(d.capabilities.updateDescription).toBe(false);
    expect(d.capabilities.updateProfileName).toBe(false);
    expect('updateDescription' in d).toBe(false);
  });

  it('happy path: consent → code → tokens → user info', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    expect(tokens.accessToken).toMatch(/^act\./);
    expect(tokens.refreshToken).toMatch(/^rft\./);
    expect(tokens.platformUserId).toBe(sim.user.open_id);
    expect(tokens.expiresAt.getTime() - Date.now()).toBeGreaterThan(7000_000);
    expect(tokens.refreshExpiresAt!.getTime() - Date.now()).toBeGreaterThan(170 * 24 * 3600_000);
    expect(tokens.scope).toEqual(DOCUMENTED_SCOPES.tiktok);

    const profile = await driver.getProfile(tokens.accessToken);
    expect(profile).toMatchObject({
      title: sim.user.display_name,
      description: sim.user.bio_description,
      url: sim.user.profile_deep_link,
      username: sim.user.username,
      platformUserId: sim.user.open_id,
    });
  });

  it('denied consent gives a readable bad-request error', async () => {
    const driver = driverVia();
    sim.denyNextConsent();
    const { query } = await openConsent(driver.authorizationUrl({ state: 'st' }));
    expect(query.get('error')).toBe('access_denied');
    const err = await expectPlatformError(() => driver.parseCallback(query), 'bad-request');
    expect(err).toMatchObject({ key: 'access_denied', params: { platform: 'TikTok' } });
  });

  it('wrong client secret is reported as a server configuration problem', async () => {
    const driver = driverVia({ clientSecret: 'nope' });
    const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
    const err = await expectPlatformError(
      driver.exchangeCode({ code: driver.parseCallback(query).code }),
      'bad-request',
    );
    expect(err.code).toBe('invalid_client');
  });

  it('expired access token is refreshed and the rotated refresh token persisted', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.expireAccessTokens();
    const e = await expectPlatformError(driver.getProfile(tokens.accessToken), 'refresh-token');
    expect(e.code).toBe('access_token_invalid');

    const persisted: TokenSet[] = [];
    const profile = await withFreshToken(
      tokens,
      driver,
      async (t) => void persisted.push(t),
      (at) => driver.getProfile(at),
    );
    expect(profile.platformUserId).toBe(sim.user.open_id);
    expect(persisted).toHaveLength(1);
    expect(persisted[0]!.refreshToken).not.toBe(tokens.refreshToken);
    expect(persisted[0]!.refreshToken).toBe(sim.currentRefreshToken);

    // The old refresh token died with the rotation: using it means reconnecting.
    const err = await expectPlatformError(driver.refresh(tokens), 'reconnect');
    expect(err.code).toBe('invalid_grant');
    // The persisted one works.
    const again = await driver.refresh(persisted[0]!);
    expect(again.refreshToken).not.toBe(persisted[0]!.refreshToken);
  });

  it('concurrent callers share one refresh (a rotating token is spent once)', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.expireAccessTokens();
    const expired = { ...tokens, expiresAt: new Date(Date.now() - 1000) };
    const before = sim.refreshCount;
    const persist = vi.fn();
    const results = await Promise.all(
      [1, 2, 3].map(() => withFreshToken(expired, driver, persist, (at) => driver.getProfile(at))),
    );
    expect(results.every((p) => p.platformUserId === sim.user.open_id)).toBe(true);
    expect(sim.refreshCount).toBe(before + 1);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('revoked grant → reconnect error with a readable message', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.revokeAll();
    sim.expireAccessTokens();
    const err = await expectPlatformError(
      withFreshToken(tokens, driver, vi.fn(), (at) => driver.getProfile(at)),
      'reconnect',
    );
    expect(err.platform).toBe('tiktok');
    expect(err).toMatchObject({
      key: 'access_lost',
      params: { platform: 'TikTok', reason: expect.stringContaining(storedKey('tiktok_revoked')) },
    });
  });

  it('missing profile scope: reconnect', async () => {
    const driver = driverVia();
    sim.grantOnlyNext(['user.info.basic', 'video.publish']);
    const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
    const err = await expectPlatformError(driver.exchangeCode({ code: driver.parseCallback(query).code }), 'reconnect');
    expect(err.code).toBe('scope_missing');
  });

  it('rate limits map to retry-later with Retry-After', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.injectFault({
      path: '/v2/user/info/',
      status: 429,
      headers: { 'retry-after': '30' },
      body: { data: {}, error: { code: 'rate_limit_exceeded', message: 'slow down', log_id: 'x' } },
    });
    const err = await expectPlatformError(driver.getProfile(tokens.accessToken), 'retry-later');
    expect(err.retryAfterSec).toBe(30);
  });

  it('OAuth errors answered with HTTP 200 are still errors', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.injectFault({
      path: '/v2/oauth/token/',
      status: 200,
      body: { error: 'invalid_grant', error_description: 'Refresh token is invalid or expired.', log_id: 'x' },
    });
    await expectPlatformError(driver.refresh(tokens), 'reconnect');
  });

  it('traffic goes through an HTTP proxy and a SOCKS5 proxy', async () => {
    for (const url of [proxy.url, proxy.socksUrl]) {
      proxy.reset();
      const driver = driverVia({ proxy: url });
      const tokens = await connect(driver);
      await driver.getProfile(tokens.accessToken);
      expect(proxy.count).toBeGreaterThan(0);
      expect(proxy.records.every((r) => r.target === new URL(sim.url).host)).toBe(true);
      expect(proxy.records[0]!.kind).toBe(url.startsWith('socks5') ? 'socks5' : 'connect');
    }
  });

  it('a dead SOCKS5 proxy gives a proxy error quickly', async () => {
    const dead = await holdDeadPort();
    try {
      const driver = driverVia({ proxy: `socks5://user:secret@127.0.0.1:${dead.port}` });
      const err = await expectPlatformError(driver.getProfile('t'), 'proxy');
      // Refused at the handshake, not the overall timeout; the proxy's password is not in the message.
      expect(err).toMatchObject({ code: 'proxy_unreachable', params: { proxy: `127.0.0.1:${dead.port}` } });
      expect(err.message).not.toContain('secret');
    } finally {
      await dead.close();
    }
  });
});
