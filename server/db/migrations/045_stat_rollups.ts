import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

const COUNTERS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;

/**
 * 045 (issue 22's targets: the 90-day dashboard with 10,000 posts; server/analytics), what the dashboard reads
 * instead of summing every post's day:
 * - `post_stat_days.*_total` become the post's **running totals**: what it grew by up to and including the day
 *   (the same as the counters at the day's end whenever days are written in order, which is every read but
 *   those after a profile's zone moved west). What a post grew by over a range is then two rows' difference.
 *   Recomputed here from the increments; an index walks them (publish_id, day, views_total). The index by day
 *   is dropped: nothing reads post days by day any more.
 * - `profile_stat_days.views_total`: the same running total of views per profile × platform (the top profiles).
 *   Its index by day is dropped too (the dashboard's series read the owner's days).
 * - `user_stat_days`: the increments per owner (the profile's `user_id`) × platform × day, the profile days of
 *   one owner added by their date (each profile's local days, as stored): the dashboard's series and totals.
 * Writers of stats reads older than 045 would leave these short: the stats job runs in the workers, which a
 * deploy starts on the new code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const big = isPostgres(db) ? 'bigint' : 'integer';
  const running = (k: string, partition: string) =>
    sql.raw(`sum(${k}) over (partition by ${partition} order by day rows unbounded preceding)`);

  await sql`update post_stat_days set ${sql.join(
    COUNTERS.map((k) => sql`${sql.ref(`${k}_total`)} = w.${sql.ref(k)}`),
  )} from (select publish_id, day, ${sql.join(
    COUNTERS.map((k) => sql`${running(k, 'publish_id')} as ${sql.ref(k)}`),
  )} from post_stat_days) w where w.publish_id = post_stat_days.publish_id and w.day = post_stat_days.day`.execute(db);
  await db.schema
    .createIndex('post_stat_days_totals')
    .on('post_stat_days')
    .columns(['publish_id', 'day', 'views_total'])
    .execute();
  await db.schema.dropIndex('post_stat_days_day').execute();

  await db.schema
    .alterTable('profile_stat_days')
    .addColumn('views_total', big, (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update profile_stat_days set views_total = w.views from (select account_id, platform, day, ${running(
    'views',
    'account_id, platform',
  )} as views from profile_stat_days) w where w.account_id = profile_stat_days.account_id and w.platform = profile_stat_days.platform and w.day = profile_stat_days.day`.execute(
    db,
  );
  await db.schema.dropIndex('profile_stat_days_day').execute();

  let users = db.schema
    .createTable('user_stat_days')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull());
  for (const c of COUNTERS) users = users.addColumn(c, big, (col) => col.notNull().defaultTo(0));
  await users.addPrimaryKeyConstraint('user_stat_days_pk', ['user_id', 'platform', 'day']).execute();
  // An admin's dashboard: everyone's days of a range.
  await db.schema.createIndex('user_stat_days_day').on('user_stat_days').columns(['day', 'user_id']).execute();
  await sql`insert into user_stat_days (user_id, platform, day, ${sql.join(COUNTERS.map((k) => sql.ref(k)))})
    select a.user_id, d.platform, d.day, ${sql.join(COUNTERS.map((k) => sql`sum(${sql.ref(`d.${k}`)})`))}
    from profile_stat_days d inner join accounts a on a.id = d.account_id
    group by a.user_id, d.platform, d.day`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_stat_days').execute();
  await db.schema.createIndex('profile_stat_days_day').on('profile_stat_days').columns(['day', 'account_id']).execute();
  await db.schema.alterTable('profile_stat_days').dropColumn('views_total').execute();
  await db.schema.createIndex('post_stat_days_day').on('post_stat_days').columns(['day', 'publish_id']).execute();
  await db.schema.dropIndex('post_stat_days_totals').execute();
}
