import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

const COUNTERS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;

/**
 * 046 (issue 22's target: the dashboard's top videos with 10,000 posts; server/analytics): `post_stat_latest`,
 * one row per post that has stats days: its first and its latest day and the running totals at the latest one
 * (what it grew by in all, the sum of its days' increments). What a post grew by over a range ending today is
 * then its latest totals less the running total before the range: one index read per post instead of two, and
 * none for a post whose first day is in the range. Kept by each stats read in its transaction; goes with its
 * post (cascade). Filled here from the days there are.
 * Expand: a new table; a stats read an old process records meanwhile does not move it (see docs/backup.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const big = isPostgres(db) ? 'bigint' : 'integer';
  let latest = db.schema
    .createTable('post_stat_latest')
    .addColumn('publish_id', 'integer', (c) =>
      c.primaryKey().notNull().references('video_publishes.id').onDelete('cascade'),
    )
    .addColumn('first_day', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull());
  for (const c of COUNTERS) latest = latest.addColumn(`${c}_total`, big, (col) => col.notNull().defaultTo(0));
  await latest.execute();
  // The top videos' running totals just before a range, every post's at once: the day's entries, in post order.
  await db.schema
    .createIndex('post_stat_days_day_totals')
    .on('post_stat_days')
    .columns(['day', 'publish_id', 'views_total'])
    .execute();
  const totals = sql.join(COUNTERS.map((k) => sql.ref(`${k}_total`)));
  await sql`insert into post_stat_latest (publish_id, first_day, day, ${totals})
    select d.publish_id, f.first_day, d.day, ${sql.join(COUNTERS.map((k) => sql.ref(`d.${k}_total`)))}
    from post_stat_days d
    inner join (select publish_id, min(day) as first_day, max(day) as last_day from post_stat_days group by publish_id) f
      on f.publish_id = d.publish_id and f.last_day = d.day`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('post_stat_days_day_totals').execute();
  await db.schema.dropTable('post_stat_latest').execute();
}
