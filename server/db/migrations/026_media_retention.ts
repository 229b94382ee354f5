import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 026 (issue 20 item 8, media that does not grow forever; server/media/retention):
 * - sizes per object: `create_video_requests.clip_size` and `videos.size` (bytes; background items store theirs
 *   since 004). Rows written before this stay NULL until the retention pass stats their objects (in batches,
 *   served by the partial indexes below), so the migration never touches storage.
 * - what retention removed: `clip_removed_at` / `videos.media_removed_at` (epoch ms): the object is gone, the row
 *   stays (the panel says so; publishing it is refused). Set by a compare-and-set that is the retention's claim.
 * - the ages its rules read, as epoch ms (never ISO text, see 012): `create_video_requests.done_at` (the render
 *   finished or failed; set by the render's last write, and by the retention pass for requests done before this)
 *   and `videos.published_ms` (first seen published by the retention pass). Partial indexes serve the pass's
 *   look for rows not measured or dated yet.
 * Expand only: nullable columns old processes neither read nor write.
 */
const bigint = (db: Kysely<any>) => (isPostgres(db) ? 'bigint' : 'integer');

export async function up(db: Kysely<any>): Promise<void> {
  const t = bigint(db);
  for (const c of ['clip_size', 'clip_removed_at', 'done_at'])
    await db.schema.alterTable('create_video_requests').addColumn(c, t).execute();
  for (const c of ['size', 'media_removed_at', 'published_ms'])
    await db.schema.alterTable('videos').addColumn(c, t).execute();
  await db.schema
    .createIndex('create_video_requests_retention')
    .on('create_video_requests')
    .columns(['clip_removed_at', 'done_at'])
    .execute();
  await db.schema
    .createIndex('videos_retention_published')
    .on('videos')
    .columns(['media_removed_at', 'published_ms'])
    .execute();
  await db.schema
    .createIndex('create_video_requests_unmeasured')
    .on('create_video_requests')
    .column('id')
    .where(sql.ref('clip_size'), 'is', null)
    .execute();
  await db.schema
    .createIndex('videos_unmeasured')
    .on('videos')
    .column('id')
    .where(sql.ref('size'), 'is', null)
    .execute();
  await db.schema
    .createIndex('create_video_requests_undated')
    .on('create_video_requests')
    .column('id')
    .where(sql.ref('done_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const i of [
    'create_video_requests_retention',
    'videos_retention_published',
    'create_video_requests_unmeasured',
    'videos_unmeasured',
    'create_video_requests_undated',
  ])
    await db.schema.dropIndex(i).execute();
  for (const c of ['clip_size', 'clip_removed_at', 'done_at'])
    await db.schema.alterTable('create_video_requests').dropColumn(c).execute();
  for (const c of ['size', 'media_removed_at', 'published_ms'])
    await db.schema.alterTable('videos').dropColumn(c).execute();
}
