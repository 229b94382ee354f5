import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 023 puts the publishing chain's step on the post's row: each row takes the highest step its jobs
 * have (from their payloads; a row without jobs stays at 0), and the way down drops the column.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 023 publish step [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('carries each chain step over from its jobs, both ways', async () => {
    const db = tdb.db as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    expect((await migrator.migrateTo('022_job_claims')).error).toBeUndefined();
    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'm', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const video = await db
      .insertInto('videos')
      .values({ userId: user.id, status: 'publication', createdAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = await db
      .insertInto('videoPublishes')
      .values(
        ['youtube', 'tiktok'].map((platform) => ({
          videoId: video.id,
          platform,
          dueAt: at,
          videoVersion: 0,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .returning('id')
      .execute();
    const [yt, tt] = rows.map((r: { id: number }) => r.id) as [number, number];
    const job = (publishId: number, step: number) => ({
      name: 'publication.publish',
      key: `publication.publish:${publishId}:${step}`,
      payload: JSON.stringify({ publishId, step }),
      status: 'done',
      runAt: 0,
      createdAt: at,
      updatedAt: at,
    });
    await db
      .insertInto('jobs')
      .values([job(yt, 0), job(yt, 4), job(yt, 2)])
      .execute();

    expect((await migrator.migrateTo('023_publish_step')).error).toBeUndefined();
    const steps = await tdb.db.selectFrom('videoPublishes').select(['id', 'step']).orderBy('id').execute();
    expect(steps).toEqual([
      { id: yt, step: 4 },
      { id: tt, step: 0 },
    ]);

    expect((await migrator.migrateTo('022_job_claims')).error).toBeUndefined();
    const back = await db.selectFrom('videoPublishes').selectAll().where('id', '=', yt).executeTakeFirstOrThrow();
    expect(back).not.toHaveProperty('step');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
