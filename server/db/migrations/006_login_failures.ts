import type { Kysely } from 'kysely';

/**
 * 006: failed sign-ins per key (`login:<name>` or `ip:<address>`), shared by every API process on the
 * database, so running several processes does not multiply the allowance. `until_ms` is when the window of
 * the last failure ends (epoch milliseconds).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('until_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_until').on('login_failures').column('until_ms').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
}
