import { dayBefore, dayStartMs, statDay } from '../../server/analytics/stat-day';
import { StatsHistoryRepository, type HistoryPost } from '../../server/analytics/stats-history.repository';
import { describeEachDb } from '../helpers/app';
import { insertPublishedPost } from '../helpers/db';

/**
 * The roll-ups the dashboard reads (migration 045), kept by each stats read on both databases: the owner's days
 * are their profiles' local days added by date (across Kyiv's midnight too), the running totals of a post's and a
 * profile × platform's days stay the sums of their increments even when a read counts on a day before the latest
 * (the profile's zone moved west), the dashboard's top lists and totals equal the increments' sums, and a deleted
 * profile's days leave its owner's.
 */
const HOUR = 3600_000;
const KYIV = 'Europe/Kyiv';
const LA = 'America/Los_Angeles';

describeEachDb('analytics roll-ups', (ctx) => {
  const db = () => ctx.tdb.db;
  const at = new Date().toISOString();
  let userId = 0;
  let token = { authorization: '' };

  beforeAll(async () => {
    userId = await ctx.createUser('rollups', 'rollups-pass');
    token = (await ctx.login('rollups', 'rollups-pass')).headers;
  });

  const profile = async (timeZone: string | null, name: string) =>
    (
      await db()
        .insertInto('accounts')
        .values({ userId, createdAt: at, comments: name, timeZone })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  /** A published post of mine on `platform` through profile `accountId` (its own video). */
  const post = async (accountId: number, platform: string, title: string): Promise<HistoryPost> => {
    const video = await db()
      .insertInto('videos')
      .values({ userId, accountId, createdAt: at, status: 'publication', title })
      .returning('id')
      .executeTakeFirstOrThrow();
    const publishId = await insertPublishedPost(db(), { videoId: video.id, accountId, platform, at });
    return { publishId, accountId, platform };
  };

  const history = () => new StatsHistoryRepository(db());
  const read = (p: HistoryPost, ms: number, views: number, likes = 0) =>
    history().record(p, ms, { views, likes, comments: 0, shares: 0, saves: 0 });
  const num = (rows: Record<string, unknown>[], ...keys: string[]) =>
    rows.map((r) => keys.map((k) => (k === 'day' ? r[k] : Number(r[k]))));
  const ownerDays = (platform: string) =>
    db()
      .selectFrom('userStatDays')
      .selectAll()
      .where('userId', '=', userId)
      .where('platform', '=', platform)
      .orderBy('day')
      .execute();

  it('the owner’s days add their profiles’ local days by date, across Kyiv’s midnight', async () => {
    const kyiv = await post(await profile(KYIV, 'Kyiv'), 'youtube', 'In Kyiv');
    const utc = await post(await profile(null, 'UTC'), 'youtube', 'In UTC');
    const day = statDay(Date.now() - 10 * 24 * HOUR, KYIV);
    const midnight = dayStartMs(day, KYIV); // 22:00 or 21:00 UTC the day before
    await read(kyiv, midnight - HOUR, 10, 1); // Kyiv's day before
    await read(kyiv, midnight + HOUR, 25, 3); // Kyiv's day, still the day before in UTC
    await read(utc, midnight - HOUR, 100); // UTC's day before
    await read(utc, midnight + HOUR, 130); // UTC's day before too
    await read(utc, midnight + 5 * HOUR, 170); // UTC's day

    expect(num(await ownerDays('youtube'), 'day', 'views', 'likes')).toEqual([
      [dayBefore(day, 1), 10 + 130, 1],
      [day, 15 + 40, 2],
    ]);
    // What the dashboard shows on those days is the owner's days, the same as the profiles' days added up.
    const dash = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=30', token });
    expect(dash.status).toBe(200);
    const point = (d: string) =>
      dash.body.series.find((p: { day: string; platform: string }) => p.day === d && p.platform === 'youtube');
    expect([point(dayBefore(day, 1)).views, point(day).views]).toEqual([140, 55]);
    expect(dash.body.totals.views).toBe(25 + 170);
  });

  it('running totals stay the sums of the increments when a read counts on an earlier day (the zone moved west)', async () => {
    const accountId = await profile(KYIV, 'Moving west');
    const p = await post(accountId, 'tiktok', 'Moving west');
    const day = statDay(Date.now() - 5 * 24 * HOUR, KYIV);
    const midnight = dayStartMs(day, KYIV);
    await read(p, midnight - 3 * HOUR, 10); // Kyiv's day before
    await read(p, midnight + HOUR, 20); // Kyiv's day
    await db().updateTable('accounts').set({ timeZone: LA }).where('id', '=', accountId).execute();
    await read(p, midnight + 2 * HOUR, 25); // in Los Angeles still the day before
    await read(p, midnight + 30 * HOUR, 40); // Los Angeles' day

    const postDays = await db()
      .selectFrom('postStatDays')
      .selectAll()
      .where('publishId', '=', p.publishId)
      .orderBy('day')
      .execute();
    expect(num(postDays, 'day', 'views', 'viewsTotal')).toEqual([
      [dayBefore(day, 1), 15, 15],
      [day, 25, 40],
    ]);
    const profileDays = await db()
      .selectFrom('profileStatDays')
      .selectAll()
      .where('accountId', '=', accountId)
      .orderBy('day')
      .execute();
    expect(num(profileDays, 'day', 'views', 'viewsTotal')).toEqual([
      [dayBefore(day, 1), 15, 15],
      [day, 25, 40],
    ]);

    // The dashboard's top lists over a range ending on that day: the increments of the range, from the totals.
    const dash = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=7', token });
    const video = dash.body.topVideos.find((v: { title: string }) => v.title === 'Moving west');
    expect(video.views).toBe(40);
    const top = dash.body.topProfiles.find((r: { accountId: number }) => r.accountId === accountId);
    expect(top.views).toBe(40);
  });

  it('the top lists rank by what grew within the period, not by lifetime counters', async () => {
    const old = await post(await profile(null, 'Old hit'), 'instagram', 'Old hit');
    const fresh = await post(await profile(null, 'Fresh'), 'instagram', 'Fresh');
    const today = Date.now() - HOUR;
    await read(old, today - 40 * 24 * HOUR, 10_000); // grew long before the 7 days
    await read(old, today, 10_050);
    await read(fresh, today - 2 * 24 * HOUR, 100);
    await read(fresh, today, 400);

    const dash = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=7', token });
    const titles = dash.body.topVideos.map((v: { title: string }) => v.title);
    expect(titles.indexOf('Fresh')).toBeLessThan(titles.indexOf('Old hit'));
    const of = (title: string) => dash.body.topVideos.find((v: { title: string }) => v.title === title);
    expect([of('Fresh').views, of('Old hit').views]).toEqual([400, 50]);
    const month = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=90', token });
    expect(month.body.topVideos[0].title).toBe('Old hit');
    expect(month.body.topVideos[0].views).toBe(10_050);
  });

  it('a deleted profile’s days leave its owner’s, as its own days go', async () => {
    const before = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=90', token });
    const accountId = await profile(null, 'Short-lived');
    const p = await post(accountId, 'youtube', 'Short-lived');
    await read(p, Date.now() - 2 * HOUR, 700);
    const during = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=90', token });
    expect(during.body.totals.views).toBe(before.body.totals.views + 700);

    const gone = await ctx.call({ method: 'DELETE', url: `/api/accounts/${accountId}`, token });
    expect(gone.status).toBeLessThan(300);
    const after = await ctx.call({ method: 'GET', url: '/api/analytics/dashboard?days=90', token });
    expect(after.body.totals).toEqual(before.body.totals);
    expect(after.body.series).toEqual(before.body.series);
  });
});
