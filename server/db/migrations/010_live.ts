import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 010: live updates and the bell (server/live).
 * - events: what happened to a user's rows (render progress, publish state, a new notification), appended by
 *   whichever process reports it and tailed by id by every API process, which fans it out to its open
 *   streams; a reconnecting panel resumes after the last id it saw. Pruned after a day.
 * - notifications: the bell, per user, newest first, read or not.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('events'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_created').on('events').columns(['created_at']).execute();

  await withId(db, db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('link', 'text')
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'read_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('events').execute();
}
