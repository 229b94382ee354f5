import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { insertPublishedPost, makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 045 (issue 22's dashboard target): days written before it get their running totals from their
 * increments (also where a later read counted on an earlier day, whose "counters at the day's end" were not a
 * running sum), each profile × platform its running views, and each owner the days of their profiles added by
 * date. Down and up again.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 045 stat roll-ups [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('backfills running totals and the owners’ days', async () => {
    const db = tdb.db as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    expect((await migrator.migrateTo('042_webhook_secret_rotation')).error).toBeUndefined();

    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'm45', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [kyiv, utc] = await db
      .insertInto('accounts')
      .values([
        { userId: user.id, createdAt: at, timeZone: 'Europe/Kyiv' },
        { userId: user.id, createdAt: at, timeZone: null },
      ])
      .returning('id')
      .execute();
    const post = async (accountId: number, platform: string) => {
      const video = await db
        .insertInto('videos')
        .values({ userId: user.id, accountId, createdAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return insertPublishedPost(db, { videoId: video.id, accountId, platform, at });
    };
    const a = await post(kyiv.id, 'tiktok');
    const b = await post(utc.id, 'tiktok');
    // As 033 wrote them: increments and the counters at the day's end. Post a's last read counted on the day
    // before its latest one (its profile's zone moved west): its counters then (40) were no running sum.
    await db
      .insertInto('postStatDays')
      .values([
        { publishId: a, day: '2026-11-01', views: 10, likes: 2, viewsTotal: 10, likesTotal: 2 },
        { publishId: a, day: '2026-11-02', views: 15, likes: 1, viewsTotal: 40, likesTotal: 3 },
        { publishId: a, day: '2026-11-03', views: 15, likes: 0, viewsTotal: 25, likesTotal: 3 },
        { publishId: b, day: '2026-11-02', views: 7, likes: 1, viewsTotal: 7, likesTotal: 1 },
      ])
      .execute();
    await db
      .insertInto('profileStatDays')
      .values([
        { accountId: kyiv.id, platform: 'tiktok', day: '2026-11-01', views: 10, likes: 2 },
        { accountId: kyiv.id, platform: 'tiktok', day: '2026-11-02', views: 15, likes: 1 },
        { accountId: kyiv.id, platform: 'tiktok', day: '2026-11-03', views: 15, likes: 0 },
        { accountId: utc.id, platform: 'tiktok', day: '2026-11-02', views: 7, likes: 1 },
      ])
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = (q: Promise<Record<string, unknown>[]>, ...keys: string[]) =>
      q.then((rs) => rs.map((r) => keys.map((k) => (k === 'day' ? r[k] : Number(r[k])))));
    expect(
      await rows(
        db.selectFrom('postStatDays').selectAll().where('publishId', '=', a).orderBy('day').execute(),
        'day',
        'viewsTotal',
        'likesTotal',
      ),
    ).toEqual([
      ['2026-11-01', 10, 2],
      ['2026-11-02', 25, 3],
      ['2026-11-03', 40, 3],
    ]);
    expect(
      await rows(
        db.selectFrom('profileStatDays').selectAll().where('accountId', '=', kyiv.id).orderBy('day').execute(),
        'day',
        'viewsTotal',
      ),
    ).toEqual([
      ['2026-11-01', 10],
      ['2026-11-02', 25],
      ['2026-11-03', 40],
    ]);
    expect(
      await rows(
        db.selectFrom('userStatDays').selectAll().where('userId', '=', user.id).orderBy('day').execute(),
        'day',
        'views',
        'likes',
      ),
    ).toEqual([
      ['2026-11-01', 10, 2],
      ['2026-11-02', 22, 2],
      ['2026-11-03', 15, 0],
    ]);

    expect((await migrator.migrateTo('042_webhook_secret_rotation')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
