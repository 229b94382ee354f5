import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { insertPublishedPost, makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 046 (issue 22's dashboard target): each post with days written before it gets its latest totals
 * (its last day's running totals, its first and last day); a post without days gets none. Down and up again.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 046 post latest totals [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('fills each post’s latest totals from its days', async () => {
    const db = tdb.db as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    expect((await migrator.migrateTo('045_stat_rollups')).error).toBeUndefined();

    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'm46', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const account = await db
      .insertInto('accounts')
      .values({ userId: user.id, createdAt: at, timeZone: 'Europe/Kyiv' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const post = async (platform: string) => {
      const video = await db
        .insertInto('videos')
        .values({ userId: user.id, accountId: account.id, createdAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return insertPublishedPost(db, { videoId: video.id, accountId: account.id, platform, at });
    };
    const a = await post('tiktok');
    const b = await post('youtube');
    const none = await post('instagram'); // never read: no days, no latest row
    // As 045 keeps them: increments and running totals. Post a has a counter that went down (likes).
    const zero = Object.fromEntries(
      ['views', 'likes', 'comments', 'shares', 'saves'].flatMap((k) => [
        [k, 0],
        [`${k}Total`, 0],
      ]),
    );
    await db
      .insertInto('postStatDays')
      .values(
        [
          {
            publishId: a,
            day: '2026-11-01',
            views: 10,
            likes: 2,
            shares: 1,
            viewsTotal: 10,
            likesTotal: 2,
            sharesTotal: 1,
          },
          { publishId: a, day: '2026-11-03', views: 15, likes: -1, viewsTotal: 25, likesTotal: 1, sharesTotal: 1 },
          { publishId: a, day: '2026-11-02', views: 5, viewsTotal: 15, likesTotal: 2, sharesTotal: 1 },
          { publishId: b, day: '2026-11-02', views: 7, comments: 3, viewsTotal: 7, commentsTotal: 3 },
        ].map((r) => ({ ...zero, ...r })),
      )
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const latest = async () =>
      (await db.selectFrom('postStatLatest').selectAll().orderBy('publishId').execute()).map((r) => [
        r.publishId,
        r.firstDay,
        r.day,
        ...['views', 'likes', 'comments', 'shares', 'saves'].map((k) => Number(r[`${k}Total`])),
      ]);
    expect(await latest()).toEqual([
      [a, '2026-11-01', '2026-11-03', 25, 1, 0, 1, 0],
      [b, '2026-11-02', '2026-11-02', 7, 0, 3, 0, 0],
    ]);
    expect((await latest()).some((r) => r[0] === none)).toBe(false);

    expect((await migrator.migrateTo('045_stat_rollups')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await latest()).toHaveLength(2);
  });
});
