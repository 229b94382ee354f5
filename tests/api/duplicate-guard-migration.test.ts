import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 037 (issue 21 item 5): posts written before it get their file from their video; duplicates already
 * there (one file live twice on a profile and platform) become repeats of the one before, so the partial unique
 * index builds; cancelled posts stay out of it. Down and up again.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 037 duplicate guard [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)(
    'backfills files, turns old duplicates into repeats, builds the index',
    async () => {
      const db = tdb.db as unknown as Kysely<any>;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => migrations as Record<string, Migration> },
      });
      const hasIndex = async () => {
        const q =
          kind === 'postgres'
            ? sql<{
                n: number;
              }>`select count(*)::int as n from pg_indexes where indexname = 'video_publishes_no_repeat'`
            : sql<{
                n: number;
              }>`select count(*) as n from sqlite_master where type = 'index' and name = 'video_publishes_no_repeat'`;
        return Number((await q.execute(db)).rows[0]!.n) === 1;
      };
      expect(await hasIndex()).toBe(true);
      expect((await migrator.migrateTo('027_calendar')).error).toBeUndefined();
      expect(await hasIndex()).toBe(false);

      const at = new Date().toISOString();
      const user = await db
        .insertInto('users')
        .values({ login: 'm37', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const account = await db
        .insertInto('accounts')
        .values({ userId: user.id, createdAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const video = async () =>
        (
          await db
            .insertInto('videos')
            .values({ userId: user.id, createdAt: at, storageKey: 'videos/1/same/0.mp4' })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const post = async (videoId: number, state: string) =>
        (
          await db
            .insertInto('videoPublishes')
            .values({
              videoId,
              platform: 'youtube',
              accountId: account.id,
              state,
              dueAt: at,
              videoVersion: 1,
              createdAt: at,
              updatedAt: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const first = await post(await video(), 'published');
      const second = await post(await video(), 'scheduled');
      const gone = await post(await video(), 'cancelled');

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await hasIndex()).toBe(true);
      const rows = await db
        .selectFrom('videoPublishes')
        .select(['id', 'fileKey', 'repeatOf'])
        .where('id', 'in', [first, second, gone])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: first, fileKey: 'videos/1/same/0.mp4', repeatOf: 0 },
        { id: second, fileKey: 'videos/1/same/0.mp4', repeatOf: first },
        { id: gone, fileKey: 'videos/1/same/0.mp4', repeatOf: 0 },
      ]);
      // The index now refuses a third live post of that file on that profile and platform as a first post.
      await expect(
        db.updateTable('videoPublishes').set({ state: 'scheduled' }).where('id', '=', gone).execute(),
      ).rejects.toThrow();
    },
  );
});
