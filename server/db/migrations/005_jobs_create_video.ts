import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 005: the durable job queue (server/jobs) and create-video requests (server/videos).
 * - jobs: one row per unit of background work. `key` is unique, so enqueuing the same work twice is a no-op.
 *   Claiming picks `queued` rows whose run_at has come, or `running` rows whose lease has expired (a crashed
 *   worker's job), ordered by run_at (index jobs_claim).
 * - create_video_requests: SPEC §3 Video creation request plus its options, progress and uploaded clip.
 * - videos widened: each rendered output is a video row of its request, unique per (request_id, output_index),
 *   so a re-run after a crash can never record the same output twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('jobs'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'run_at']).execute();

  await withId(db, db.schema.createTable('create_video_requests'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('id_upload', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('is_video', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_photo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_generator', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('folders', 'text', (c) => c.notNull())
    .addColumn('clip_key', 'varchar(300)', (c) => c.notNull())
    .addColumn('clip_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('create_video_requests_user')
    .on('create_video_requests')
    .columns(['user_id', 'id'])
    .execute();

  await db.schema
    .alterTable('videos')
    .addColumn('request_id', 'integer', (c) => c.references('create_video_requests.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('videos').addColumn('output_index', 'integer').execute();
  await db.schema.alterTable('videos').addColumn('storage_key', 'varchar(300)').execute();
  await db.schema
    .createIndex('videos_request_output')
    .unique()
    .on('videos')
    .columns(['request_id', 'output_index'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('videos_request_output').execute();
  for (const col of ['storage_key', 'output_index', 'request_id'])
    await db.schema.alterTable('videos').dropColumn(col).execute();
  for (const t of ['create_video_requests', 'jobs']) await db.schema.dropTable(t).execute();
}
