import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * Background folders (owned by their creator) and their items (an image or a video in storage, plus a
 * preview thumbnail). Deleting a folder deletes its items (the service removes their files).
 * Indexes: a folder's grid pages by (folder_id, id); the "all items" list and ownership by (user_id, id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('background_folders'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('background_folders_user').on('background_folders').columns(['user_id', 'id']).execute();

  await withId(db, db.schema.createTable('background_items'))
    .addColumn('folder_id', 'integer', (c) => c.notNull().references('background_folders.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    .addColumn('storage_key', 'varchar(300)', (c) => c.notNull())
    .addColumn('preview_key', 'varchar(300)')
    .addColumn('original_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('mime', 'varchar(100)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration', 'real')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('background_items_folder').on('background_items').columns(['folder_id', 'id']).execute();
  await db.schema.createIndex('background_items_user').on('background_items').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['background_items', 'background_folders']) await db.schema.dropTable(t).execute();
}
