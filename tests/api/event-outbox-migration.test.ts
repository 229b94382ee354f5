import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 020 makes the events table the domain events' outbox: the stream kinds stored before it are renamed
 * to the events they stood for (a panel resuming across the upgrade still receives them), none of them is due to
 * a subscriber (their notifications exist), and the way down gives the old kinds back.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 020 event outbox [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('renames the stored stream kinds both ways, rows in place', async () => {
    const db = tdb.db as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    expect((await migrator.migrateTo('018_profile_handles')).error).toBeUndefined();
    const old = ['request', 'publish', 'notification', 'session'];
    await db
      .insertInto('events')
      .values(old.map((k) => ({ userId: 1, kind: k, payload: '{"id":1}', createdAt: 1 })))
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const up = await tdb.db
      .selectFrom('events')
      .select(['kind', 'payload', 'dispatchAt', 'dispatchAttempts'])
      .orderBy('id')
      .execute();
    expect(up.map((e) => e.kind)).toEqual([
      'render.changed',
      'post.changed',
      'notification.created',
      'session.changed',
    ]);
    expect(up.every((e) => e.payload === '{"id":1}' && e.dispatchAt === null && e.dispatchAttempts === 0)).toBe(true);

    expect((await migrator.migrateTo('018_profile_handles')).error).toBeUndefined();
    const down = await db.selectFrom('events').select('kind').orderBy('id').execute();
    expect(down.map((e: { kind: string }) => e.kind)).toEqual(old);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
