import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import { dayStartMs, profileZone, statDay } from './stat-day';

/** The counters one stats read gives for a post (shares and saves 0 where the platform gives none). */
export type StatCounters = { views: number; likes: number; comments: number; shares: number; saves: number };
export const COUNTER_KEYS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;

/** One post (a `video_publishes` row) as the history records it. */
export type HistoryPost = { publishId: number; accountId: number; platform: string };

const TOTAL_KEYS = COUNTER_KEYS.map((k) => `${k}Total` as const);

const ZERO: StatCounters = { views: 0, likes: 0, comments: 0, shares: 0, saves: 0 };
const toCounters = (r: Record<string, unknown> | undefined): StatCounters =>
  r ? { ...ZERO, ...Object.fromEntries(COUNTER_KEYS.map((k) => [k, Number(r[k] ?? 0)])) } : { ...ZERO };

/**
 * Takes a profile's days out of its owner's (`user_stat_days`) as the profile is deleted, in the deletion's
 * transaction: its own days go with it (cascade), so the dashboard's figures stay the sums of the profiles there are.
 */
export async function forgetProfileDays(trx: Kysely<Database>, accountId: number): Promise<void> {
  await sql`update user_stat_days set ${sql.join(
    COUNTER_KEYS.map((k) => sql`${sql.ref(k)} = ${sql.ref(`user_stat_days.${k}`)} - ${sql.ref(`d.${k}`)}`),
  )} from profile_stat_days d inner join accounts a on a.id = d.account_id
    where d.account_id = ${accountId} and user_stat_days.user_id = a.user_id
      and user_stat_days.platform = d.platform and user_stat_days.day = d.day`.execute(trx);
}

/**
 * The stats history (issue 22 item 1, migrations 033, 045 and 046): each read's snapshot of a post's lifetime counters
 * (`post_stats`), and in the same transaction what they grew by since the post's previous snapshot, added to the
 * post's day (`post_stat_days`), its profile × platform's day (`profile_stat_days`) and its profile's owner's day
 * (`user_stat_days`), and to the running totals of the post's and the profile's days (what they grew by up to
 * each day: a range's growth is two rows' difference) and the post's latest totals (`post_stat_latest`: its
 * first and latest day, the sums of its increments). The first snapshot counts from zero, so a post's day
 * increments always add up to its latest counters. The day is `statDay` in the post's
 * profile's time zone as it is when the read is recorded (UTC for a profile without one): a day already written
 * stays as written if the profile's zone changes later, new reads count on the new zone's days.
 */
export class StatsHistoryRepository {
  constructor(private db: Kysely<Database>) {}

  /** Records one read of `post` at `atMs`. A second read at the same instant is ignored. */
  async record(post: HistoryPost, atMs: number, counters: StatCounters): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('postStats')
        .selectAll()
        .where('publishId', '=', post.publishId)
        .where('atMs', '<=', atMs)
        .orderBy('atMs', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last && Number(last.atMs) === atMs) return;
      const before = toCounters(last);
      await trx
        .insertInto('postStats')
        .values({ publishId: post.publishId, atMs, grain: 'hour', ...counters })
        .execute();
      const delta = Object.fromEntries(COUNTER_KEYS.map((k) => [k, counters[k] - before[k]])) as StatCounters;
      const account = await trx
        .selectFrom('accounts')
        .select(['timeZone', 'userId'])
        .where('id', '=', post.accountId)
        .executeTakeFirst();
      const day = statDay(atMs, profileZone(account?.timeZone));
      const add = (table: string) =>
        Object.fromEntries(
          COUNTER_KEYS.map((k) => [k, sql`${sql.ref(`${table}.${k}`)} + ${sql.ref(`excluded.${k}`)}`]),
        );
      // A day already there: its totals grow by the increment in place (a concurrent read's is not lost).
      const grown = (table: string) =>
        Object.fromEntries(
          COUNTER_KEYS.map((k) => [`${k}Total`, sql`${sql.ref(`${table}.${k}_total`)} + ${sql.ref(`excluded.${k}`)}`]),
        );
      const grew = COUNTER_KEYS.some((k) => delta[k] !== 0);

