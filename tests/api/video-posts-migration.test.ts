import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/**
 * Migration 047 (issue 21 item 6, per video): `videos.posts`, a video's own texts per platform. Videos written
 * before it have none (null: the publication's platform texts, as before); a stored entry reads back; down drops
 * the column, and up again.
 */
describe.each(['sqlite', 'postgres'] as const)('migration 047 video posts [%s]', (kind) => {
  let tdb: TestDb;
  beforeAll(async () => {
    if (kind === 'postgres' && !pgOk) return;
    tdb = await makeTestDb(kind);
  });
  afterAll(async () => tdb?.drop());

  it.skipIf(kind === 'postgres' && !pgOk)('adds videos.posts (null for old videos), down and up again', async () => {
    const db = tdb.db as unknown as Kysely<any>;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    const columns = async () =>
      kind === 'postgres'
        ? (
            await sql<{
              name: string;
            }>`select column_name as name from information_schema.columns where table_name = 'videos'`.execute(db)
          ).rows.map((r) => r.name)
        : (await sql<{ name: string }>`select name from pragma_table_info('videos')`.execute(db)).rows.map(
            (r) => r.name,
          );
    expect(await columns()).toContain('posts');
    expect((await migrator.migrateTo('046_post_stat_latest')).error).toBeUndefined();
    expect(await columns()).not.toContain('posts');

    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ login: 'm47', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const old = await db
      .insertInto('videos')
      .values({ userId: user.id, createdAt: at, title: 'Before 047' })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await columns()).toContain('posts');
    const read = async (id: number) =>
      (await db.selectFrom('videos').select(['title', 'posts']).where('id', '=', id).executeTakeFirstOrThrow()) as {
        title: string;
        posts: string | null;
      };
    expect(await read(old.id)).toEqual({ title: 'Before 047', posts: null });
    const own = JSON.stringify({ tiktok: { caption: 'Свій підпис 🐈' } });
    await db.updateTable('videos').set({ posts: own }).where('id', '=', old.id).execute();
    expect(JSON.parse((await read(old.id)).posts!)).toEqual({ tiktok: { caption: 'Свій підпис 🐈' } });

    expect((await migrator.migrateTo('046_post_stat_latest')).error).toBeUndefined();
    expect(await columns()).not.toContain('posts');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await read(old.id)).toEqual({ title: 'Before 047', posts: null });
  });
});
