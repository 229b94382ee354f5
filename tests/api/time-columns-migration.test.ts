import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { TIME_COLUMNS } from '../../server/db/migrations/012_time_columns';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

const ISO = '2026-03-01T10:00:00.123Z';
const MS = Date.parse(ISO);
const BEYOND = '+010000-01-01T00:00:00.000Z';

/**
 * Migration 012 turns the compared time columns from ISO text into epoch ms. Down to 011, rows in place (one
 * job dated past year 9999, text that is no date at all), up, down and up again: readable values keep their
 * instant to the millisecond, the others get the fallback 012 names, nothing fails, the indexes come back.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 012 time columns [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  const indexes = async (db: Kysely<any>) => {
    const tables = [...new Set(TIME_COLUMNS.map((c) => c.table))];
    const r =
      kind === 'postgres'
        ? await sql<{
            name: string;
          }>`SELECT indexname AS name FROM pg_indexes WHERE tablename IN (${sql.join(tables)})`.execute(db)
        : await sql<{
            name: string;
          }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (${sql.join(tables)})`.execute(db);
    return r.rows.map((x) => x.name).sort();
  };
  const types = async (db: Kysely<any>) => {
    const out: string[] = [];
    for (const c of TIME_COLUMNS) {
      const r =
        kind === 'postgres'
          ? await sql<{
              t: string;
            }>`SELECT data_type AS t FROM information_schema.columns WHERE table_name = ${c.table} AND column_name = ${c.column}`.execute(
              db,
            )
          : await sql<{
              t: string;
            }>`SELECT type AS t FROM pragma_table_info(${c.table}) WHERE name = ${c.column}`.execute(db);
      out.push(`${c.table}.${c.column}:${r.rows[0]!.t.toLowerCase()}`);
    }
    return out;
  };

  it.skipIf(kind === 'postgres' && !pgOk)('converts every time column both ways with rows in place', async () => {
    const db = tdb.db as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    const latestIndexes = await indexes(db);
    // Down to just before 012, whatever came after it.
    expect((await migrator.migrateTo('011_list_search')).error).toBeUndefined();
    expect(await types(db)).toEqual(TIME_COLUMNS.map((c) => `${c.table}.${c.column}:text`));
    // Later migrations may index these tables too (020: events_dispatch): 011's own indexes, for the way down.
    const indexesAt011 = await indexes(db);

    const user = await db
      .insertInto('users')
      .values({ login: 'm', passwordHash: 'x', role: 'user', createdAt: ISO, updatedAt: ISO })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job = (key: string, runAt: string, leaseUntil: string | null) => ({
      name: 'publication.publish',
      key,
      payload: '{}',
      status: leaseUntil ? 'running' : 'queued',
      runAt: runAt,
      leaseUntil: leaseUntil,
      createdAt: ISO,
      updatedAt: ISO,
    });
    await db
      .insertInto('jobs')
      .values([job('ok', ISO, ISO), job('beyond', BEYOND, null), job('garbage', 'soon', 'never')])
      .execute();
    const token = (hash: string, expiresAt: string) => ({
      userId: user.id,
      familyId: 'f',
      tokenHash: hash,
      expiresAt: expiresAt,
      createdAt: ISO,
    });
    await db
      .insertInto('refreshTokens')
      .values([token('ok', ISO), token('beyond', BEYOND)])
      .execute();
    await db
      .insertInto('platformUsage')
      .values([
        { platform: 'youtube', kind: 'units', amount: 1, at: ISO },
        { platform: 'youtube', kind: 'units', amount: 2, at: BEYOND },
      ])
      .execute();
    await db
      .insertInto('events')
      .values([
        { userId: user.id, kind: 'k', payload: '{}', createdAt: ISO },
        { userId: user.id, kind: 'k', payload: '{}', createdAt: 'x' },
      ])
      .execute();
    const video = await db
      .insertInto('videos')
      .values({ userId: user.id, createdAt: ISO })
      .returning('id')
      .executeTakeFirstOrThrow();
    const publish = (platform: string, statsAt: string | null) => ({
      videoId: video.id,
      platform,
      dueAt: ISO,
      videoVersion: 1,
      statsAt: statsAt,
      createdAt: ISO,
      updatedAt: ISO,
    });
    await db
      .insertInto('videoPublishes')
      .values([publish('youtube', ISO), publish('tiktok', BEYOND), publish('instagram', null)])
      .execute();

    const before = Date.now();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const after = Date.now();
    expect(await types(db)).toEqual(
      TIME_COLUMNS.map((c) => `${c.table}.${c.column}:${kind === 'postgres' ? 'bigint' : 'integer'}`),
    );
    expect(await indexes(db)).toEqual(latestIndexes);

    const jobs = await db.selectFrom('jobs').select(['key', 'runAt', 'leaseUntil', 'stalls']).orderBy('id').execute();
    expect(jobs[0]).toEqual({ key: 'ok', runAt: MS, leaseUntil: MS, stalls: 0 });
    // Past year 9999 and unreadable: due at the migration's time; an unreadable lease has expired.
    for (const j of jobs.slice(1)) {
      expect(j.runAt).toBeGreaterThanOrEqual(before);
      expect(j.runAt).toBeLessThanOrEqual(after);
    }
    expect(jobs.map((j) => j.leaseUntil)).toEqual([MS, null, 0]);
    // As time, not text: the job dated past 9999 no longer sorts (and claims) before the others.
    const order = await db.selectFrom('jobs').select('key').orderBy('runAt').orderBy('id').execute();
    expect(order.map((r) => r.key)).toEqual(['ok', 'beyond', 'garbage']);

    const tokens = await db.selectFrom('refreshTokens').select('expiresAt').orderBy('id').execute();
    expect(tokens.map((t) => t.expiresAt)).toEqual([MS, 0]); // unreadable: expired
    const usage = await db.selectFrom('platformUsage').select('at').orderBy('id').execute();
    expect(usage[0]!.at).toBe(MS);
    expect(usage[1]!.at).toBeGreaterThanOrEqual(before);
    const events = await db.selectFrom('events').select('createdAt').orderBy('id').execute();
    expect(events[0]!.createdAt).toBe(MS);
    expect(events[1]!.createdAt).toBeGreaterThanOrEqual(before);
    const stats = await db.selectFrom('videoPublishes').select('statsAt').orderBy('id').execute();
    expect(stats.map((s) => s.statsAt)).toEqual([MS, null, null]);

    // Down: ISO text again, as Date.toISOString() writes it; the fallbacks as the instants they became.
    // Down to just before 012, whatever came after it.
    expect((await migrator.migrateTo('011_list_search')).error).toBeUndefined();
    expect(await types(db)).toEqual(TIME_COLUMNS.map((c) => `${c.table}.${c.column}:text`));
    expect(await indexes(db)).toEqual(indexesAt011);
    const down = await db.selectFrom('jobs').select(['runAt', 'leaseUntil']).orderBy('id').execute();
    expect(down[0]).toEqual({ runAt: ISO, leaseUntil: ISO });
    expect(down[1]!.runAt).toBe(new Date(jobs[1]!.runAt).toISOString());
    expect(down[2]!.leaseUntil).toBe('1970-01-01T00:00:00.000Z');
    expect((await db.selectFrom('refreshTokens').select('expiresAt').orderBy('id').execute())[0]).toEqual({
      expiresAt: ISO,
    });
    expect((await db.selectFrom('videoPublishes').select('statsAt').orderBy('id').execute())[0]).toEqual({
      statsAt: ISO,
    });

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await db.selectFrom('jobs').select('runAt').orderBy('id').executeTakeFirstOrThrow()).runAt).toBe(MS);
    // Foreign keys still act after the rebuild: deleting the video removes its publish rows.
    await db.deleteFrom('videos').where('id', '=', video.id).execute();
    expect(await db.selectFrom('videoPublishes').select('id').execute()).toEqual([]);
  });
});
