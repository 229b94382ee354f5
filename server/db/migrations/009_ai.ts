import { sql, type Kysely } from 'kysely';
import { isPostgres, withId } from '../schema-helpers.js';

/**
 * 009: the AI service (server/ai).
 * - ai_sessions: one per GPT email (unique), owned by the profile's owner; GPT and DeepSeek credentials, the
 *   proxy and each provider's browser login state sealed (server/crypto); status and the last error.
 * - ai_messages: chat turns per provider: what the operator wrote and the model's answer as sanitised HTML,
 *   plus the answer's plain text (the history sent back to the model).
 * - ai_screenshots (files in media storage), ai_logs, ai_videos (generation → review → publish/reject).
 * - publications.request_id becomes nullable: an AI video is published through the same pipeline with a
 *   publication of its own that has no create-video request (ai_videos.publication_id names it). SQLite cannot
 *   drop NOT NULL, so its table is rebuilt from its own stored definition with foreign keys off (the migrator
 *   runs SQLite migrations outside a transaction), and the rows, ids and indexes are kept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('ai_sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_sealed', 'text')
    .addColumn('password_deepseek_sealed', 'text')
    .addColumn('proxy_sealed', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('noactive'))
    .addColumn('error_text', 'text')
    .addColumn('browser_state_gpt_sealed', 'text')
    .addColumn('browser_state_deepseek_sealed', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_sessions_user').on('ai_sessions').columns(['user_id', 'id']).execute();

  await withId(db, db.schema.createTable('ai_messages'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('ai_sessions.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('message_my', 'text', (c) => c.notNull())
    .addColumn('message_ai', 'text')
    .addColumn('text_my', 'text', (c) => c.notNull())
    .addColumn('text_ai', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ai_messages_session')
    .on('ai_messages')
    .columns(['session_id', 'provider', 'id'])
    .execute();

  await withId(db, db.schema.createTable('ai_screenshots'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('ai_sessions.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_screenshots_session').on('ai_screenshots').columns(['session_id', 'id']).execute();

  await withId(db, db.schema.createTable('ai_logs'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (c) => c.references('ai_sessions.id').onDelete('set null'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_logs_user').on('ai_logs').columns(['user_id', 'id']).execute();

  await withId(db, db.schema.createTable('ai_videos'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (c) => c.references('ai_sessions.id').onDelete('set null'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('loading'))
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('storage_key', 'text')
    .addColumn('provider_job_id', 'varchar(200)')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('error', 'text')
    .addColumn('publication_id', 'integer', (c) => c.references('publications.id').onDelete('set null'))
    .addColumn('video_id', 'integer', (c) => c.references('videos.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_videos_user').on('ai_videos').columns(['user_id', 'id']).execute();

  await publicationRequestNullable(db, true);
}

async function publicationRequestNullable(db: Kysely<any>, nullable: boolean): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(`ALTER TABLE publications ALTER COLUMN request_id ${nullable ? 'DROP' : 'SET'} NOT NULL`).execute(db);
    return;
  }
  const table = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'publications'`.execute(db);
  const indexes = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'publications' AND sql IS NOT NULL`.execute(db);
  const create = table.rows[0]!.sql;
  const from = nullable ? /"request_id" integer not null/i : /"request_id" integer(?! not null)/i;
  const to = nullable ? '"request_id" integer' : '"request_id" integer not null';
  if (!from.test(create)) throw new Error('publications.request_id: unexpected definition');
  const rebuilt = create
    .replace(from, to)
    .replace(/^CREATE TABLE "?publications"?/i, 'CREATE TABLE "publications_009"');
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql.raw(rebuilt).execute(db);
    await sql`INSERT INTO publications_009 SELECT * FROM publications`.execute(db);
    await sql`DROP TABLE publications`.execute(db);
    await sql`ALTER TABLE publications_009 RENAME TO publications`.execute(db);
    for (const i of indexes.rows) await sql.raw(i.sql).execute(db);
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length) throw new Error('publications rebuild broke a foreign key');
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('publications').where('request_id', 'is', null).execute();
  await publicationRequestNullable(db, false);
  for (const t of ['ai_videos', 'ai_logs', 'ai_screenshots', 'ai_messages', 'ai_sessions'])
    await db.schema.dropTable(t).execute();
}
