import type { Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 033 (issue 22 item 1, stats over time; server/analytics):
 * - `post_stats`: one snapshot per post (a `video_publishes` row) per stats read: the platform's lifetime counters
 *   at `at_ms` (epoch ms). `grain` 'hour' while young; the roll-up turns a post's snapshots older than 14 days into
 *   one 'day' row per day (the day's last counters, i.e. its maxima).
 * - `post_stat_days`: per post and day (UTC for now, see server/analytics/stat-day.ts) the increments of the day
 *   (what the counters grew by, never the lifetime counters) and the counters at the day's end.
 * - `profile_stat_days`: the same increments per profile × platform × day, so a dashboard sums days, never posts'
 *   snapshots. Both are written with each snapshot, in its transaction.
 * Expand only: new tables that old processes never touch.
 */
const COUNTERS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const big = isPostgres(db) ? 'bigint' : 'integer';
  let snapshots = db.schema
    .createTable('post_stats')
    .addColumn('publish_id', 'integer', (c) => c.notNull().references('video_publishes.id').onDelete('cascade'))
    .addColumn('at_ms', big, (c) => c.notNull())
    .addColumn('grain', 'text', (c) => c.notNull().defaultTo('hour'));
  for (const c of COUNTERS) snapshots = snapshots.addColumn(c, big, (col) => col.notNull().defaultTo(0));
  await snapshots.addPrimaryKeyConstraint('post_stats_pk', ['publish_id', 'at_ms']).execute();
  // The roll-up's walk: hourly snapshots older than the cut, oldest first.
  await db.schema.createIndex('post_stats_grain_at').on('post_stats').columns(['grain', 'at_ms']).execute();

  let days = db.schema
    .createTable('post_stat_days')
    .addColumn('publish_id', 'integer', (c) => c.notNull().references('video_publishes.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull());
  for (const c of COUNTERS) days = days.addColumn(c, big, (col) => col.notNull().defaultTo(0));
  for (const c of COUNTERS) days = days.addColumn(`${c}_total`, big, (col) => col.notNull().defaultTo(0));
  await days.addPrimaryKeyConstraint('post_stat_days_pk', ['publish_id', 'day']).execute();
  // The dashboard's top videos: a range of days, summed per post.
  await db.schema.createIndex('post_stat_days_day').on('post_stat_days').columns(['day', 'publish_id']).execute();

  let profiles = db.schema
    .createTable('profile_stat_days')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull());
  for (const c of COUNTERS) profiles = profiles.addColumn(c, big, (col) => col.notNull().defaultTo(0));
  await profiles.addPrimaryKeyConstraint('profile_stat_days_pk', ['account_id', 'platform', 'day']).execute();
  await db.schema.createIndex('profile_stat_days_day').on('profile_stat_days').columns(['day', 'account_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['profile_stat_days', 'post_stat_days', 'post_stats']) await db.schema.dropTable(t).execute();
}
