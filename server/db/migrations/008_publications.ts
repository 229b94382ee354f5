import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 008: publishing (server/publications).
 * - publications: SPEC §3 Publication, one per finished create-video request: the shared title, description,
 *   tags and platform toggles. `version` goes up on every edit, so a publish job claimed after an edit sees it.
 * - videos gain `publication_id` and their own `version` (an edit or a delete after scheduling wins).
 * - video_publishes: one row per video per platform, the publish job's recorded steps (ARCHITECTURE.md
 *   "Publishing, exactly once"): state, the remote handles (sealed JSON: a YouTube session URI is a credential)
 *   stored before the step that makes a post public, upload progress, the post's id and URL, a readable error,
 *   when it waits for a quota, and its stats.
 * - platform_usage: what each platform call spent, per platform and profile, so quota windows (YouTube daily
 *   units, TikTok posts per day, Instagram posts per 24 h) are counted across every worker process.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('publications'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('request_id', 'integer', (c) =>
      c.notNull().unique().references('create_video_requests.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('in_youtube', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_tiktok', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_instagram', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('publications_user').on('publications').columns(['user_id', 'id']).execute();

  await db.schema
    .alterTable('videos')
    .addColumn('publication_id', 'integer', (c) => c.references('publications.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('videos')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('videos_publication').on('videos').columns(['publication_id', 'id']).execute();

  await withId(db, db.schema.createTable('video_publishes'))
    .addColumn('video_id', 'integer', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('scheduled'))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('video_version', 'integer', (c) => c.notNull())
    .addColumn('handle_sealed', 'text')
    .addColumn('remote_id', 'varchar(200)')
    .addColumn('remote_url', 'text')
    .addColumn('bytes_sent', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('error_kind', 'varchar(16)')
    .addColumn('wait_until', 'text')
    .addColumn('processing_since', 'text')
    .addColumn('published_at', 'text')
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('video_publishes_video_platform')
    .unique()
    .on('video_publishes')
    .columns(['video_id', 'platform'])
    .execute();
  await db.schema.createIndex('video_publishes_state').on('video_publishes').columns(['state', 'due_at']).execute();
  await db.schema
    .createIndex('video_publishes_stats')
    .on('video_publishes')
    .columns(['platform', 'stats_at'])
    .execute();

  await withId(db, db.schema.createTable('platform_usage'))
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('platform_usage_window')
    .on('platform_usage')
    .columns(['platform', 'kind', 'account_id', 'at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_usage').execute();
  await db.schema.dropTable('video_publishes').execute();
  await db.schema.dropIndex('videos_publication').execute();
  for (const col of ['version', 'publication_id']) await db.schema.alterTable('videos').dropColumn(col).execute();
  await db.schema.dropTable('publications').execute();
}
