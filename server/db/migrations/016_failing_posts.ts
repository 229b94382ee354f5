import type { Kysely } from 'kysely';

/**
 * 016: a failing post shows as failing (issue 18 items 2 and 8).
 * - video_publishes.attempt: the passing faults (or lost steps being reconciled) in a row the publish worker has
 *   met on the row, 0 after any progress; the panel shows the row as retrying while it is above 0.
 * - video_publishes.retry_at_ms: when the worker looks again after the last fault (epoch ms; "next try").
 * - video_publishes.stats_asked_ms: the last on-demand stats read (epoch ms): one per post per cooldown, compared
 *   in SQL so two requests at once cannot both read.
 * - ai_logs.video_id: the AI video a log line is about, so its 'loading' lines settle when the video does.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('video_publishes')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('video_publishes').addColumn('retry_at_ms', 'bigint').execute();
  await db.schema.alterTable('video_publishes').addColumn('stats_asked_ms', 'bigint').execute();
  await db.schema.alterTable('ai_logs').addColumn('video_id', 'integer').execute();
  await db.schema.createIndex('ai_logs_video').on('ai_logs').columns(['video_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ai_logs_video').execute();
  await db.schema.alterTable('ai_logs').dropColumn('video_id').execute();
  await db.schema.alterTable('video_publishes').dropColumn('stats_asked_ms').execute();
  await db.schema.alterTable('video_publishes').dropColumn('retry_at_ms').execute();
  await db.schema.alterTable('video_publishes').dropColumn('attempt').execute();
}
