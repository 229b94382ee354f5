import type { Kysely } from 'kysely';

/**
 * 048: the interface language a user chose ('uk' or 'en'; null = none chosen yet, the browser's or the default):
 * the panel opens in it on any browser the user signs in on. Expand: a new nullable column; an old process neither
 * reads nor writes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
