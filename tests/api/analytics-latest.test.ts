import { dayBefore, dayStartMs, statDay } from '../../server/analytics/stat-day';
import { StatsHistoryRepository, type HistoryPost } from '../../server/analytics/stats-history.repository';
import { describeEachDb } from '../helpers/app';
import { insertPublishedPost, insertRequest } from '../helpers/db';

/**
 * Each post's latest totals (`post_stat_latest`, migration 046) agree with its days on both databases: its first
 * and latest day and the sums of its increments (its last day's running totals), after rounds of stats reads
 * (a read counting on a day before the latest when the profile's zone moved west, a counter going down, two
 * reads of one post at once), after the roll-up, and after every delete there is (a profile: its posts stay; a
 * publication: its videos detached, their posts stay; a render request: its posts go; a user: theirs go). The
 * dashboard's top videos equal the days' sums ranked, for 7, 30 and 90 days.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const KYIV = 'Europe/Kyiv';
const LA = 'America/Los_Angeles';
const COUNTERS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;
type Counters = Record<(typeof COUNTERS)[number], number>;

describeEachDb('analytics latest totals', (ctx) => {
  const db = () => ctx.tdb.db;
  const at = new Date().toISOString();
  let me = 0;
  let other = 0;
  let token = { authorization: '' };
  let admin = { authorization: '' };

  beforeAll(async () => {
    me = await ctx.createUser('latest', 'latest-pass');
    other = await ctx.createUser('latest-other', 'latest-pass');
    await ctx.createUser('latest-admin', 'latest-pass', 'admin');
    token = (await ctx.login('latest', 'latest-pass')).headers;
    admin = (await ctx.login('latest-admin', 'latest-pass')).headers;
  });

  const profile = async (userId: number, timeZone: string | null, name: string) =>
    (
      await db()
        .insertInto('accounts')
        .values({ userId, createdAt: at, comments: name, timeZone })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  /** A render request of `userId` with a publication, and `n` videos of it (no posts yet). */
  const request = async (userId: number, n: number, tag: string) => {
    const requestId = await insertRequest(db(), userId, `latest-${tag}`, { count: n, isGenerator: 1 });
    const pub = await db()
      .insertInto('publications')
      .values({ userId, requestId, title: `Latest ${tag}`, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const videos = await db()
      .insertInto('videos')
      .values(
        Array.from({ length: n }, (_, i) => ({
          userId,
          createdAt: at,
          status: 'publication',
          title: `${tag} ${i}`,
          requestId,
          outputIndex: i,
          publicationId: pub.id,
        })),
      )
      .returning('id')
      .execute();
    return { requestId, publicationId: pub.id, videos: videos.map((v) => v.id) };
  };

  /** A published post of video `videoId` on `platform` through profile `accountId`. */
  const post = async (videoId: number, accountId: number, platform: string): Promise<HistoryPost> => {
    const publishId = await insertPublishedPost(db(), { videoId, accountId, platform, at });
    return { publishId, accountId, platform };
  };

  const history = () => new StatsHistoryRepository(db());
  const read = (p: HistoryPost, ms: number, c: Partial<Counters>) =>
    history().record(p, ms, { views: 0, likes: 0, comments: 0, shares: 0, saves: 0, ...c });

  /** Every post's latest row as its days say it must be (first and last day, the increments' sums). */
  async function fromDays() {
    const days = await db().selectFrom('postStatDays').selectAll().orderBy('publishId').orderBy('day').execute();
    const out = new Map<number, Record<string, unknown>>();
    for (const d of days) {
      const r = out.get(d.publishId) ?? {
        publishId: d.publishId,
        firstDay: d.day,
        ...Object.fromEntries(COUNTERS.map((k) => [`${k}Total`, 0])),
      };
      r.day = d.day;
      for (const k of COUNTERS) r[`${k}Total`] = (r[`${k}Total`] as number) + Number(d[k]);
      // The running totals of the last day are the same sums.
      for (const k of COUNTERS) expect(Number(d[`${k}Total`])).toBe(r[`${k}Total`]);
      out.set(d.publishId, r);
    }
    return [...out.values()];
  }

  async function latestRows() {
    const rows = await db().selectFrom('postStatLatest').selectAll().orderBy('publishId').execute();
    return rows.map((r) => ({
      publishId: r.publishId,
      firstDay: r.firstDay,
      day: r.day,
      ...Object.fromEntries(COUNTERS.map((k) => [`${k}Total`, Number(r[`${k}Total`])])),
    }));
  }

  /** The top 10 videos of `userId` over the dashboard's range, from the days: the increments in it, summed. */
  async function topFromDays(userId: number, from: string, to: string) {
    const rows = await db()
      .selectFrom('postStatDays as p')
      .innerJoin('videoPublishes as vp', 'vp.id', 'p.publishId')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .select(['v.id as videoId', 'p.day', ...COUNTERS.map((k) => `p.${k}` as const)])
      .where('v.userId', '=', userId)
      .where('p.day', '>=', from)
      .where('p.day', '<=', to)
      .execute();
    const by = new Map<number, Counters & { videoId: number }>();
    for (const r of rows) {
      const v = by.get(r.videoId) ?? { videoId: r.videoId, views: 0, likes: 0, comments: 0, shares: 0, saves: 0 };
      for (const k of COUNTERS) v[k] += Number(r[k]);
      by.set(r.videoId, v);
    }
    return [...by.values()].sort((a, b) => b.views - a.views || a.videoId - b.videoId).slice(0, 10);
  }

  async function agree() {
    expect(await latestRows()).toEqual(await fromDays());
    for (const days of [7, 30, 90]) {
      const dash = await ctx.call({ method: 'GET', url: `/api/analytics/dashboard?days=${days}`, token });
      expect(dash.status).toBe(200);
      const got = dash.body.topVideos.map((v: Counters & { videoId: number }) => ({
        videoId: v.videoId,
        ...Object.fromEntries(COUNTERS.map((k) => [k, v[k]])),
      }));
      expect(got).toEqual(await topFromDays(me, dash.body.from, dash.body.to));
    }
  }

  let kyiv = 0;
  let utc = 0;
  let gone = { requestId: 0, publicationId: 0, videos: [] as number[] };
  let kept = { requestId: 0, publicationId: 0, videos: [] as number[] };
  const posts: HistoryPost[] = [];
  let others: HistoryPost[] = [];

  it('agrees with the days after rounds of stats reads', async () => {
    kyiv = await profile(me, KYIV, 'Kyiv');
    utc = await profile(me, null, 'UTC');
    kept = await request(me, 12, 'kept');
    gone = await request(me, 3, 'gone');
    // A video on two platforms (two posts), the others on one; some through each profile.
    posts.push(await post(kept.videos[0]!, kyiv, 'youtube'), await post(kept.videos[0]!, utc, 'tiktok'));
    for (const [i, v] of kept.videos.slice(1).entries())
      posts.push(await post(v, i % 2 ? kyiv : utc, ['youtube', 'tiktok', 'instagram'][i % 3]!));
    for (const v of gone.videos) posts.push(await post(v, utc, 'instagram'));
    const otherProfile = await profile(other, null, 'Other');
    const otherReq = await request(other, 2, 'other');
    others = [
      await post(otherReq.videos[0]!, otherProfile, 'youtube'),
      await post(otherReq.videos[1]!, otherProfile, 'youtube'),
    ];

    const now = Date.now();
    // Rounds from 40 days ago to an hour ago (around the days before the 7- and 30-day periods too); posts grow at
    // their own pace, and not every post is read every round (some have a day just before a period, some not).
    for (const [round, ago] of [40, 31, 30, 29, 20, 9, 7, 6, 3, 0].entries())
      for (const [n, p] of [...posts, ...others].entries()) {
        if (n % 3 === round % 3 && ago > 0) continue;
        // Older rounds read hourly (three reads), for the roll-up to fold.
        for (const [h, more] of ago >= 20
          ? [
              [3, 0],
              [2, 4],
              [1, 9],
            ]
          : [[1, 0]]) {
          // Each post grows at its own pace round by round (early hits, late risers): the periods rank apart.
          let grow = n + more!;
          for (let r = 0; r <= round; r++) grow += (n * 37 + r * 91) % 200;
          await read(p, now - ago * DAY - h! * HOUR - n * 1000, {
            views: grow * 10,
            likes: grow % 50,
            comments: grow % 7,
            shares: p.platform === 'tiktok' ? grow % 3 : 0,
            saves: p.platform === 'instagram' ? grow % 4 : 0,
          });
        }
      }
    await agree();

    // A counter goes down (an unlike), and two reads of one post come at once.
    await read(posts[3]!, now - HOUR / 2, { views: 99_999, likes: 0 });
    await Promise.all([
      read(posts[4]!, now - HOUR / 3, { views: 123_456, likes: 3 }),
      read(posts[4]!, now - HOUR / 4, { views: 123_999, likes: 4 }),
    ]);
    await agree();
  });

  it('agrees when a read counts on a day before the post’s latest (the zone moved west)', async () => {
    const p = posts[0]!; // through the Kyiv profile
    const day = statDay(Date.now() - 5 * DAY, KYIV);
    const midnight = dayStartMs(day, KYIV);
    await read(p, midnight + HOUR, { views: 1_000_000, likes: 9 }); // Kyiv's day: the post's latest day moves back
    await db().updateTable('accounts').set({ timeZone: LA }).where('id', '=', kyiv).execute();
    await read(p, midnight + 2 * HOUR, { views: 1_000_500, likes: 10 }); // Los Angeles' day before
    await read(p, Date.now() - HOUR / 5, { views: 1_001_000, likes: 11 });
    const days = await db()
      .selectFrom('postStatDays')
      .select('day')
      .where('publishId', '=', p.publishId)
      .where('day', '=', dayBefore(day, 1))
      .execute();
    expect(days).toHaveLength(1);
    await agree();
    await db().updateTable('accounts').set({ timeZone: KYIV }).where('id', '=', kyiv).execute();
  });

  it('agrees after the roll-up', async () => {
    const r = await ctx.root.rollUp.run();
    expect(r.posts).toBeGreaterThan(0);
    expect(r.removed).toBeGreaterThan(0);
    await agree();
  });

  it('agrees after a profile, a publication, a render request and a user are deleted', async () => {
    const before = await latestRows();
    expect((await ctx.call({ method: 'DELETE', url: `/api/accounts/${utc}`, token })).status).toBeLessThan(300);
    expect(await latestRows()).toEqual(before); // its posts stay (detached), their days too
    await agree();

    const pub = await ctx.call({ method: 'DELETE', url: `/api/upload-video/${kept.publicationId}`, token });
    expect(pub.status).toBeLessThan(300);
    expect(await latestRows()).toEqual(before);
    await agree();

    const req = await ctx.call({ method: 'DELETE', url: `/api/create-video/${gone.requestId}`, token });
    expect(req.status).toBeLessThan(300);
    const goneIds = new Set(posts.slice(-gone.videos.length).map((p) => p.publishId));
    const left = await latestRows();
    expect(left).toEqual(before.filter((r) => !goneIds.has(r.publishId)));
    await agree();

    const user = await ctx.call({ method: 'DELETE', url: `/api/users/${other}`, token: admin });
    expect(user.status).toBeLessThan(300);
    const otherIds = new Set(others.map((p) => p.publishId));
    expect(await latestRows()).toEqual(left.filter((r) => !otherIds.has(r.publishId)));
    await agree();
  });
});
