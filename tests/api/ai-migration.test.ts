import { Migrator, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 009 makes publications.request_id nullable; on SQLite that is a table rebuild. Down to 008 and up
 * again with rows in place: the rows, their ids, the unique request and the foreign keys around it survive.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 009 [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('keeps publications and their links through down and up', async () => {
    const { db } = tdb;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    expect((await migrator.migrateDown()).error).toBeUndefined();
    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'm', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const req = await db
      .insertInto('createVideoRequests')
      .values({
        userId: user.id,
        idUpload: 'up-1',
        status: 'success',
        count: 1,
        isVideo: 0,
        isPhoto: 0,
        isGenerator: 0,
        folders: '[]',
        clipKey: 'clips/x.mp4',
        clipName: 'x.mp4',
        error: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pub = await db
      .insertInto('publications')
      .values({ userId: user.id, requestId: req.id, title: 'T', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const video = await db
      .insertInto('videos')
      .values({ userId: user.id, publicationId: pub.id, createdAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('publications').selectAll().execute()).toMatchObject([
      { id: pub.id, requestId: req.id, title: 'T' },
    ]);
    // A publication without a request (an AI video's), and the request stays unique.
    await db
      .insertInto('publications')
      .values({ userId: user.id, requestId: null, title: 'AI', createdAt: at, updatedAt: at })
      .execute();
    await expect(
      db
        .insertInto('publications')
        .values({ userId: user.id, requestId: req.id, title: 'dup', createdAt: at, updatedAt: at })
        .execute(),
    ).rejects.toThrow();
    // Foreign keys still act: deleting the request cascades to its publication, which unlinks the video.
    await db.deleteFrom('createVideoRequests').where('id', '=', req.id).execute();
    expect(await db.selectFrom('publications').select('title').execute()).toEqual([{ title: 'AI' }]);
    const v = await db
      .selectFrom('videos')
      .select('publicationId')
      .where('id', '=', video.id)
      .executeTakeFirstOrThrow();
    expect(v.publicationId).toBeNull();
  });
});
