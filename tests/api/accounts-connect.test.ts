import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../server/app';
import type { Config } from '../../server/config';
import type { DbKind } from '../../server/db/index';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { keepAliveJob, keepAliveJobKey, scheduleKeepAlive } from '../../server/accounts/accounts.jobs';
import { describeEachDb } from '../helpers/app';
import { holdDeadPort, startLocalProxy, type DeadAddress, type LocalProxy } from '../../sim/platforms/local-proxy';
import { decodeMessage, splitDetail } from '../../src/contract/stored-message';
import { openConsent, storedKey } from '../platforms/helpers';

/**
 * Connect flows against the local simulators, every platform call through a test proxy. Each database's run
 * gets simulators of its own (their clocks move and grants are revoked here), so neither run depends on the other.
 */
let proxy: LocalProxy;
let dead: DeadAddress;
const simsByKind: Partial<Record<DbKind, Simulators>> = {};

beforeAll(async () => {
  proxy = await startLocalProxy({ username: 'pu', password: 'pp' });
  dead = await holdDeadPort(); // a port where connections are refused: a dead proxy
});
afterAll(async () => {
  await Promise.all(Object.values(simsByKind).map((s) => s.close()));
  await proxy?.close();
  await dead?.close();
});

async function overrides(kind: DbKind): Promise<Partial<Config>> {
  const sims = await startSimulators();
  simsByKind[kind] = sims;
  // The simulators' local proxy listens on 127.0.0.1: allowed here as ALLOW_PRIVATE_PROXIES=true does.
  return { publicUrl: 'http://kadr.test', platformTimeoutMs: 5_000, platforms: sims.config, allowPrivateProxies: true };
}

/** The key of a stored message (a profile's error column). */
const keyOf = (stored: string | null) => (stored ? decodeMessage(stored)?.key : undefined);