      // The post's day, its running totals from the last day up to it, and the days after it (if any) moved up.
      const postUpTo = await trx
        .selectFrom('postStatDays')
        .select(TOTAL_KEYS)
        .where('publishId', '=', post.publishId)
        .where('day', '<=', day)
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirst();
      const totals = Object.fromEntries(
        COUNTER_KEYS.map((k) => [`${k}Total`, Number(postUpTo?.[`${k}Total`] ?? 0) + delta[k]]),
      ) as Record<(typeof TOTAL_KEYS)[number], number>;
      await trx
        .insertInto('postStatDays')
        .values({ publishId: post.publishId, day, ...delta, ...totals })
        .onConflict((oc) =>
          oc
            .columns(['publishId', 'day'])
            .doUpdateSet({ ...add('post_stat_days'), ...grown('post_stat_days') } as never),
        )
        .execute();
      if (grew)
        await trx
          .updateTable('postStatDays')
          .set((eb) => Object.fromEntries(TOTAL_KEYS.map((t, i) => [t, eb(t, '+', delta[COUNTER_KEYS[i]!])])))
          .where('publishId', '=', post.publishId)
          .where('day', '>', day)
          .execute();

      // The post's latest totals (046): the running sums of all its increments, so they grow by the increment
      // whichever day it counts on; its latest and first days widen to this one. A post without a row yet takes
      // its last day's totals and its first day from its days (this read's row among them).
      const later = (col: string) =>
        sql`case when ${sql.ref(`excluded.${col}`)} > ${sql.ref(`post_stat_latest.${col}`)} then ${sql.ref(`excluded.${col}`)} else ${sql.ref(`post_stat_latest.${col}`)} end`;
      const earlier = (col: string) =>
        sql`case when ${sql.ref(`excluded.${col}`)} < ${sql.ref(`post_stat_latest.${col}`)} then ${sql.ref(`excluded.${col}`)} else ${sql.ref(`post_stat_latest.${col}`)} end`;
      await sql`insert into post_stat_latest (publish_id, first_day, day, ${sql.join(
        COUNTER_KEYS.map((k) => sql.ref(`${k}_total`)),
      )})
        select d.publish_id, (select min(f.day) from post_stat_days f where f.publish_id = d.publish_id), d.day, ${sql.join(
          COUNTER_KEYS.map((k) => sql.ref(`d.${k}_total`)),
        )}
        from post_stat_days d where d.publish_id = ${post.publishId} order by d.day desc limit 1
        on conflict (publish_id) do update set first_day = ${earlier('first_day')}, day = ${later('day')}, ${sql.join(
          COUNTER_KEYS.map(
            (k) => sql`${sql.ref(`${k}_total`)} = ${sql.ref(`post_stat_latest.${k}_total`)} + ${delta[k]}`,
          ),
        )}`.execute(trx);

      // The profile × platform's day, its running views total likewise.
      const profileUpTo = await trx
        .selectFrom('profileStatDays')
        .select('viewsTotal')
        .where('accountId', '=', post.accountId)
        .where('platform', '=', post.platform)
        .where('day', '<=', day)
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirst();
      const viewsTotal = Number(profileUpTo?.viewsTotal ?? 0) + delta.views;
      await trx
        .insertInto('profileStatDays')
        .values({ accountId: post.accountId, platform: post.platform, day, ...delta, viewsTotal })
        .onConflict((oc) =>
          oc
            .columns(['accountId', 'platform', 'day'])
            .doUpdateSet({ ...add('profile_stat_days'), viewsTotal: grown('profile_stat_days').viewsTotal } as never),
        )
        .execute();
      if (delta.views !== 0)
        await trx
          .updateTable('profileStatDays')
          .set((eb) => ({ viewsTotal: eb('viewsTotal', '+', delta.views) }))
          .where('accountId', '=', post.accountId)
          .where('platform', '=', post.platform)
          .where('day', '>', day)
          .execute();

