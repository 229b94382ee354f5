import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * Account groups (many-to-many with accounts through group_accounts; a deleted profile or group takes its
 * memberships with it) and saved tag sets (tags as a JSON array of normalised strings).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('account_groups'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_groups_user').on('account_groups').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('group_accounts')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('account_groups.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('group_accounts_pk', ['group_id', 'account_id'])
    .execute();
  await db.schema.createIndex('group_accounts_account').on('group_accounts').column('account_id').execute();

  await withId(db, db.schema.createTable('tag_sets'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_sets_user').on('tag_sets').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['tag_sets', 'group_accounts', 'account_groups']) await db.schema.dropTable(t).execute();
}
