import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { TokenRefreshes } from '../../server/platforms/fresh-token';
import { startGoogleSimulator, type GoogleSimulator } from '../../sim/platforms/google';
import type { TokenSet } from '../../server/platforms/types';
import { YouTubeDriver } from '../../server/platforms/youtube/youtube.driver';
import { decodeMessage, splitDetail } from '../../src/contract/stored-message';
import { holdDeadPort, startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { DOCUMENTED_SCOPES, REDIRECT_URI, expectPlatformError, openConsent, storedKey } from './helpers';

/** This file's process-wide refreshes, as the composition root holds them. */
const refreshes = new TokenRefreshes();
const withFreshToken = refreshes.withFreshToken.bind(refreshes);

const CLIENT = { clientId: '1234-sim.apps.googleusercontent.com', clientSecret: 'GOCSPX-sim-secret' };

let sim: GoogleSimulator;
let proxy: LocalProxy;
const https: PlatformHttp[] = [];

function driverVia(opts: { proxy?: string } = {}, credentials = CLIENT) {
  const http = createPlatformHttp({
    proxy: opts.proxy,
    ipVersion: 'ipv4',
    timeoutMs: 5_000,
    connectTimeoutMs: 2_000,
    platform: 'youtube',
    allowPrivateProxy: true,
  });
  https.push(http);
  return new YouTubeDriver({
    http,
    credentials,
    redirectUri: REDIRECT_URI,
    baseUrls: { auth: sim.url, token: sim.url, api: sim.url },
  });
}

async function connect(driver: YouTubeDriver): Promise<TokenSet> {
  const { query } = await openConsent(driver.authorizationUrl({ state: 'st-1' }));
  const { code, state } = driver.parseCallback(query);
  expect(state).toBe('st-1');
  return driver.exchangeCode({ code });
}

beforeAll(async () => {
  sim = await startGoogleSimulator({ clients: { [CLIENT.clientId]: CLIENT.clientSecret } });
  proxy = await startLocalProxy();
});
afterAll(async () => {
  await Promise.all(https.map((h) => h.close()));
  await proxy.close();
  await sim.close();
});

describe('YouTube driver', () => {
  it('builds the Google consent URL from the profile client', () => {
    const url = new URL(driverVia().authorizationUrl({ state: 'abc' }));
    expect(url.origin + url.pathname).toBe(`${sim.url}/o/oauth2/v2/auth`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('state')).toBe('abc');
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(DOCUMENTED_SCOPES.youtube);
  });

  it('defaults to the real Google hosts', () => {
    const d = new YouTubeDriver({ http: createPlatformHttp(), credentials: CLIENT, redirectUri: REDIRECT_URI });
    expect(d.authorizationUrl({ state: 's' })).toMatch(/^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\?/);
    expect(d.baseUrls).toEqual({
      auth: 'https://accounts.google.com',
      token: 'https://oauth2.googleapis.com',
      api: 'https://www.googleapis.com',
    });
    expect(d.capabilities).toEqual({
      updateProfileName: false,
      updateDescription: true,
      publishVideo: true,
      readStats: true,
    });
  });

  it('happy path: consent → code → tokens → channel', async () => {
    const driver = driverVia();
    const before = Date.now();
    const tokens = await connect(driver);
    expect(tokens.accessToken).toMatch(/^ya29\./);
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.expiresAt.getTime()).toBeGreaterThan(before + 3000_000);
    expect(tokens.scope).toEqual(expect.arrayContaining(DOCUMENTED_SCOPES.youtube));
    expect(tokens.platformUserId).toBe(sim.channel.id);

    const profile = await driver.getProfile(tokens.accessToken);
    expect(profile).toMatchObject({
      title: sim.channel.title,
      description: sim.channel.description,
      url: `https://www.youtube.com/channel/${sim.channel.id}`,
      platformUserId: sim.channel.id,
    });
  });

  it('denied consent gives a readable bad-request error', async () => {
    const driver = driverVia();
    sim.denyNextConsent();
    const { query } = await openConsent(driver.authorizationUrl({ state: 'st-2' }));
    expect(query.get('error')).toBe('access_denied');
    expect(query.get('state')).toBe('st-2');
    const err = await expectPlatformError(() => driver.parseCallback(query), 'bad-request');
    expect(err.code).toBe('access_denied');
    expect(err).toMatchObject({ key: 'access_denied', params: { platform: 'YouTube' } });
  });

  it('refuses a grant with a scope unticked', async () => {
    const driver = driverVia();
    sim.grantOnlyNext([DOCUMENTED_SCOPES.youtube[0]!]);
    const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
    const err = await expectPlatformError(driver.exchangeCode({ code: driver.parseCallback(query).code }), 'reconnect');
    expect(err).toMatchObject({
      key: 'scope_missing',
      params: { platform: 'YouTube', scopes: 'https://www.googleapis.com/auth/youtube.force-ssl' },
    });
  });

  it('wrong client secret is a bad-request with a readable message', async () => {
    const driver = driverVia({}, { ...CLIENT, clientSecret: 'wrong' });
    const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
    const err = await expectPlatformError(
      driver.exchangeCode({ code: driver.parseCallback(query).code }),
      'bad-request',
    );
    expect(err.code).toBe('invalid_client');
    expect(err.key).toBe('google_client');
  });

  it('a used code cannot be exchanged twice', async () => {
    const driver = driverVia();
    const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
    const { code } = driver.parseCallback(query);
    await driver.exchangeCode({ code });
    const err = await expectPlatformError(driver.exchangeCode({ code }), 'bad-request');
    expect(err.code).toBe('invalid_grant');
  });

  it('expired access token: 401 → refresh → retry, new tokens persisted', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.expireAccessTokens();
    await expectPlatformError(driver.getProfile(tokens.accessToken), 'refresh-token');

    const persisted: TokenSet[] = [];
    const refreshesBefore = sim.refreshCount;
    const profile = await withFreshToken(
      tokens,
      driver,
      (t) => void persisted.push(t),
      (at) => driver.getProfile(at),
    );
    expect(profile.platformUserId).toBe(sim.channel.id);
    expect(sim.refreshCount).toBe(refreshesBefore + 1);
    expect(persisted).toHaveLength(1);
    expect(persisted[0]!.accessToken).not.toBe(tokens.accessToken);
    expect(persisted[0]!.refreshToken).toBe(tokens.refreshToken); // Google keeps the refresh token
    expect(persisted[0]!.platformUserId).toBe(tokens.platformUserId);
  });

  it('refreshes ahead of time when the token expires within 5 minutes', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    const soon = { ...tokens, expiresAt: new Date(Date.now() + 60_000) };
    const persisted: TokenSet[] = [];
    const fresh = await withFreshToken(soon, driver, (t) => void persisted.push(t));
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    expect(persisted).toEqual([fresh]);
    // A token valid for longer is used as is.
    const untouched = await withFreshToken(tokens, driver, () => {
      throw new Error('must not persist');
    });
    expect(untouched).toBe(tokens);
  });

  it('revoked grant → reconnect error with a readable message', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.revokeAll();
    const persist = vi.fn();
    const err = await expectPlatformError(
      withFreshToken(tokens, driver, persist, (at) => driver.getProfile(at)),
      'reconnect',
    );
    expect(err.platform).toBe('youtube');
    expect(err).toMatchObject({ key: 'access_lost', params: { platform: 'YouTube' } });
    expect(decodeMessage(String(err.params.reason))?.key).toBe(storedKey('google_revoked'));
    expect(persist).not.toHaveBeenCalled();
  });

  it('"Testing" publishing status: the grant dies after 7 days, with a hint in the message', async () => {
    const testing = await startGoogleSimulator({ testingMode: true });
    try {
      const http = createPlatformHttp({ timeoutMs: 5_000 });
      https.push(http);
      const driver = new YouTubeDriver({
        http,
        credentials: CLIENT,
        redirectUri: REDIRECT_URI,
        baseUrls: { auth: testing.url, token: testing.url, api: testing.url },
      });
      const tokens = await connect(driver);
      testing.advance(8 * 24 * 3600_000);
      testing.expireAccessTokens();
      const err = await expectPlatformError(
        withFreshToken(tokens, driver, vi.fn(), (at) => driver.getProfile(at)),
        'reconnect',
      );
      // google_revoked is the message that carries the hint about the "Testing" publishing status.
      expect(decodeMessage(String(err.params.reason))).toEqual({ key: storedKey('google_revoked'), params: {} });
      // Google's own words: the detail, apart from the translated sentence.
      expect(splitDetail(err.message).detail).toBe('Token has been expired or revoked.');
    } finally {
      await testing.close();
    }
  });

  it('updates the channel description by read-modify-write (other branding fields kept)', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.channel.keywords = 'keep these keywords';
    sim.channel.country = 'UA';
    const profile = await driver.updateDescription(tokens.accessToken, 'Новий опис каналу');
    expect(profile.description).toBe('Новий опис каналу');
    expect(sim.channel.description).toBe('Новий опис каналу');
    expect(sim.channel.keywords).toBe('keep these keywords');
    expect(sim.channel.country).toBe('UA');
    expect((await driver.getProfile(tokens.accessToken)).description).toBe('Новий опис каналу');
    const put = sim.log.filter((l) => l.method === 'PUT' && l.path === '/youtube/v3/channels');
    expect(put.at(-1)).toMatchObject({ query: { part: 'brandingSettings' }, status: 200 });
  });

  it('rejects an over-long description before calling YouTube', async () => {
    const driver = driverVia();
    await expectPlatformError(driver.updateDescription('x', 'a'.repeat(1001)), 'bad-request');
  });

  it('maps quotaExceeded to retry-later', async () => {
    const driver = driverVia();
    const tokens = await connect(driver);
    sim.injectFault({
      path: '/youtube/v3/channels',
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'quota',
          errors: [{ message: 'quota', domain: 'youtube.quota', reason: 'quotaExceeded' }],
        },
      },
    });
    const err = await expectPlatformError(driver.getProfile(tokens.accessToken), 'retry-later');
    expect(err.code).toBe('quotaExceeded');
    expect(err.retryAfterSec).toBeGreaterThan(0);
  });

  it('a Google account without a channel is reported clearly', async () => {
    const driver = driverVia();
    sim.hasChannel = false;
    try {
      const { query } = await openConsent(driver.authorizationUrl({ state: 's' }));
      const err = await expectPlatformError(
        driver.exchangeCode({ code: driver.parseCallback(query).code }),
        'bad-request',
      );
      expect(err.key).toBe('youtube_no_channel');
    } finally {
      sim.hasChannel = true;
    }
  });

  it('all traffic goes through the account proxy', async () => {
    proxy.reset();
    const driver = driverVia({ proxy: proxy.url });
    const tokens = await connect(driver); // the consent page itself is opened by the user's browser, not us
    await driver.getProfile(tokens.accessToken);
    const host = new URL(sim.url).host;
    expect(proxy.records.length).toBeGreaterThan(0);
    expect(proxy.records.every((r) => r.target === host && r.allowed)).toBe(true);
  });

  it('a dead proxy gives a proxy error quickly', async () => {
    const dead = await holdDeadPort();
    try {
      const driver = driverVia({ proxy: `http://127.0.0.1:${dead.port}` });
      const err = await expectPlatformError(driver.getProfile('whatever'), 'proxy');
      // Refused at once, not the overall timeout.
      expect(err).toMatchObject({ code: 'proxy_unreachable', key: 'proxy_unreachable' });
      expect(err.params).toEqual({ proxy: `127.0.0.1:${dead.port}`, reason: storedKey('net_refused') });
    } finally {
      await dead.close();
    }
  });
});