      // The owner's day (the profile's local day, added to their other profiles' same-named day).
      if (account)
        await trx
          .insertInto('userStatDays')
          .values({ userId: account.userId, platform: post.platform, day, ...delta })
          .onConflict((oc) => oc.columns(['userId', 'platform', 'day']).doUpdateSet(add('user_stat_days') as never))
          .execute();
    });
  }

  /**
   * The profiles' time zones as stored (`accounts.time_zone`, null among them: profiles without one, and posts
   * whose profile is gone). `profileZone` says which zone each one's days are counted in.
   */
  async zones(): Promise<(string | null)[]> {
    const rows = await this.db.selectFrom('accounts').select('timeZone').distinct().execute();
    return [...new Set([null, ...rows.map((r) => r.timeZone)])];
  }

  /**
   * Posts of profiles whose stored zone is `timeZone` (null: none, or no profile) that still have hourly snapshots
   * before `cutMs`, at most `limit` of them (the roll-up's batch; each zone has its own cut).
   */
  async postsToRollUp(timeZone: string | null, cutMs: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('postStats as s')
      .leftJoin('videoPublishes as vp', 'vp.id', 's.publishId')
      .leftJoin('accounts as a', 'a.id', 'vp.accountId')
      .select('s.publishId')
      .distinct()
      .where('s.grain', '=', 'hour')
      .where('s.atMs', '<', cutMs)
      .where('a.timeZone', timeZone === null ? 'is' : '=', timeZone)
      .limit(limit)
      .execute();
    return rows.map((r) => r.publishId);
  }

  /**
   * Rolls one post's snapshots before `cutMs` into one row per day of `zone` (its profile's): the day's last
   * snapshot stays, holding the day's maxima of each counter, as grain 'day'; the others go. `cutMs` is a day's
   * start in `zone`, so every day rolled is whole. Small statements in one short transaction. Answers how many
   * snapshots were removed.
   */
  async rollUpPost(publishId: number, cutMs: number, zone: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const first = await trx
        .selectFrom('postStats')
        .select((eb) => eb.fn.min('atMs').as('from'))
        .where('publishId', '=', publishId)
        .where('grain', '=', 'hour')
        .where('atMs', '<', cutMs)
        .executeTakeFirst();
      if (first?.from == null) return 0;
      const fromMs = dayStartMs(statDay(Number(first.from), zone), zone);
      const rows = await trx
        .selectFrom('postStats')
        .selectAll()
        .where('publishId', '=', publishId)
        .where('atMs', '>=', fromMs)
        .where('atMs', '<', cutMs)
        .orderBy('atMs')
        .execute();
      const byDay = new Map<string, typeof rows>();
      for (const r of rows) {
        const day = statDay(Number(r.atMs), zone);
        byDay.set(day, [...(byDay.get(day) ?? []), r]);
      }
      let removed = 0;
      for (const group of byDay.values()) {
        if (group.length === 1 && group[0]!.grain === 'day') continue;
        const keep = group[group.length - 1]!;
        const max = Object.fromEntries(
          COUNTER_KEYS.map((k) => [k, Math.max(...group.map((r) => Number(r[k])))]),
        ) as StatCounters;
        const gone = group.slice(0, -1).map((r) => Number(r.atMs));
        if (gone.length) {
          await trx.deleteFrom('postStats').where('publishId', '=', publishId).where('atMs', 'in', gone).execute();
          removed += gone.length;
        }
        await trx
          .updateTable('postStats')
          .set({ grain: 'day', ...max })
          .where('publishId', '=', publishId)
          .where('atMs', '=', Number(keep.atMs))
          .execute();
      }
      return removed;
    });
  }
}
