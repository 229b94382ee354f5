import type { Kysely } from 'kysely';

/**
 * 014: per-user counts of expensive operations (server/http/user-limits.ts), one row per user and kind
 * (`renders`, `publish`, `ai`, `uploads`), shared by every API process on the database like login_failures.
 * `until_ms` is when the row's window ends (epoch milliseconds): a count taken after it starts again at 1.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_limits')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('until_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_limits_pk', ['user_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_limits').execute();
}
