import type { Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 032: approval before posting (issue 23 item 3). `users.needs_approval` (0/1): that user's posts wait in
 * 'awaiting_approval' where they become due until an admin approves them. A post's approval is for one version of
 * its video (`video_publishes.approved_version`, who and when beside it): an edit bumps the version and asks again.
 * `video_publishes.state` widens from varchar(16) to varchar(32) for the new state's name (PostgreSQL; SQLite does
 * not enforce the length).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db))
    await db.schema
      .alterTable('video_publishes')
      .alterColumn('state', (c) => c.setDataType('varchar(32)'))
      .execute();
  await db.schema
    .alterTable('users')
    .addColumn('needs_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('video_publishes').addColumn('approved_version', 'integer').execute();
  await db.schema.alterTable('video_publishes').addColumn('approved_by', 'integer').execute();
  await db.schema.alterTable('video_publishes').addColumn('approved_at', 'varchar(40)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('video_publishes').dropColumn('approved_at').execute();
  await db.schema.alterTable('video_publishes').dropColumn('approved_by').execute();
  await db.schema.alterTable('video_publishes').dropColumn('approved_version').execute();
  await db.schema.alterTable('users').dropColumn('needs_approval').execute();
  // The state stays varchar(32): a row awaiting approval may still be there, and a wider column harms nothing.
}