describeEachDb(
  'accounts: platform connections',
  (ctx) => {
    let user: { authorization: string };
    let other: { authorization: string };
    let sims: Simulators;

    beforeAll(async () => {
      sims = simsByKind[ctx.tdb.kind]!;
      await ctx.createUser('olha', 'olha-pass');
      await ctx.createUser('petro', 'petro-pass');
      user = (await ctx.login('olha', 'olha-pass')).headers;
      other = (await ctx.login('petro', 'petro-pass')).headers;
    });

    const create = async (over: Record<string, unknown> = {}) => {
      const r = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token: user,
        payload: {
          proxy: proxy.url,
          inYouTube: true,
          YouTubeAuthClientId: 'yt-client.apps.googleusercontent.com',
          YouTubeAuthClientSecret: 'yt-secret',
          ...over,
        },
      });
      expect(r.status).toBe(201);
      return r.body.id as number;
    };
    /** Clicks through the consent screen and lands on our callback like the browser would. */
    const connect = async (path: string) => {
      const link = await ctx.call({ method: 'POST', url: path, token: user });
      expect(link.status).toBe(200);
      const consent = await openConsent(link.body.url);
      expect(consent.location.origin + consent.location.pathname).toMatch(
        /^http:\/\/kadr\.test\/api\/oauth\/\w+\/callback$/,
      );
      return ctx.call({ method: 'GET', url: consent.location.pathname + consent.location.search });
    };
    const get = async (id: number) => (await ctx.call({ method: 'GET', url: `/api/accounts/${id}`, token: user })).body;
    /** A profile's stored tokens on a platform, unsealed. */
    const tokensOf = async (id: number, platform: string) => {
      const row = await ctx.tdb.db
        .selectFrom('accountPlatforms')
        .select('tokensSealed')
        .where('accountId', '=', id)
        .where('platform', '=', platform)
        .executeTakeFirstOrThrow();
      return JSON.parse(ctx.root.sealer.open(row.tokensSealed!)) as { accessToken: string; expiresAt: string };
    };

    it('YouTube: link, consent, tokens sealed, channel read, description changed, through the proxy', async () => {
      const id = await create();
      const link = await ctx.call({ method: 'POST', url: `/api/accounts/connect-youtube/${id}`, token: user });
      const u = new URL(link.body.url);
      expect(u.origin).toBe(sims.google.url);
      expect(u.searchParams.get('client_id')).toBe('yt-client.apps.googleusercontent.com');
      expect(u.searchParams.get('access_type')).toBe('offline');
      expect(u.searchParams.get('prompt')).toBe('consent');
      expect(u.searchParams.get('scope')).toContain('youtube.upload');
      expect(u.searchParams.get('redirect_uri')).toBe('http://kadr.test/api/oauth/youtube/callback');

      proxy.reset();
      const cb = await connect(`/api/accounts/connect-youtube/${id}`);
      expect(cb.status).toBe(302);
      expect(cb.headers.location).toBe(`/accounts/${id}?connected=youtube`);
      expect(proxy.records.some((r) => r.allowed && r.target === new URL(sims.google.url).host)).toBe(true);

      let a = await get(id);
      expect(a).toMatchObject({
        isActiveYouTube: true,
        titleChannel: sims.google.channel.title,
        status: 'success',
        error: null,
      });
      expect(a.urlChannel).toContain(sims.google.channel.id);
      const listed = await ctx.call({ method: 'GET', url: '/api/accounts', token: user });
      expect(listed.body.data.find((o: { id: number }) => o.id === id).handles).toEqual([
        { platform: 'youtube', name: sims.google.channel.title, username: 'kadrsim', avatar: expect.any(String) },
      ]);
      expect(JSON.stringify(a)).not.toMatch(/access_?token|refresh_?token/i);

      const r = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/update-channel/${id}`,
        token: user,
        payload: { description: 'Нові шортси щодня' },
      });
      expect(r.status).toBe(200);
      expect(sims.google.channel.description).toBe('Нові шортси щодня');
      a = await get(id);
      expect(a.description).toBe('Нові шортси щодня');

      // Another user can neither use the callback state for their own nor reach the profile.
      expect(
        (
          await ctx.call({
            method: 'PATCH',
            url: `/api/accounts/update-channel/${id}`,
            token: other,
            payload: { description: 'x' },
          })
        ).status,
      ).toBe(404);
    });

    it('YouTube: an expired access token is refreshed; a revoked grant asks to reconnect, shown on the profile', async () => {
      const id = await create();
      await connect(`/api/accounts/connect-youtube/${id}`);
      const before = sims.google.refreshCount;
      sims.google.expireAccessTokens();
      let r = await ctx.call({ method: 'POST', url: `/api/accounts/sync/${id}?platform=youtube`, token: user });
      expect(r.status).toBe(200);
      expect(sims.google.refreshCount).toBe(before + 1);

      sims.google.revokeAll();
      sims.google.expireAccessTokens();
      r = await ctx.call({
        method: 'POST',
        url: `/api/accounts/sync/${id}?platform=youtube`,
        token: user,
        headers: { 'accept-language': 'en' },
      });
      expect(r.status).toBe(409);
      // Stored as a key with parameters; the API answers in the caller's language.
      expect(r.body.message).toMatch(/^Access to YouTube is lost, connect the YouTube account again\. Reason: /);
      const a = await get(id);
      expect(a.isActiveYouTube).toBe(false);
      expect(a.status).toBe('error');
      // Google's own words are the message's detail, apart from the translated reason.
      expect(keyOf(splitDetail(a.error).message)).toBe(storedKey('access_lost'));
      expect(decodeMessage(splitDetail(a.error).message)!.params.platform).toBe('YouTube');
      expect(a.platformErrors.youtube).toBe(a.error);

      // Reconnecting clears it.
      const cb = await connect(`/api/accounts/connect-youtube/${id}`);
      expect(cb.status).toBe(302);
      expect(await get(id)).toMatchObject({
        isActiveYouTube: true,
        error: null,
        status: 'success',
        platformErrors: { youtube: null },
      });
    });

    it('a denied consent is a readable error on the profile, and the platform stays off', async () => {
      const id = await create();
      sims.google.denyNextConsent();
      const cb = await connect(`/api/accounts/connect-youtube/${id}`);
      expect(cb.status).toBe(302);
      expect(cb.headers.location).toBe(`/accounts/${id}?connect_error=youtube`);
      const a = await get(id);
      expect(a.isActiveYouTube).toBe(false);
      expect(keyOf(a.error)).toBe(storedKey('access_denied'));
      expect(a.status).toBe('error');
      // The operator gives up on YouTube for this profile: turning it off clears the error and the status.
      const r = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${id}`,
        token: user,
        payload: { inYouTube: false },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        inYouTube: false,
        error: null,
        status: 'noactive',
        platformErrors: { youtube: null },
      });
    });

    it('TikTok and Instagram: authorize links and callbacks fill name, bio and link', async () => {
      const id = await create({ inYouTube: false });
      let cb = await connect(`/api/tiktok/authorize/${id}`);
      expect(cb.headers.location).toBe(`/accounts/${id}?connected=tiktok`);
      cb = await connect(`/api/instagram/authorize/${id}`);
      expect(cb.headers.location).toBe(`/accounts/${id}?connected=instagram`);
      const a = await get(id);
      expect(a).toMatchObject({
        isActiveTikTok: true,
        inTikTok: true,
        isActiveInstagram: true,
        inInstagram: true,
        status: 'success',
      });
      expect(a.titleTikTok).toBe(sims.tiktok.user.display_name);
      expect(a.descriptionTikTok).toBe(sims.tiktok.user.bio_description);
      expect(a.urlTikTok).toBeTruthy();
      expect(a.profileNameInstagram).toBeTruthy();
      expect(a.urlInstagram).toMatch(/instagram\.com/);
      // Issue 18 item 1: the platforms' @usernames and avatars are kept, and every answer naming the profile has them.
      const handles = [
        {
          platform: 'tiktok',
          name: sims.tiktok.user.display_name,
          username: sims.tiktok.user.username,
          avatar: sims.tiktok.user.avatar_url,
        },
        {
          platform: 'instagram',
          name: sims.instagram.profile.name,
          username: sims.instagram.profile.username,
          avatar: sims.instagram.profile.profile_picture_url,
        },
      ];
      const search = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0', token: user });
      expect(search.body.find((o: { id: number }) => o.id === id)).toMatchObject({ id, handles });
      const list = await ctx.call({ method: 'GET', url: '/api/accounts', token: user });
      expect(list.body.data.find((o: { id: number }) => o.id === id)).toMatchObject({ id, handles });
      const byHandle = await ctx.call({
        method: 'GET',
        url: `/api/accounts/search?groupId=0&q=${encodeURIComponent(sims.tiktok.user.username)}`,
        token: user,
      });
      expect(byHandle.body.map((o: { id: number }) => o.id)).toContain(id);
      // TikTok rotates refresh tokens: an expired token refreshes and the new refresh token is kept.
      sims.tiktok.expireAccessTokens();
      expect(
        (await ctx.call({ method: 'POST', url: `/api/accounts/sync/${id}?platform=tiktok`, token: user })).status,
      ).toBe(200);
      sims.tiktok.expireAccessTokens();
      expect(
        (await ctx.call({ method: 'POST', url: `/api/accounts/sync/${id}?platform=tiktok`, token: user })).status,
      ).toBe(200);
    });

    it('keeps idle grants alive: an Instagram token near its end is refreshed, fresh grants are left alone, a refused one asks to reconnect', async () => {
      const ig = await create({ inYouTube: false });
      await connect(`/api/instagram/authorize/${ig}`);
      const yt = await create();
      await connect(`/api/accounts/connect-youtube/${yt}`);
      const service = ctx.root.services.keepAlive;
      const igTokens = () => tokensOf(ig, 'instagram');
      const before = await igTokens();
      const DAY = 24 * 3600_000;

      // A month on nothing is due: no call at all.
      const igRefreshes = sims.instagram.refreshCount;
      const ytRefreshes = sims.google.refreshCount;
      await service.keepGrantsAlive({ now: new Date(Date.now() + 30 * DAY) });
      expect(sims.instagram.refreshCount).toBe(igRefreshes);

      // 55 days on, the 60-day Instagram token is within its last week: refreshed through the proxy and stored.
      sims.instagram.advance(55 * DAY);
      const seen = proxy.count;
      const r = await service.keepGrantsAlive({ now: new Date(Date.now() + 55 * DAY) });
      expect(r.refreshed).toBeGreaterThanOrEqual(1);
      expect(sims.instagram.refreshCount).toBeGreaterThan(igRefreshes);
      expect(sims.google.refreshCount).toBe(ytRefreshes); // a Google grant in use is not due
      expect(proxy.count).toBeGreaterThan(seen);
      const after = await igTokens();
      expect(after.accessToken).not.toBe(before.accessToken);
      expect(Date.parse(after.expiresAt)).toBeGreaterThan(Date.parse(before.expiresAt));
      expect((await get(ig)).status).toBe('success');

      // The user removed the app on Instagram: the next pass marks the platform for reconnection.
      sims.instagram.revokeAll();
      await service.keepGrantsAlive({ now: new Date(Date.now() + 58 * 2 * DAY) });
      const a = await get(ig);
      expect(a).toMatchObject({ isActiveInstagram: false, status: 'error' });
      expect(decodeMessage(a.platformErrors.instagram)).toMatchObject({
        key: storedKey('access_lost'),
        params: { platform: 'Instagram' },
      });
    });

    it('a grant in its last week that cannot be renewed (its proxy is down) warns its owner once a day, still connected', async () => {
      const ig = await create({ inYouTube: false });
      await connect(`/api/instagram/authorize/${ig}`);
      const DAY = 24 * 3600_000;
      const moved = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${ig}`,
        token: user,
        payload: { proxy: `http://127.0.0.1:${dead.port}`, InstagramLogin: 'kadr.sim', InstagramPassword: 'pw' },
      });
      expect(moved.status).toBe(200);
      const service = ctx.root.services.keepAlive;
      const warnings = async () =>
        (await ctx.tdb.db.selectFrom('events').select('payload').where('kind', '=', 'grant.expiring').execute())
          .map((e) => JSON.parse(e.payload) as { accountId: number; platform: string; lapsesAt: string; error: string })
          .filter((p) => p.accountId === ig);
      const lapses = Date.parse((await tokensOf(ig, 'instagram')).expiresAt);
      // A month before it lapses, nothing is due: no warning.
      await service.keepGrantsAlive({ now: new Date(lapses - 30 * DAY) });
      expect(await warnings()).toEqual([]);
      // In its last week: the refresh fails on the proxy; the owner hears it, the grant stays.
      const r = await service.keepGrantsAlive({ now: new Date(lapses - 3 * DAY) });
      expect(r.failed).toBeGreaterThanOrEqual(1);
      const [warned, ...more] = await warnings();
      expect(more).toEqual([]);
      expect(warned).toMatchObject({ accountId: ig, platform: 'instagram' });
      expect(warned!.lapsesAt).toBe(new Date(lapses).toISOString());
      expect(keyOf(warned!.error)).toBe(storedKey('proxy_unreachable'));
      expect((await get(ig)).isActiveInstagram).toBe(true);
      await ctx.root.events.drain();
      const bell = await ctx.tdb.db
        .selectFrom('notifications')
        .select(['kind', 'link'])
        .where('kind', '=', 'grant_expiring')
        .execute();
      expect(bell).toEqual([{ kind: 'grant_expiring', link: `/accounts/${ig}` }]);
      // The next run, hours later: not again the same day.
      await service.keepGrantsAlive({ now: new Date(lapses - 3 * DAY + 6 * 3600_000) });
      expect(await warnings()).toHaveLength(1);
    });

    it('TikTok: a call holding a refresh token another process already spent retries with the stored one', async () => {
      const id = await create({ inYouTube: false });
      await connect(`/api/tiktok/authorize/${id}`);
      const repo = ctx.root.repos.accounts;
      const stale = (await repo.get(id))!; // what a second process read before the first one refreshed
      sims.tiktok.expireAccessTokens();
      expect(
        (await ctx.call({ method: 'POST', url: `/api/accounts/sync/${id}?platform=tiktok`, token: user })).status,
      ).toBe(200); // rotates
      sims.tiktok.expireAccessTokens();
      // The stale refresh token is refused (invalid_grant); the stored, newer one works.
      const profile = await ctx.root.services.connections.withPlatform(stale, 'tiktok', (d, token) =>
        d.getProfile(token),
      );
      expect(profile.title).toBe(sims.tiktok.user.display_name);
      expect(await get(id)).toMatchObject({ isActiveTikTok: true, platformErrors: { tiktok: null } });
    });

    it('the keep-alive job is enqueued once per slot by any number of workers, and runs', async () => {
      const { queue } = ctx.root;
      await ctx.root.createJobRunner().drain(); // the proxy checks of the profiles earlier tests saved
      const stops = [scheduleKeepAlive(queue.enqueue), scheduleKeepAlive(queue.enqueue)];
      stops.forEach((stop) => stop());
      await vi.waitFor(async () => {
        const jobs = (await queue.list()).filter((j) => j.name === 'accounts.keep-alive');
        expect(jobs.map((j) => j.key)).toEqual([keepAliveJobKey(Date.now())]);
      });
      // A runner over the whole catalogue: the keep-alive job is the only one queued.
      const runner = ctx.root.createJobRunner();
      expect(await runner.drain()).toBe(1);
      expect((await queue.get(keepAliveJobKey(Date.now())))!.maxAttempts).toBe(1); // keepAliveJob never retries blindly
      expect(keepAliveJob.retry.kind).toBe('never');
      expect((await queue.get(keepAliveJobKey(Date.now())))!.status).toBe('done');
    });

    it('keeps OAuth tokens sealed: the database file holds no token in the clear', async () => {
      let dump: string;
      if (ctx.tdb.kind === 'sqlite') {
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(ctx.tdb.db);
        const file = join(ctx.tdb.dataDir, 'test.sqlite');
        dump = [file, file + '-wal']
          .filter(existsSync)
          .map((f) => readFileSync(f).toString('latin1'))
          .join('');
      } else {
        dump = (await sql<{ j: string }>`SELECT row_to_json(a)::text AS j FROM accounts a`.execute(ctx.tdb.db)).rows
          .map((r) => r.j)
          .join('\n');
      }
      expect(dump).toContain('s1.');
      // The simulators' token prefixes (Google access/refresh, Instagram long-lived) and the client secret.
      for (const needle of ['ya29.sim-', '1//0sim-', 'IGAAL', 'yt-secret'])
        expect(dump.includes(needle), needle).toBe(false);
    });

    it('a dead proxy is a quick, readable error stored on the profile (no hang)', async () => {
      const id = await create({ proxy: `http://127.0.0.1:${dead.port}` });
      const cb = await connect(`/api/accounts/connect-youtube/${id}`);
      expect(cb.status).toBe(302);
      const a = await get(id);
      // Refused at once (not the platform timeout), and stored for the panel to translate.
      expect(decodeMessage(a.error)).toEqual({
        key: storedKey('proxy_unreachable'),
        params: { proxy: `127.0.0.1:${dead.port}`, reason: storedKey('net_refused') },
      });
      expect(a.status).toBe('error');
      expect(keyOf(a.platformErrors.youtube)).toBe(storedKey('proxy_unreachable'));

      // A working proxy saved: what the dead one broke is gone (the profile no longer says "error" with the old
      // address), and connecting again succeeds.
      const fixed = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${id}`,
        token: user,
        payload: { proxy: proxy.url },
      });
      expect(fixed.status).toBe(200);
      expect(fixed.body).toMatchObject({ error: null, platformErrors: { youtube: null } });
      expect(fixed.body.status).not.toBe('error');
      expect((await connect(`/api/accounts/connect-youtube/${id}`)).status).toBe(302);
      expect(await get(id)).toMatchObject({ error: null, platformErrors: { youtube: null } });
    });

    it('a proxy is checked as soon as it is saved: a dead one marks the profile, a working one clears the mark', async () => {
      const { queue } = ctx.root;
      const runner = ctx.root.createJobRunner();
      await runner.drain(); // what earlier tests queued
      const checks = async () => (await queue.list()).filter((j) => j.name === 'accounts.proxy-check');
      const before = (await checks()).length;
      // A new profile behind a dead proxy, not connected anywhere yet: its list row said "Не вибраний" until a
      // platform call failed; the check right after the save marks it.
      const id = await create({ proxy: `http://127.0.0.1:${dead.port}` });
      expect((await checks()).length).toBe(before + 1);
      expect((await get(id)).status).not.toBe('error');
      await runner.drain();
      const a = await get(id);
      expect(a.status).toBe('error');
      expect(decodeMessage(a.error)).toEqual({
        key: storedKey('proxy_unreachable'),
        params: { proxy: `127.0.0.1:${dead.port}`, reason: storedKey('net_refused') },
      });

      // Another field saved: the proxy is not checked again.
      await ctx.call({ method: 'PATCH', url: `/api/accounts/${id}`, token: user, payload: { comments: 'резерв' } });
      expect((await checks()).length).toBe(before + 1);

      // A working proxy saved: checked too, and nothing marks the profile.
      const fixed = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${id}`,
        token: user,
        payload: { proxy: proxy.url },
      });
      expect(fixed.body.error).toBeNull();
      expect((await checks()).length).toBe(before + 2);
      await runner.drain();
      expect(await get(id)).toMatchObject({ error: null });
      expect((await get(id)).status).not.toBe('error');
      expect((await checks()).every((j) => j.status === 'done')).toBe(true);

      // A proxy failure written before (by a platform call) is cleared by a check that finds the proxy working.
      await ctx.tdb.db.updateTable('accounts').set({ error: a.error, status: 'error' }).where('id', '=', id).execute();
      expect(await ctx.root.services.connections.checkProxy(id)).toBe('works');
      expect(await get(id)).toMatchObject({ error: null });
      expect((await get(id)).status).not.toBe('error');
    });

    it('a proxy pointing inward is refused without internal details when private proxies are not allowed', async () => {
      const id = await create({ proxy: `http://localhost:${proxy.port}` });
      // Another process on the same database, whose configuration does not allow them (a config never changes).
      const config = { ...ctx.app.config, allowPrivateProxies: false };
      const strict = await buildApp({ config, db: ctx.tdb.db, dbKind: ctx.tdb.kind });
      try {
        const link = await strict.inject({ method: 'POST', url: `/api/accounts/connect-youtube/${id}`, headers: user });
        expect(link.statusCode).toBe(200);
        const consent = await openConsent(link.json().url);
        const cb = await strict.inject({ method: 'GET', url: consent.location.pathname + consent.location.search });
        expect(cb.statusCode).toBe(302);
      } finally {
        await strict.close();
      }
      const a = await get(id);
      expect(decodeMessage(a.error)).toEqual({ key: storedKey('proxy_refused'), params: {} });
      expect(a.error).not.toContain(String(proxy.port));
    });

    it('refuses a forged or foreign state', async () => {
      // The browser lands on the profile list with a reason code the panel translates.
      const r = await ctx.call({ method: 'GET', url: '/api/oauth/youtube/callback?code=abc&state=forged.value' });
      expect(r.status).toBe(302);
      expect(r.headers.location).toBe('/accounts/list?connect_error=youtube&reason=link_invalid');
      // A genuine link whose profile was deleted before the consent came back.
      const id = await create();
      const link = await ctx.call({ method: 'POST', url: `/api/accounts/connect-youtube/${id}`, token: user });
      const consent = await openConsent(link.body.url);
      expect((await ctx.call({ method: 'DELETE', url: `/api/accounts/${id}`, token: user })).status).toBe(200);
      const back = await ctx.call({ method: 'GET', url: consent.location.pathname + consent.location.search });
      expect(back.status).toBe(302);
      expect(back.headers.location).toBe('/accounts/list?connect_error=youtube&reason=link_profile_gone');
      expect((await ctx.call({ method: 'GET', url: '/api/oauth/myspace/callback?code=a&state=b' })).status).toBe(404);
    });
  },
  overrides,
);
