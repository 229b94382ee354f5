import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { describeEachDb } from '../helpers/app';

const BEFORE = '020_event_outbox';

/**
 * Migration 021 moves a profile's state per platform (grant, connected flag, error, handle, avatar) from columns
 * of `accounts` into `account_platforms` rows. Profiles written under the columns come out of the API as they
 * did: the record, the list item, the platform filter, the @handle search, a user's profiles; the sealed grants
 * move as they are, and the way down puts everything back in the columns.
 */
describeEachDb('migration 021 account platforms', (ctx) => {
  let anna: { authorization: string };
  let annaId: number;
  let admin: { authorization: string };
  let full: number;
  let bare: number;
  const sealed = { youtube: '', tiktok: '' };

  const migrator = () =>
    new Migrator({
      db: ctx.tdb.db as unknown as Kysely<any>,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
  const get = async (url: string, token = anna) => {
    const r = await ctx.call({ method: 'GET', url, token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const create = async (comments: string) => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: anna,
      payload: { proxy: 'http://127.0.0.1:3128', comments, inTikTok: true },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  };

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    annaId = await ctx.createUser('anna', 'anna-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    full = await create('Кухня');
    bare = await create('Порожній');
    sealed.youtube = ctx.root.sealer.seal('{"accessToken":"yt","refreshToken":"r","expiresAt":"2099-01-01T00:00:00Z"}');
    sealed.tiktok = ctx.root.sealer.seal('{"accessToken":"tt","refreshToken":"r","expiresAt":"2099-01-01T00:00:00Z"}');
  });

  it("moves each platform's state into rows; the API answers as under the columns", async () => {
    expect((await migrator().migrateTo(BEFORE)).error).toBeUndefined();
    const db = ctx.tdb.db as unknown as Kysely<any>;
    // Under 018's columns: YouTube connected, TikTok's grant lost (its error kept), Instagram never connected.
    await db
      .updateTable('accounts')
      .set({
        titleChannel: 'Кулінарія',
        titleTikTok: 'Кулінарія TT',
        isActiveYouTube: 1,
        tokensYouTubeSealed: sealed.youtube,
        handleYouTube: 'kulinaria',
        avatarYouTube: 'https://yt3.ggpht.com/a',
        isActiveTikTok: 0,
        tokensTikTokSealed: sealed.tiktok,
        errorTikTok: 'kadr.platform_errors.token_revoked',
        handleTikTok: '@kul_tt',
        status: 'error',
      })
      .where('id', '=', full)
      .execute();
    expect((await migrator().migrateToLatest()).error).toBeUndefined();

    const record = await get(`/api/accounts/${full}`);
    expect(record).toMatchObject({
      id: full,
      status: 'error',
      isActiveYouTube: true,
      isActiveTikTok: false,
      isActiveInstagram: false,
      inYouTube: false,
      inTikTok: true,
      titleChannel: 'Кулінарія',
      platformErrors: { youtube: null, tiktok: 'kadr.platform_errors.token_revoked', instagram: null },
    });
    expect(record).not.toHaveProperty('tokensYouTubeSealed');
    const handles = [
      { platform: 'youtube', name: 'Кулінарія', username: 'kulinaria', avatar: 'https://yt3.ggpht.com/a' },
      { platform: 'tiktok', name: 'Кулінарія TT', username: 'kul_tt', avatar: null },
    ];
    const list = await get('/api/accounts');
    expect(list.data.map((a: { id: number }) => a.id)).toEqual([bare, full]);
    expect(list.data[1]).toMatchObject({ handles, isActiveYouTube: true, isActiveTikTok: false });
    expect(list.data[0]).toMatchObject({
      handles: [],
      isActiveYouTube: false,
      platformErrors: { youtube: null, tiktok: null, instagram: null },
    });
    expect((await get('/api/accounts?platform=youtube')).data.map((a: { id: number }) => a.id)).toEqual([full]);
    expect((await get('/api/accounts?platform=tiktok')).data).toEqual([]);
    expect((await get('/api/accounts?q=%40kul_tt')).data.map((a: { id: number }) => a.id)).toEqual([full]);
    const own = await get(`/api/users/${annaId}/account`, admin);
    expect(own.data.find((a: { id: number }) => a.id === full)).toMatchObject({ handles, isActiveYouTube: true });

    // The grants moved sealed as they were; a profile without any state got no rows.
    const rows = await ctx.tdb.db
      .selectFrom('accountPlatforms')
      .select(['accountId', 'platform', 'tokensSealed', 'active'])
      .orderBy('platform')
      .execute();
    expect(rows).toEqual([
      { accountId: full, platform: 'tiktok', tokensSealed: sealed.tiktok, active: 0 },
      { accountId: full, platform: 'youtube', tokensSealed: sealed.youtube, active: 1 },
    ]);
  });

  it('goes down to the columns and up again with the same answers', async () => {
    const before = await get(`/api/accounts/${full}`);
    expect((await migrator().migrateTo(BEFORE)).error).toBeUndefined();
    const db = ctx.tdb.db as unknown as Kysely<any>;
    const row = await db
      .selectFrom('accounts')
      .select(['isActiveYouTube', 'tokensYouTubeSealed', 'errorTikTok', 'handleTikTok', 'isActiveInstagram'])
      .where('id', '=', full)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      isActiveYouTube: 1,
      tokensYouTubeSealed: sealed.youtube,
      errorTikTok: 'kadr.platform_errors.token_revoked',
      handleTikTok: '@kul_tt',
      isActiveInstagram: 0,
    });
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
    expect(await get(`/api/accounts/${full}`)).toEqual(before);
  });
});
