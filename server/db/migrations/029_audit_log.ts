import { sql, type Kysely } from 'kysely';
import { isPostgres, withId } from '../schema-helpers.js';

/**
 * 029: the audit log (server/audit), append-only. No foreign key to users: an entry keeps the actor's id and
 * login as they were, and deleting a user neither fails nor erases their history. `at` is epoch ms (filtered
 * and ordered by). Triggers refuse UPDATE and DELETE on both databases (PostgreSQL: a plpgsql function raising
 * an exception; SQLite: RAISE(ABORT)), so not even a hand-written statement rewrites the history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_login', 'varchar(100)')
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('object_type', 'varchar(40)')
    .addColumn('object_id', 'varchar(100)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'at']).execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_login', 'at']).execute();
  if (isPostgres(db)) {
    await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(db);
    await sql`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS audit_log_append_only()`.execute(db);
}
