import { Migrator, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 024 moves a publication's platform toggles (in_youtube, in_tiktok, in_instagram) into rows of
 * publication_platforms, one per platform that is on, and the way down gives the toggles back.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 024 publication platforms [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('carries the toggles over to rows and back', async () => {
    const db = tdb.db.withoutPlugins() as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    expect((await migrator.migrateTo('023_publish_step')).error).toBeUndefined();
    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'p', password_hash: 'x', role: 'user', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const toggles = [
      { in_youtube: 1, in_tiktok: 0, in_instagram: 1 },
      { in_youtube: 0, in_tiktok: 1, in_instagram: 0 },
      { in_youtube: 0, in_tiktok: 0, in_instagram: 0 },
    ];
    const ids: number[] = [];
    for (const t of toggles) {
      const r = await db
        .insertInto('publications')
        .values({ user_id: user.id, request_id: null, title: 'T', ...t, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(r.id);
    }

    expect((await migrator.migrateTo('024_publication_platforms')).error).toBeUndefined();
    const rows = await db
      .selectFrom('publication_platforms')
      .select(['publication_id', 'platform'])
      .orderBy('publication_id')
      .orderBy('platform')
      .execute();
    expect(rows).toEqual([
      { publication_id: ids[0], platform: 'instagram' },
      { publication_id: ids[0], platform: 'youtube' },
      { publication_id: ids[1], platform: 'tiktok' },
    ]);
    expect(
      await db.selectFrom('publications').selectAll().where('id', '=', ids[0]!).executeTakeFirst(),
    ).not.toHaveProperty('in_youtube');

    expect((await migrator.migrateTo('023_publish_step')).error).toBeUndefined();
    const back = await db
      .selectFrom('publications')
      .select(['in_youtube', 'in_tiktok', 'in_instagram'])
      .orderBy('id')
      .execute();
    expect(back.map((b: Record<string, unknown>) => Object.values(b).map(Number))).toEqual(
      toggles.map((t) => [t.in_youtube, t.in_tiktok, t.in_instagram]),
    );
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
