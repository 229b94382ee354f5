import { Migrator, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { seedFinishedRequest } from '../helpers/finished-request';

const pgOk = await postgresAvailable();

/**
 * Migration 026 (media retention) goes down and up again with rows in place: its columns and indexes go and come
 * back, the rows stay, and the new columns start NULL (measured and dated later by the retention pass).
 */
describe.each(['sqlite', 'postgres'] as const)('migration 026 media retention [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('down and up keep the rows', async () => {
    const { db } = tdb;
    const at = new Date().toISOString();
    const { id: userId } = await db
      .insertInto('users')
      .values({ login: 'anna', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const req = await seedFinishedRequest(db, userId, 2);
    await db.updateTable('videos').set({ size: 10, mediaRemovedAt: 1 }).where('id', '=', req.videos[0]!).execute();
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    const previous = Object.keys(migrations)[Object.keys(migrations).indexOf('026_media_retention') - 1]!;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const down = await db.selectFrom('videos').selectAll().where('requestId', '=', req.id).execute();
    expect(down).toHaveLength(2);
    expect(down[0]).not.toHaveProperty('mediaRemovedAt');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const up = await db
      .selectFrom('videos')
      .select(['id', 'size', 'mediaRemovedAt', 'publishedMs'])
      .where('requestId', '=', req.id)
      .orderBy('id')
      .execute();
    expect(up.map((v) => v.id)).toEqual(req.videos);
    expect(up.every((v) => v.size === null && v.mediaRemovedAt === null && v.publishedMs === null)).toBe(true);
    const r = await db
      .selectFrom('createVideoRequests')
      .select(['clipSize', 'clipRemovedAt', 'doneAt'])
      .where('id', '=', req.id)
      .executeTakeFirstOrThrow();
    expect(r).toEqual({ clipSize: null, clipRemovedAt: null, doneAt: null });
  });
});
