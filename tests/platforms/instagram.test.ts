import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { TokenRefreshes } from '../../server/platforms/fresh-token';
import { InstagramDriver } from '../../server/platforms/instagram/instagram.driver';
import { startInstagramSimulator, type InstagramSimulator } from '../../sim/platforms/instagram';
import type { TokenSet } from '../../server/platforms/types';
import { holdDeadPort, startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { DOCUMENTED_SCOPES, REDIRECT_URI, expectPlatformError, openConsent, storedKey } from './helpers';
import { decodeMessage } from '../../src/contract/stored-message';

/** This file's process-wide refreshes, as the composition root holds them. */
const refreshes = new TokenRefreshes();
const withFreshToken = refreshes.withFreshToken.bind(refreshes);

const DAY = 24 * 3600_000;

let sim: InstagramSimulator;
let proxy: LocalProxy;
const https: PlatformHttp[] = [];

function driverVia(opts: { proxy?: string; now?: () => Date; s?: InstagramSimulator } = {}) {
  const s = opts.s ?? sim;
  const http = createPlatformHttp({
    proxy: opts.proxy,
    ipVersion: 'ipv4',
    timeoutMs: 5_000,
    connectTimeoutMs: 2_000,
    platform: 'instagram',
    allowPrivateProxy: true,
  });
  https.push(http);
  return new InstagramDriver({
    http,
    now: opts.now,
    credentials: { clientId: s.appId, clientSecret: s.appSecret },
    redirectUri: REDIRECT_URI,
    baseUrls: { auth: s.url, api: s.url, graph: s.url },
  });
}

async function connect(driver: InstagramDriver): Promise<TokenSet> {
  const { query, location } = await openConsent(driver.authorizationUrl({ state: 'ig-state' }));
  expect(location.hash).toBe('#_');
  const { code, state } = driver.parseCallback(query);
  expect(state).toBe('ig-state');
  return driver.exchangeCode({ code });
}

beforeAll(async () => {
  sim = await startInstagramSimulator();
  proxy = await startLocalProxy();
});
afterAll(async () => {
  await Promise.all(https.map((h) => h.close()));
  await proxy.close();
  await sim.close();
});

describe('Instagram driver', () => {
  it('builds the Instagram Login authorize URL', () => {
    const url = new URL(driverVia().authorizationUrl({ state: 'abc' }));
    expect(url.origin + url.pathname).toBe(`${sim.url}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(sim.appId);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe(DOCUMENTED_SCOPES.instagram.join(','));
    expect(url.searchParams.get('state')).toBe('abc');
  });

  it('defaults to the real hosts and declares the read-only profile', () => {
    const d = new InstagramDriver({
      http: createPlatformHttp(),
      credentials: { clientId: '1', clientSecret: 's' },
      redirectUri: REDIRECT_URI,
    });
    expect(d.authorizationUrl({ state: 's' })).toMatch(/^https:\/\/www\.instagram\.com\/oauth\/authorize\?/);
    expect(d.baseUrls).toEqual({
      auth: 'https://www.instagram.com',
      api: 'https://api.instagram.com',
      graph: 'https://graph.instagram.com',
    });
    expect(d.capabilities).toEqual({
      updateProfileName: false,
      updateDescription: false,
      publishVideo: true,
      readStats: true,
    });
  });

  it('happy path: consent → code → short-lived → long-lived token → profile', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    expect(tokens.accessToken).toMatch(/^IGAAL/); // the long-lived one
    expect(tokens.refreshToken).toBe(tokens.accessToken);
    expect(tokens.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * DAY);
    expect(tokens.platformUserId).toBe(sim.profile.user_id);
    expect(sim.log.map((l) => l.path)).toEqual(expect.arrayContaining(['/oauth/access_token', '/access_token']));

    const profile = await driver.getProfile(tokens.accessToken);
    expect(profile).toEqual({
      title: sim.profile.name,
      description: sim.profile.biography,
      url: `https://www.instagram.com/${sim.profile.username}/`,
      username: sim.profile.username,
      avatarUrl: sim.profile.profile_picture_url,
      platformUserId: sim.profile.user_id,
    });
  });

  it('accepts the { data: [ … ] } token response shape and a code with #_', async () => {
    const wrapped = await startInstagramSimulator({ wrappedTokenResponse: true });
    try {
      const driver = driverVia({ s: wrapped });
      const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
      const tokens = await driver.exchangeCode({ code: query.get('code') + '#_' });
      expect(tokens.platformUserId).toBe(wrapped.profile.user_id);
    } finally {
      await wrapped.close();
    }
  });

  it('denied consent gives a readable bad-request error', async () => {
    const driver = driverVia();
    sim.denyNextConsent();
    const { query } = await openConsent(driver.authorizationUrl({ state: 'st' }));
    expect(query.get('error_reason')).toBe('user_denied');
    const err = await expectPlatformError(() => driver.parseCallback(query), 'bad-request');
    expect(err).toMatchObject({ key: 'access_denied', params: { platform: 'Instagram' } });
  });

  it('a used code is a bad-request', async () => {
    const driver = driverVia();
    const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
    const { code } = driver.parseCallback(query);
    await driver.exchangeCode({ code });
    const err = await expectPlatformError(driver.exchangeCode({ code }), 'bad-request');
    expect(err).toMatchObject({ key: 'code_invalid', params: { platform: 'Instagram' } });
  });

  it('refreshes a long-lived token in its last week and persists it', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    // 55 days later (token ≥ 24 h old, 5 days left): refresh ahead of expiry.
    sim.advance(55 * DAY);
    const later = () => new Date(Date.now() + 55 * DAY);
    const persisted: TokenSet[] = [];
    const profile = await withFreshToken(
      tokens,
      driver,
      (t) => void persisted.push(t),
      (at) => driver.getProfile(at),
      { now: later },
    );
    expect(profile.username).toBe(sim.profile.username);
    expect(persisted).toHaveLength(1);
    expect(persisted[0]!.accessToken).not.toBe(tokens.accessToken);
    expect(persisted[0]!.refreshToken).toBe(persisted[0]!.accessToken);
    expect(sim.refreshCount).toBeGreaterThan(0);
  });

  it('a token too young to refresh is still used while valid', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    const persist = vi.fn();
    const soon = { ...tokens, expiresAt: new Date(Date.now() + 3 * DAY) }; // inside the window, but issued just now
    const profile = await withFreshToken(soon, driver, persist, (at) => driver.getProfile(at));
    expect(profile.username).toBe(sim.profile.username);
    expect(persist).not.toHaveBeenCalled();
  });

  it('expired token → reconnect (Instagram cannot refresh an expired token)', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.expireAccessTokens();
    const e = await expectPlatformError(driver.getProfile(tokens.accessToken), 'refresh-token');
    expect(e.code).toBe('190/463');
    const err = await expectPlatformError(
      withFreshToken(tokens, driver, vi.fn(), (at) => driver.getProfile(at)),
      'reconnect',
    );
    expect(err).toMatchObject({ key: 'access_lost', params: { platform: 'Instagram' } });
    expect(decodeMessage(String(err.params.reason))).toEqual({
      key: storedKey('instagram_cannot_refresh'),
      params: { why: storedKey('instagram_token_expired') },
    });
  });

  it('revoked access → reconnect with a readable message', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.revokeAll();
    const err = await expectPlatformError(
      withFreshToken(tokens, driver, vi.fn(), (at) => driver.getProfile(at)),
      'reconnect',
    );
    expect(err.platform).toBe('instagram');
    expect(err.message).toContain(storedKey('instagram_token_revoked'));
  });

  it('rate limit (code 4) → retry-later', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.injectFault({
      path: '/me',
      status: 400,
      body: {
        error: {
          message: '(#4) Application request limit reached',
          type: 'OAuthException',
          code: 4,
          is_transient: true,
        },
      },
    });
    await expectPlatformError(driver.getProfile(tokens.accessToken), 'retry-later');
  });

  it('traffic goes through the proxy', async () => {
    proxy.reset();
    const driver = driverVia({ proxy: proxy.url });
    const tokens = await connect(driver);
    await driver.getProfile(tokens.accessToken);
    expect(proxy.count).toBeGreaterThan(0);
    expect(proxy.records.every((r) => r.target === new URL(sim.url).host && r.allowed)).toBe(true);
  });

  it('a dead proxy gives a proxy error quickly', async () => {
    const dead = await holdDeadPort();
    try {
      const driver = driverVia({ proxy: `http://127.0.0.1:${dead.port}` });
      const err = await expectPlatformError(driver.getProfile('t'), 'proxy');
      // Refused at once, not the overall timeout.
      expect(err.params).toEqual({ proxy: `127.0.0.1:${dead.port}`, reason: storedKey('net_refused') });
    } finally {
      await dead.close();
    }
  });
});
