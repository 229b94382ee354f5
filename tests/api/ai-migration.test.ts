import { Migrator, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { insertRequest, makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

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
    expect((await migrator.migrateTo('008_publications')).error).toBeUndefined();
    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'm', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const requestId = await insertRequest(db, user.id, 'up-1');
    const pub = await db
      .insertInto('publications')
      .values({ userId: user.id, requestId, title: 'T', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const video = await db
      .insertInto('videos')
      .values({ userId: user.id, publicationId: pub.id, createdAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('publications').selectAll().execute()).toMatchObject([
      { id: pub.id, requestId, title: 'T' },
    ]);
    // A publication without a request (an AI video's), and the request stays unique.
    await db
      .insertInto('publications')
      .values({ userId: user.id, requestId: null, title: 'AI', createdAt: at, updatedAt: at })
      .execute();
    await expect(
      db
        .insertInto('publications')
        .values({ userId: user.id, requestId, title: 'dup', createdAt: at, updatedAt: at })
        .execute(),
    ).rejects.toThrow();
    // Foreign keys still act: deleting the request cascades to its publication, which unlinks the video.
    await db.deleteFrom('createVideoRequests').where('id', '=', requestId).execute();
    expect(await db.selectFrom('publications').select('title').execute()).toEqual([{ title: 'AI' }]);
    const v = await db
      .selectFrom('videos')
      .select('publicationId')
      .where('id', '=', video.id)
      .executeTakeFirstOrThrow();
    expect(v.publicationId).toBeNull();
  });
});

/**
 * Migration 015 makes AI sessions unique per (owner, email) instead of per email; on SQLite that is a table
 * rebuild. With rows in place: down refuses while an email has sessions of several users, and goes once it has
 * not; up and down keep the rows, their ids, the AUTOINCREMENT counter and the foreign keys around them.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 015 [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)(
    'keeps sessions through down and up; down refuses shared emails',
    async () => {
      const { db } = tdb;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => migrations as Record<string, Migration> },
      });
      const at = new Date().toISOString();
      const user = (login: string) =>
        db
          .insertInto('users')
          .values({ login, passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((r) => r.id);
      const session = (userId: number, email: string) =>
        db
          .insertInto('aiSessions')
          .values({ userId, email, createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((r) => r.id);
      const sessions = () => db.selectFrom('aiSessions').select(['id', 'userId', 'email']).orderBy('id').execute();
      // Later migrations go down first: the database stands at 015 for the down steps below.
      expect((await migrator.migrateTo('015_ai_session_owner_email')).error).toBeUndefined();
      const a = await user('a');
      const b = await user('b');
      const ax = await session(a, 'x@y.z');
      const bx = await session(b, 'x@y.z');
      const ay = await session(a, 'y@y.z');
      await expect(session(a, 'x@y.z')).rejects.toThrow();
      await db
        .insertInto('aiMessages')
        .values({ sessionId: ay, provider: 'gpt', messageMy: 'm', textMy: 'm', createdAt: at })
        .execute();

      // Down to just before 015, whatever came after it.
      const refused = await migrator.migrateTo('014_user_limits');
      expect((refused.error as Error).message).toMatch(
        /015 down: 1 email\(s\) have AI sessions of several users \(x@y\.z\)/,
      );
      expect(await sessions()).toHaveLength(3);
      await expect(session(a, 'x@y.z')).rejects.toThrow();

      await db.deleteFrom('aiSessions').where('id', '=', bx).execute();
      const gone = await session(b, 'gone@y.z'); // the highest id, deleted: not handed out again
      await db.deleteFrom('aiSessions').where('id', '=', gone).execute();
      const down = await migrator.migrateTo('014_user_limits');
      expect(down.error).toBeUndefined();
      expect(down.results?.at(-1)?.migrationName).toBe('015_ai_session_owner_email');
      const kept = [
        { id: ax, userId: a, email: 'x@y.z' },
        { id: ay, userId: a, email: 'y@y.z' },
      ];
      expect(await sessions()).toEqual(kept);
      await expect(session(b, 'x@y.z')).rejects.toThrow(); // unique per email again

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await sessions()).toEqual(kept);
      const again = await session(b, 'x@y.z');
      expect(again).toBeGreaterThan(gone);
      await expect(session(b, 'x@y.z')).rejects.toThrow();
      // Foreign keys still act: deleting a session cascades to its chat turns.
      expect(await db.selectFrom('aiMessages').select('sessionId').execute()).toEqual([{ sessionId: ay }]);
      await db.deleteFrom('aiSessions').where('id', '=', ay).execute();
      expect(await db.selectFrom('aiMessages').selectAll().execute()).toEqual([]);
      await expect(
        db
          .insertInto('aiMessages')
          .values({ sessionId: 9999, provider: 'gpt', messageMy: 'm', textMy: 'm', createdAt: at })
          .execute(),
      ).rejects.toThrow();
    },
  );
});
