import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

const INDEX = 'ai_sessions_owner_email';

/**
 * 015: AI sessions are per owner. 009 made ai_sessions.email unique across all users, so a login answered
 * 404 when another user already had a session for the email and 200 when nobody did: anyone could learn which
 * emails others use. The unique key becomes (user_id, email): each owner has their own session of an email.
 * - PostgreSQL: the column's constraint (ai_sessions_email_key) is dropped.
 * - SQLite: the column's `unique` is an automatic index that cannot be dropped, so the table is rebuilt from its
 *   own stored definition with foreign keys off (as 009 rebuilds publications); rows, ids, the AUTOINCREMENT
 *   counter (ids of deleted sessions are not handed out again) and the other indexes are kept.
 * Down refuses, naming them, while an email has sessions of several users: which one to keep is the operator's
 * choice (delete the others, then go down), not something a migration may guess.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`ALTER TABLE ai_sessions DROP CONSTRAINT ai_sessions_email_key`.execute(db);
  else await rebuild(db, false);
  await db.schema.createIndex(INDEX).on('ai_sessions').columns(['user_id', 'email']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const shared = await db
    .selectFrom('ai_sessions')
    .select('email')
    .groupBy('email')
    .having(sql`count(*)`, '>', 1)
    .orderBy('email')
    .execute();
  if (shared.length)
    throw new Error(
      `015 down: ${shared.length} email(s) have AI sessions of several users (${shared
        .slice(0, 10)
        .map((r) => r.email)
        .join(', ')}); delete all but one session of each email, then migrate down again`,
    );
  await db.schema.dropIndex(INDEX).execute();
  if (isPostgres(db))
    await sql`ALTER TABLE ai_sessions ADD CONSTRAINT ai_sessions_email_key UNIQUE (email)`.execute(db);
  else await rebuild(db, true);
}

/** SQLite: ai_sessions again with the email column unique across users (009) or not (015). */
async function rebuild(db: Kysely<any>, emailUnique: boolean): Promise<void> {
  const table = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'ai_sessions'`.execute(db);
  const indexes = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ai_sessions' AND sql IS NOT NULL`.execute(db);
  const seq = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'ai_sessions'`.execute(db);
  const create = table.rows[0]!.sql;
  const from = emailUnique ? /"email" varchar\(254\) not null(?! unique)/i : /"email" varchar\(254\) not null unique/i;
  const to = emailUnique ? '"email" varchar(254) not null unique' : '"email" varchar(254) not null';
  if (!from.test(create)) throw new Error('ai_sessions.email: unexpected definition');
  const rebuilt = create.replace(from, to).replace(/^CREATE TABLE "?ai_sessions"?/i, 'CREATE TABLE "ai_sessions_015"');
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql.raw(rebuilt).execute(db);
    await sql`INSERT INTO ai_sessions_015 SELECT * FROM ai_sessions`.execute(db);
    await sql`DROP TABLE ai_sessions`.execute(db);
    await sql`ALTER TABLE ai_sessions_015 RENAME TO ai_sessions`.execute(db);
    if (seq.rows[0]) {
      await sql`DELETE FROM sqlite_sequence WHERE name = 'ai_sessions'`.execute(db);
      await sql`INSERT INTO sqlite_sequence (name, seq) VALUES ('ai_sessions', ${seq.rows[0].seq})`.execute(db);
    }
    for (const i of indexes.rows) await sql.raw(i.sql).execute(db);
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length) throw new Error('ai_sessions rebuild broke a foreign key');
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
