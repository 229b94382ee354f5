import { rangeDays } from '../../server/calendar/calendar-days';
import { CalendarRepository } from '../../server/calendar/calendar.repository';
import { CALENDAR_DAY_POSTS } from '../../src/contract/calendar';
import { dayKey, instantOf, wallOf } from '../../src/contract/time-zones';
import { describeEachDb } from '../helpers/app';
import { seedCalendarPosts } from '../helpers/calendar-posts';
import { planOf } from '../helpers/query-plan';

/**
 * The month view's answer (issue 21, the calendar's range-query target): GET /api/calendar/days puts each post in the
 * day of the asked zone it is drawn in (published, else due), with the day's first posts in the calendar's order
 * and its count; GET /api/calendar/posts with the day's drawnStart/drawnEnd is that day's full list. Checked
 * against the full answer (GET /api/calendar/posts over the same range) with each filter, as an operator (their own
 * posts only) and as an admin, in Kyiv's zone across its spring DST change.
 */
const DAY = 24 * 3600_000;
const ZONE = 'Europe/Kyiv';
type Post = {
  id: number;
  accountId: number;
  platform: string;
  state: string;
  dueAt: string;
  publishedAt: string | null;
};
type Day = { day: string; start: string; end: string; count: number; posts: Post[] };

describeEachDb('calendar month days', (ctx) => {
  const tokens: Record<'a' | 'b' | 'admin', { authorization: string }> = {
    a: { authorization: '' },
    b: { authorization: '' },
    admin: { authorization: '' },
  };
  let aProfiles: number[] = [];
  // The month grid of March 2031 as the panel asks for it: six weeks from Monday 24 February, Kyiv's midnights
  // (Kyiv springs forward on 30 March).
  const start = instantOf(ZONE, { year: 2031, month: 2, day: 24, hour: 0, minute: 0 }).toISOString();
  const end = instantOf(ZONE, { year: 2031, month: 4, day: 7, hour: 0, minute: 0 }).toISOString();
  const url = (path: string, q: Record<string, string>) => `/api/calendar/${path}?${new URLSearchParams(q)}`;
  const full = async (who: keyof typeof tokens, q: Record<string, string> = {}) => {
    const r = await ctx.call({ method: 'GET', url: url('posts', { start, end, ...q }), token: tokens[who] });
    expect(r.status).toBe(200);
    expect(r.body.truncated).toBe(false);
    return r.body.data as Post[];
  };
  const days = async (who: keyof typeof tokens, q: Record<string, string> = {}) => {
    const r = await ctx.call({ method: 'GET', url: url('days', { start, end, zone: ZONE, ...q }), token: tokens[who] });
    expect(r.status).toBe(200);
    return r.body.days as Day[];
  };
  /** What the month view draws, from the full answer: per day of Kyiv, its posts by drawn instant, then id. */
  const expected = (posts: Post[]) => {
    const drawn = (p: Post) => p.publishedAt ?? p.dueAt;
    const byDay = new Map<string, Post[]>();
    for (const p of [...posts].sort((x, y) => drawn(x).localeCompare(drawn(y)) || x.id - y.id)) {
      if (drawn(p) < start || drawn(p) >= end) continue;
      const key = dayKey(wallOf(ZONE, drawn(p)));
      byDay.set(key, [...(byDay.get(key) ?? []), p]);
    }
    return [...byDay].map(([day, list]) => ({ day, count: list.length, ids: list.map((p) => p.id) }));
  };
  const check = async (who: keyof typeof tokens, q: Record<string, string> = {}) => {
    const want = expected(await full(who, q));
    const got = await days(who, q);
    expect(got.map((d) => [d.day, d.count, d.posts.map((p) => p.id)])).toEqual(
      want.map((d) => [d.day, d.count, d.ids.slice(0, CALENDAR_DAY_POSTS)]),
    );
    return { want, got };
  };

  beforeAll(async () => {
    const a = await ctx.createUser('days-a', 'days-a-pass');
    const b = await ctx.createUser('days-b', 'days-b-pass');
    await ctx.createUser('days-admin', 'days-admin-pass', 'admin');
    tokens.a = (await ctx.login('days-a', 'days-a-pass')).headers;
    tokens.b = (await ctx.login('days-b', 'days-b-pass')).headers;
    tokens.admin = (await ctx.login('days-admin', 'days-admin-pass')).headers;
    // 1,200 posts over 30 days from 10 March (two per video, so ties of one instant), the profiles split between a and b.
    await seedCalendarPosts(ctx.tdb.db, {
      owners: [a, b],
      posts: 1200,
      profiles: 6,
      start: Date.UTC(2031, 2, 10),
      spanMs: 30 * DAY,
    });
    aProfiles = (await ctx.tdb.db.selectFrom('accounts').select('id').where('userId', '=', a).execute()).map(
      (r) => r.id,
    );
    // Some published posts went out the next day (a quota wait): drawn then, not on their due day.
    const published = await ctx.tdb.db
      .selectFrom('videoPublishes')
      .select(['id', 'dueAt'])
      .where('state', '=', 'published')
      .orderBy('id')
      .execute();
    for (const p of published.filter((_, i) => i % 3 === 0))
      await ctx.tdb.db
        .updateTable('videoPublishes')
        .set({ publishedAt: new Date(Date.parse(p.dueAt) + DAY + 60_000).toISOString() })
        .where('id', '=', p.id)
        .execute();
  });

  it("puts each post in its drawn day of the zone, the day's first posts in the drawn order and its count", async () => {
    const { want, got } = await check('admin');
    expect(got.length).toBeGreaterThan(25);
    expect(want.every((d) => d.count > CALENDAR_DAY_POSTS)).toBe(true);
    // The day Kyiv springs forward is one day of 23 hours.
    const spring = got.find((d) => d.day === '2031-03-30')!;
    expect(Date.parse(spring.end) - Date.parse(spring.start)).toBe(23 * 3600_000);
    expect(got.map((d) => d.day)).toEqual([...new Set(got.map((d) => d.day))]);
    const bounds = rangeDays(start, end, ZONE);
    expect(bounds.keys).toHaveLength(42);
    expect(bounds.keys[0]).toBe('2031-02-24');
  });

  it('counts with each filter: profile, group, platform, state', async () => {
    await check('admin', { platform: 'tiktok' });
    await check('admin', { accountId: String(aProfiles[0]) });
    await check('admin', { state: 'published,failed' });
    await check('admin', { state: 'cancelled' });
    const at = new Date().toISOString();
    const group = await ctx.tdb.db
      .insertInto('accountGroups')
      .values({ userId: 1, name: 'Ранок', createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.tdb.db.insertInto('groupAccounts').values({ groupId: group.id, accountId: aProfiles[1]! }).execute();
    const { got } = await check('admin', { groupId: String(group.id), platform: 'youtube' });
    expect(got.flatMap((d) => d.posts).every((p) => p.accountId === aProfiles[1] && p.platform === 'youtube')).toBe(
      true,
    );
  });

  it('an operator sees only their own; an admin everyone’s', async () => {
    const mine = await check('a');
    const theirs = await check('b');
    expect(mine.got.flatMap((d) => d.posts).every((p) => aProfiles.includes(p.accountId))).toBe(true);
    expect(theirs.got.flatMap((d) => d.posts).some((p) => aProfiles.includes(p.accountId))).toBe(false);
    const all = await days('admin');
    const sum = (ds: { day: string; count: number }[], day: string) => ds.find((d) => d.day === day)?.count ?? 0;
    for (const d of all) expect(d.count).toBe(sum(mine.got, d.day) + sum(theirs.got, d.day));
    // Another operator's profile as a filter: nothing.
    expect(await days('b', { accountId: String(aProfiles[0]) })).toEqual([]);
  });

  it("a day's full list: the posts drawn in it, all of them", async () => {
    for (const [who, q] of [
      ['admin', {}],
      ['a', { platform: 'youtube' }],
    ] as const) {
      const want = expected(await full(who, q));
      for (const day of await days(who, q)) {
        const r = await ctx.call({
          method: 'GET',
          url: url('posts', { start, end, drawnStart: day.start, drawnEnd: day.end, ...q }),
          token: tokens[who],
        });
        expect(r.status).toBe(200);
        const ids = (r.body.data as Post[]).map((p) => p.id);
        expect(ids).toHaveLength(day.count);
        expect([...ids].sort((x, y) => x - y)).toEqual(
          [...want.find((d) => d.day === day.day)!.ids].sort((x, y) => x - y),
        );
      }
    }
  });

  it('refuses a zone the runtime does not know, or a bad range, with a 400 naming the field', async () => {
    const asked: Array<[Record<string, string>, string]> = [
      [{ zone: 'Europe/Atlantis' }, 'zone'],
      [{ end: start }, 'end'],
      [{ platform: 'myspace' }, 'platform'],
    ];
    for (const [q, field] of asked) {
      const r = await ctx.call({ method: 'GET', url: url('days', { start, end, zone: ZONE, ...q }), token: tokens.a });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors ?? {})).toContain(field);
    }
    const r = await ctx.call({ method: 'GET', url: url('posts', { start, end, drawnStart: 'soon' }), token: tokens.a });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors ?? {})).toContain('drawnStart');
  });

  it("the month's read walks the due-time index", async () => {
    const db = ctx.tdb.db;
    const query = new CalendarRepository(db).drawnQuery(null, { start, end, platform: [], state: [] });
    const plan = await planOf(db, ctx.tdb.kind, query);
    expect(plan).toContain('video_publishes_due');
  });
});
