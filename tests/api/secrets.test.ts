import { Readable } from 'node:stream';
import { createSealer } from '../../server/crypto/seal';
import { describeEachDb } from '../helpers/app';
import { setPlatformState } from '../helpers/connected-tokens';

/** Unique plaintexts, so a leak is found by a plain substring search. */
const TOKENS = {
  youtube: {
    accessToken: 'yt-access-token-5e1f0a',
    refreshToken: 'yt-refresh-token-77c2b9',
    expiresAt: '2099-01-01T00:00:00.000Z',
  },
  tiktok: {
    accessToken: 'tt-access-token-0b8d41',
    refreshToken: 'tt-refresh-token-c93e12',
    expiresAt: '2099-01-01T00:00:00.000Z',
  },
  instagram: { accessToken: 'ig-access-token-4a6f33', expiresAt: '2099-01-01T00:00:00.000Z' },
};

describeEachDb('what answers never carry', (ctx) => {
  it('no sealed value, platform token, password hash or refresh-token hash leaves in any answer', async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    const annaId = await ctx.createUser('anna', 'anna-pass');
    const admin = await ctx.login('boss', 'boss-pass');
    const anna = await ctx.login('anna', 'anna-pass');
    const answers: string[] = [];
    const call = async (
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      token: { authorization: string },
      payload?: object,
    ) => {
      const r = await ctx.app.inject({ method, url, payload, headers: token });
      expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
      // Answers with a profile's or an AI session's secrets (and every other API answer) are never cached.
      expect(r.headers['cache-control'], `${method} ${url}`).toBe('no-store');
      answers.push(r.body);
      return JSON.parse(r.body);
    };

    // A profile with every secret set, then its three platforms connected (tokens sealed as the callback stores them).
    const created = await call('POST', '/api/accounts', anna.headers, {
      proxy: 'http://proxy-user:proxy-pass-3b1c@127.0.0.1:3128',
      comments: 'Main',
      inYouTube: true,
      inInstagram: true,
      inGPT: true,
      YouTubeAuthClientId: 'client-id-1',
      YouTubeAuthClientSecret: 'client-secret-9d2e',
      YouTubeLogin: 'yt-login',
      YouTubePassword: 'yt-pass-61aa',
      InstagramLogin: 'ig-login',
      InstagramPassword: 'ig-pass-0f4c',
      InstagramTwofaCode: '2fa-8d7e',
      emailGPT: 'gpt@example.com',
      passwordGPT: 'gpt-pass-c1c1',
      passwordDeepSeek: 'ds-pass-a2a2',
      proxyGPT: 'socks5://127.0.0.1:1080',
    });
    const sealer = createSealer(ctx.app.config.appKey);
    await ctx.tdb.db.updateTable('accounts').where('id', '=', created.id).set({ inTikTok: 1 }).execute();
    for (const platform of ['youtube', 'tiktok', 'instagram'] as const) {
      await setPlatformState(ctx.tdb.db, created.id, platform, {
        tokensSealed: sealer.seal(JSON.stringify(TOKENS[platform])),
        active: true,
      });
    }
    const group = await call('POST', '/api/accounts-group', anna.headers, { name: 'G', accounts: [created.id] });
    // An AI session of the profile, every sealed column set (as login and the browser driver leave them).
    const now = new Date().toISOString();
    const session = await ctx.tdb.db
      .insertInto('aiSessions')
      .values({
        userId: annaId,
        accountId: created.id,
        email: 'gpt@example.com',
        passwordSealed: sealer.seal('sk-gpt-key-7e7e'),
        passwordDeepseekSealed: sealer.seal('sk-ds-key-8f8f'),
        proxySealed: sealer.seal('http://ai-user:ai-pass-9a9a@127.0.0.1:3128'),
        browserStateGptSealed: sealer.seal('{"cookies":[{"name":"sid","value":"cookie-1b1b"}]}'),
        browserStateDeepseekSealed: sealer.seal('{"cookies":[{"name":"sid","value":"cookie-2c2c"}]}'),
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    for (const who of [anna.headers, admin.headers]) {
      await call('GET', '/api/accounts', who);
      const profile = await call('GET', `/api/accounts/${created.id}`, who);
      expect(profile.YouTubePassword).toBe('yt-pass-61aa'); // the owner and an admin read the secrets themselves
      await call('GET', `/api/accounts/${created.id}/video`, who);
      await call('PATCH', `/api/accounts/${created.id}`, who, { comments: 'Edited' });
      await call('PATCH', `/api/accounts/gpt/${created.id}`, who, { idGPT: session.id });
      await call('GET', '/api/ai/info', who);
      await call('GET', `/api/ai/info/${session.id}?type=gpt`, who);
      await call('GET', `/api/ai/info/${session.id}?type=deepseek`, who);
      await call('GET', '/api/ai/info/logs', who);
      await call('GET', '/api/ai/info/video', who);
      await call('PATCH', `/api/accounts/update-profile-inst/${created.id}`, who, {
        profileName: 'Name',
        profileDescription: '',
      });
      await call('GET', '/api/accounts/search?groupId=0', who);
      await call('GET', `/api/accounts-group/${group.id}`, who);
      await call('GET', '/api/auth/me', who);
    }
    for (const url of [
      '/api/users',
      `/api/users/${annaId}`,
      `/api/users/${annaId}/account`,
      `/api/users/${annaId}/video`,
    ]) {
      await call('GET', url, admin.headers);
    }
    await call('PATCH', `/api/users/${annaId}`, admin.headers, { login: 'anna', password: 'anna-pass', role: 'user' });
    await call('POST', '/api/users', admin.headers, { login: 'olga', password: 'olga-pass' });
    await call('POST', '/api/auth/refresh', {} as never, { refreshToken: admin.refreshToken });

    const account = await ctx.tdb.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    const sealed = Object.entries(account)
      .filter(([k, v]) => k.endsWith('Sealed') && typeof v === 'string')
      .map(([, v]) => v as string);
    expect(sealed.length).toBe(Object.keys(account).filter((k) => k.endsWith('Sealed')).length); // every secret is set
    // The platforms' grants, one row each (migration 021).
    const grants = await ctx.tdb.db
      .selectFrom('accountPlatforms')
      .select('tokensSealed')
      .where('accountId', '=', created.id)
      .execute();
    sealed.push(...grants.flatMap((g) => (g.tokensSealed ? [g.tokensSealed] : [])));
    expect(sealed.length).toBeGreaterThanOrEqual(11);
    const aiRow = await ctx.tdb.db
      .selectFrom('aiSessions')
      .selectAll()
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    const aiSealed = Object.entries(aiRow)
      .filter(([k, v]) => k.endsWith('Sealed') && typeof v === 'string')
      .map(([, v]) => v as string);
    expect(aiSealed.length).toBe(5);
    sealed.push(...aiSealed, 'cookie-1b1b', 'cookie-2c2c');
    const hashes = (await ctx.tdb.db.selectFrom('users').select('passwordHash').execute()).map((u) => u.passwordHash);
    const refreshHashes = (await ctx.tdb.db.selectFrom('refreshTokens').select('tokenHash').execute()).map(
      (t) => t.tokenHash,
    );
    expect(hashes.length).toBe(3);
    expect(refreshHashes.length).toBeGreaterThan(0);
    const tokens = Object.values(TOKENS).flatMap((t) => Object.values(t).filter((v) => !v.startsWith('2099')));
    const forbidden = [...sealed, ...tokens, ...hashes, ...refreshHashes];
    const leaks = forbidden.filter((secret) => answers.some((body) => body.includes(secret)));
    expect(answers.length).toBeGreaterThan(25);
    expect(leaks).toEqual([]);
    // Field names of stored secrets are not answered either.
    expect(answers.some((body) => /Sealed|passwordHash|tokenHash|"tokens/i.test(body))).toBe(false);
  });
});

describeEachDb('what answers carrying secrets tell caches', (ctx) => {
  it('sign-in tokens, live tickets and refused answers are no-store too; a signed media link stays cacheable', async () => {
    await ctx.createUser('anna', 'anna-pass');
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'anna', password: 'anna-pass' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const token = { authorization: `Bearer ${login.json().accessToken}` };
    const ticket = await ctx.app.inject({ method: 'POST', url: '/api/live/ticket', headers: token });
    expect(ticket.statusCode).toBe(200);
    expect(ticket.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/accounts/999999', '/api/ai/info/999999', '/api/nothing-here']) {
      const r = await ctx.app.inject({ method: 'GET', url, headers: token });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
    await ctx.app.media.storage.put('tests/cacheable.bin', Readable.from(Buffer.from('0123456789')));
    const media = await ctx.app.inject({ method: 'GET', url: ctx.app.media.signer.url('tests/cacheable.bin') });
    expect(media.statusCode).toBe(200);
    expect(media.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
  });
});
