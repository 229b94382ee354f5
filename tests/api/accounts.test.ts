import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describeEachDb } from '../helpers/app';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';

const SECRET_PASSWORD = 'Yt-Pa55-unique-7f3c91';
const SECRET_CLIENT = 'client-secret-unique-a81be2';
const IG_PASSWORD = 'Ig-Pa55-unique-0c4d2e';
const TWOFA = '2fa-unique-551177';
const PROXY_PASS = 'proxy-pass-unique-99aa';

const form = (over: Record<string, unknown> = {}) => ({
  proxy: 'http://127.0.0.1:3128',
  ipVersion: 'ipv4',
  comments: 'Main',
  ...over,
});

describeEachDb('accounts API', (ctx) => {
  let admin: { authorization: string };
  let user: { authorization: string };
  let other: { authorization: string };
  let userId: number;

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    userId = await ctx.createUser('anna', 'anna-pass');
    await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    user = (await ctx.login('anna', 'anna-pass')).headers;
    other = (await ctx.login('ivan', 'ivan-pass')).headers;
  });

  it('validates the form with the SPEC §5 messages, per field', async () => {
    let r = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: user,
      payload: { inYouTube: true, inInstagram: true },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({
      proxy: "Проксі обов'язковий",
      YouTubeAuthClientId: "client_id обов'язковий",
      YouTubeAuthClientSecret: "client_secret обов'язковий",
      InstagramLogin: "Логін Instagram обов'язкові",
      InstagramPassword: "Пороль Instagram обов'язкові",
    });
    for (const bad of ['ftp://1.2.3.4:21', 'http://host:99999', 'not a proxy', 'http://h/path']) {
      r = await ctx.call({ method: 'POST', url: '/api/accounts', token: user, payload: form({ proxy: bad }) });
      expect(r.status, bad).toBe(400);
      expect(r.body.errors.proxy).toBe('Проксі має бути адресою http://, https:// або socks5://');
    }
    r = await ctx.call({ method: 'POST', url: '/api/accounts', token: user, payload: form({ ipVersion: 'ipv5' }) });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ ipVersion: 'Невірне значення' });
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: user,
      payload: form({ inYouTube: 'sometimes' }),
      headers: { 'accept-language': 'en' },
    });
    expect(r).toMatchObject({ status: 400, body: { errors: { inYouTube: 'Invalid value' } } });
    // Without the toggles the platform fields are optional.
    r = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: user,
      payload: { proxy: 'socks5://1.2.3.4:1080' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      ipVersion: 'ipv4',
      status: 'noactive',
      inYouTube: false,
      user: { id: userId, login: 'anna' },
    });
  });

  it('creates, reads, updates and deletes a profile with every SPEC §3 field', async () => {
    let r = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: user,
      payload: form({
        proxy: `http://u1:${PROXY_PASS}@10.0.0.1:8080`,
        inYouTube: true,
        YouTubeAuthClientId: 'cid.apps.googleusercontent.com',
        YouTubeAuthClientSecret: SECRET_CLIENT,
        YouTubeLogin: 'me@gmail.com',
        YouTubePassword: SECRET_PASSWORD,
        inInstagram: true,
        InstagramLogin: 'insta',
        InstagramPassword: IG_PASSWORD,
        InstagramTwofaCode: TWOFA,
        emailGPT: 'gpt@example.com',
        passwordGPT: 'gpt-pass',
      }),
    });
    expect(r.status).toBe(201);
    const id = r.body.id;
    for (const f of [
      'id',
      'comments',
      'proxy',
      'ipVersion',
      'group',
      'user',
      'status',
      'idGPT',
      'isActiveYouTube',
      'isActiveTikTok',
      'isActiveInstagram',
      'isActiveGPT',
      'inYouTube',
      'inTikTok',
      'inInstagram',
      'YouTubeAuthClientId',
      'YouTubeAuthClientSecret',
      'YouTubeLogin',
      'YouTubePassword',
      'InstagramLogin',
      'InstagramPassword',
      'InstagramTwofaCode',
      'description',
      'titleChannel',
      'urlChannel',
      'profileNameInstagram',
      'profileDescriptionInstagram',
      'urlInstagram',
      'titleTikTok',
      'descriptionTikTok',
      'urlTikTok',
      'emailGPT',
      'passwordGPT',
      'passwordDeepSeek',
      'proxyGPT',
      'error',
    ])
      expect(r.body, f).toHaveProperty(f);
    expect(r.body).toMatchObject({
      YouTubePassword: SECRET_PASSWORD,
      YouTubeAuthClientSecret: SECRET_CLIENT,
      InstagramTwofaCode: TWOFA,
      status: 'noactive',
    });
    expect(JSON.stringify(r.body)).not.toMatch(/token/i);

    // PATCH with only the changed fields (the panel sends a diff); the rest is kept and re-validated.
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/${id}`,
      token: user,
      payload: { comments: 'Renamed', ipVersion: 'ipv6' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ comments: 'Renamed', ipVersion: 'ipv6', YouTubePassword: SECRET_PASSWORD });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/${id}`,
      token: user,
      payload: { YouTubeAuthClientSecret: '' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ YouTubeAuthClientSecret: "client_secret обов'язковий" });

    // idGPT must be an AI session of the profile's owner (server/ai).
    r = await ctx.call({ method: 'PATCH', url: `/api/accounts/gpt/${id}`, token: user, payload: { idGPT: 'gpt-77' } });
    expect(r.status).toBe(400);
    const owner = (
      await ctx.tdb.db.selectFrom('accounts').select('userId').where('id', '=', id).executeTakeFirstOrThrow()
    ).userId;
    const now = new Date().toISOString();
    const gpt = await ctx.tdb.db
      .insertInto('aiSessions')
      .values({ userId: owner, email: `gpt-${id}@example.com`, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    r = await ctx.call({ method: 'PATCH', url: `/api/accounts/gpt/${id}`, token: user, payload: { idGPT: gpt.id } });
    expect(r.body).toMatchObject({ idGPT: String(gpt.id), isActiveGPT: true });

    // Its videos: SPEC §3 Video item; they survive the delete, detached.
    const at = new Date().toISOString();
    await ctx.tdb.db
      .insertInto('videos')
      .values({
        userId,
        accountId: id,
        createdAt: at,
        status: 'success',
        views: 5,
        viewsInstagram: 2,
        tags: '["a","b"]',
        urlYouTube: 'https://youtu.be/x',
      })
      .execute();
    r = await ctx.call({ method: 'GET', url: `/api/accounts/${id}/video?page=1`, token: user });
    expect(r.body).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(r.body.data[0]).toMatchObject({
      status: 'success',
      views: 5,
      viewsInstagram: 2,
      tags: ['a', 'b'],
      urlYouTube: 'https://youtu.be/x',
      account: { id },
    });
    for (const f of [
      'url',
      'idUpload',
      'createdAt',
      'date',
      'title',
      'description',
      'likes',
      'likesInstagram',
      'comments',
      'commentsInstagram',
      'urlInstagram',
      'error',
      'errorInstagram',
      'errorTikTok',
    ]) {
      expect(r.body.data[0], f).toHaveProperty(f);
    }

    r = await ctx.call({ method: 'DELETE', url: `/api/accounts/${id}`, token: user });
    expect(r.status).toBe(200);
    expect((await ctx.call({ method: 'GET', url: `/api/accounts/${id}`, token: user })).status).toBe(404);
    const kept = await ctx.tdb.db.selectFrom('videos').select(['accountId']).where('userId', '=', userId).execute();
    expect(kept).toEqual([{ accountId: null }]);
  });

  it('keeps profiles to their owner; an admin sees all with the owner login', async () => {
    const mine = (
      await ctx.call({ method: 'POST', url: '/api/accounts', token: user, payload: form({ comments: 'anna-only' }) })
    ).body;
    const theirs = (
      await ctx.call({ method: 'POST', url: '/api/accounts', token: other, payload: form({ comments: 'ivan-only' }) })
    ).body;
    const list = await ctx.call({ method: 'GET', url: '/api/accounts?page=1', token: user });
    expect(new Set(list.body.data.map((a: any) => a.user.login))).toEqual(new Set(['anna']));
    expect(list.body.data.map((a: any) => a.id)).toContain(mine.id);
    expect(list.body.data[0]).not.toHaveProperty('proxy');
    const all = await ctx.call({ method: 'GET', url: '/api/accounts?page=1', token: admin });
    expect(all.body.data.find((a: any) => a.id === theirs.id)).toMatchObject({
      user: { login: 'ivan' },
      name: 'ivan-only',
    });
    for (const [method, url, payload] of [
      ['GET', `/api/accounts/${theirs.id}`],
      ['PATCH', `/api/accounts/${theirs.id}`, { comments: 'hacked' }],
      ['DELETE', `/api/accounts/${theirs.id}`],
      ['GET', `/api/accounts/${theirs.id}/video`],
      ['PATCH', `/api/accounts/update-channel/${theirs.id}`, { description: 'x' }],
      ['PATCH', `/api/accounts/update-profile-inst/${theirs.id}`, { profileName: 'x' }],
      ['PATCH', `/api/accounts/gpt/${theirs.id}`, { idGPT: '1' }],
      ['POST', `/api/accounts/connect-youtube/${theirs.id}`],
      ['POST', `/api/tiktok/authorize/${theirs.id}`],
      ['POST', `/api/instagram/authorize/${theirs.id}`],
    ] as const) {
      const r = await ctx.call({ method, url, token: user, payload: payload as any });
      expect(r.status, `${method} ${url}`).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain('ivan-only');
    }
    expect((await ctx.call({ method: 'GET', url: `/api/accounts/${theirs.id}`, token: admin })).body.comments).toBe(
      'ivan-only',
    );
    expect((await ctx.call({ method: 'GET', url: '/api/accounts' })).status).toBe(401);
    expect((await ctx.call({ method: 'GET', url: '/api/accounts/abc', token: user })).status).toBe(400);
  });

  it('validates the YouTube and Instagram panels (SPEC §5) and says Instagram keeps the values locally', async () => {
    const a = (await ctx.call({ method: 'POST', url: '/api/accounts', token: user, payload: form() })).body;
    let r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/update-channel/${a.id}`,
      token: user,
      payload: { description: ' ' },
    });
    expect(r.body.errors).toEqual({ description: "Опис обов'язковий" });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/update-channel/${a.id}`,
      token: user,
      payload: { description: 'Шортси <щодня>' },
    });
    expect(r).toMatchObject({ status: 400, body: { errors: { description: 'Опис не може містити символи < або >' } } });
    r = await ctx.call({ method: 'POST', url: `/api/accounts/sync/${a.id}?platform=myspace`, token: user });
    expect(r).toMatchObject({ status: 400, body: { errors: { platform: expect.any(String) } } });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/update-channel/${a.id}`,
      token: user,
      payload: { description: 'x' },
    });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('YouTube не підключено');
    r = await ctx.call({ method: 'PATCH', url: `/api/accounts/update-profile-inst/${a.id}`, token: user, payload: {} });
    expect(r.body.errors).toEqual({ profileName: "Назва обов'язкова", profileDescription: "Опис обов'язковий" });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/update-profile-inst/${a.id}`,
      token: user,
      payload: { profileDescription: 'bio' },
    });
    expect(r.status).toBe(200);
    expect(r.body.profileDescriptionInstagram).toBe('bio');
    expect(r.body.notice).toMatch(/Instagram/);
  });

  it('seals every secret: the database holds none of them in the clear', async () => {
    await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: user,
      payload: form({
        proxy: `socks5://u:${PROXY_PASS}@10.0.0.2:1080`,
        inYouTube: true,
        YouTubeAuthClientId: 'cid',
        YouTubeAuthClientSecret: SECRET_CLIENT,
        YouTubePassword: SECRET_PASSWORD,
        inInstagram: true,
        InstagramLogin: 'i',
        InstagramPassword: IG_PASSWORD,
        InstagramTwofaCode: TWOFA,
      }),
    });
    const needles = [SECRET_PASSWORD, SECRET_CLIENT, IG_PASSWORD, TWOFA, PROXY_PASS];
    let dump: string;
    if (ctx.tdb.kind === 'sqlite') {
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(ctx.tdb.db);
      const file = join(ctx.tdb.dataDir, 'test.sqlite');
      dump = [file, file + '-wal']
        .filter(existsSync)
        .map((f) => readFileSync(f).toString('latin1'))
        .join('');
    } else {
      const rows = await sql<{ j: string }>`SELECT row_to_json(a)::text AS j FROM accounts a`.execute(ctx.tdb.db);
      dump = rows.rows.map((r) => r.j).join('\n');
    }
    expect(dump.length).toBeGreaterThan(100);
    for (const n of needles) expect(dump.includes(n), n).toBe(false);
  });

  it('refuses to start with another APP_KEY than the one the database was sealed with', async () => {
    const config = loadConfig(
      {
        LOG_LEVEL: 'silent',
        JWT_SECRET: 'x'.repeat(40),
        APP_KEY: 'another-key-entirely-0123456789',
        DATA_DIR: ctx.tdb.dataDir,
        WORKERS: 'off',
      } as any,
      { panelDir: '/nonexistent' },
    );
    await expect(buildApp({ config, db: ctx.tdb.db, dbKind: ctx.tdb.kind })).rejects.toThrow(
      'APP_KEY does not match the key this database was sealed with',
    );
  });
});
