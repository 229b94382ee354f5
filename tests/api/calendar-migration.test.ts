import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/** Migration 027 adds the calendar's due-time index and takes it away again. */
describe.each(['sqlite', 'postgres'] as const)('migration 027 calendar [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)(
    'creates video_publishes_due on the way up, drops it on the way down',
    async () => {
      const db = tdb.db as unknown as Kysely<any>;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => migrations as Record<string, Migration> },
      });
      const hasIndex = async () => {
        const q =
          kind === 'postgres'
            ? sql<{ n: number }>`select count(*)::int as n from pg_indexes where indexname = 'video_publishes_due'`
            : sql<{
                n: number;
              }>`select count(*) as n from sqlite_master where type = 'index' and name = 'video_publishes_due'`;
        return Number((await q.execute(db)).rows[0]!.n) === 1;
      };
      expect(await hasIndex()).toBe(true);
      expect((await migrator.migrateTo('022_job_claims')).error).toBeUndefined();
      expect(await hasIndex()).toBe(false);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await hasIndex()).toBe(true);
    },
  );
});
