import { describeEachDb } from '../helpers/app';
import { connectPlatform } from '../helpers/connected-tokens';
import { seedFinishedRequest } from '../helpers/finished-request';
import { wallOf } from '../../src/contract/time-zones';
import { withLimits } from './publish.fixtures';

/**
 * Time zones and posting slots (issue 21 items 2, 3): a profile's zone stored and validated; its weekly slots per
 * platform; "add to queue" (the publish body's `queue`, and POST /api/slots/queue) places posts in the next free
 * slots within the platform's budget (TikTok here: 2 posts per rolling 24 h); the capacity view counts them and
 * marks a day that is over.
 */
const DAY = 24 * 3600_000;
const ZONE = 'Europe/Kyiv';

describeEachDb(
  'posting slots and time zones',
  (ctx) => {
    let me = { authorization: '' };
    let other = { authorization: '' };
    let userId = 0;
    let account = 0;

    const publish = async (videoCount: number, body: Record<string, unknown>) => {
      const { idUpload, videos } = await seedFinishedRequest(ctx.tdb.db, userId, videoCount);
      const date = (body.date as string | undefined) ?? new Date(Date.now() + 300 * DAY).toISOString();
      const r = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/${idUpload}`,
        token: me,
        payload: {
          title: 'Черга',
          description: '',
          tags: ['kadr'],
          accounts: [account],
          inTikTok: true,
          date,
          video: videos.map((id) => ({ id, title: 'Черга', description: '', tags: ['kadr'], account, date })),
          ...body,
        },
      });
      return { r, videos };
    };
    const postsOf = (videos: number[]) =>
      ctx.tdb.db
        .selectFrom('videoPublishes')
        .select(['id', 'dueAt', 'platform'])
        .where('videoId', 'in', videos)
        .orderBy('dueAt')
        .execute();
    /** No rolling 24 h holds more than `max` of these instants. */
    const withinRolling = (times: number[], max: number) =>
      times.every((s) => times.filter((t) => t >= s && t < s + DAY).length <= max);

    beforeAll(async () => {
      userId = await ctx.createUser('slots-a', 'slots-a-pass');
      me = (await ctx.login('slots-a', 'slots-a-pass')).headers;
      await ctx.createUser('slots-b', 'slots-b-pass');
      other = (await ctx.login('slots-b', 'slots-b-pass')).headers;
    });

    it('stores a profile’s IANA zone, and refuses an unknown one naming the field', async () => {
      const bad = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token: me,
        payload: { proxy: 'http://127.0.0.1:3128', comments: 'Зона', timeZone: 'Mars/Olympus' },
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toEqual(['timeZone']);
      const made = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token: me,
        payload: { proxy: 'http://127.0.0.1:3128', comments: 'Зона', timeZone: 'America/New_York' },
      });
      expect(made.status).toBe(201);
      expect(made.body.timeZone).toBe('America/New_York');
      account = made.body.id;
      const patched = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${account}`,
        token: me,
        payload: { timeZone: ZONE },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.timeZone).toBe(ZONE);
      const badPatch = await ctx.call({
        method: 'PATCH',
        url: `/api/accounts/${account}`,
        token: me,
        payload: { timeZone: '+02:00' },
      });
      expect(badPatch.status).toBe(400);
      expect(badPatch.body.errors).toHaveProperty('timeZone');
      await connectPlatform(ctx.tdb.db, ctx.root.sealer, account, 'tiktok');
    });

    it('a profile that never chose a zone reads back the zone it is planned in (UTC), as the slots API says', async () => {
      const made = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token: me,
        payload: { proxy: 'http://127.0.0.1:3128', comments: 'Без зони' },
      });
      expect(made.status).toBe(201);
      expect(made.body.timeZone).toBe('UTC');
      const id = made.body.id as number;
      // A profile made before 035: no zone stored at all.
      await ctx.tdb.db.updateTable('accounts').set({ timeZone: null }).where('id', '=', id).execute();
      const read = await ctx.call({ method: 'GET', url: `/api/accounts/${id}`, token: me });
      expect(read.status).toBe(200);
      expect(read.body.timeZone).toBe('UTC');
      const slots = await ctx.call({ method: 'GET', url: `/api/slots/${id}`, token: me });
      expect(slots.body.timeZone).toBe(read.body.timeZone);
    });

    it('sets, reads and removes slots per platform; another user sees none of them', async () => {
      const empty = await ctx.call({ method: 'GET', url: `/api/slots/${account}`, token: me });
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ accountId: account, timeZone: ZONE, slots: [] });
      const badTime = await ctx.call({
        method: 'PUT',
        url: `/api/slots/${account}/tiktok`,
        token: me,
        payload: { days: [1], times: ['25:00'] },
      });
      expect(badTime.status).toBe(400);
      expect(Object.keys(badTime.body.errors)).toEqual(['times.0']);
      const noDays = await ctx.call({
        method: 'PUT',
        url: `/api/slots/${account}/tiktok`,
        token: me,
        payload: { days: [], times: ['09:00'] },
      });
      expect(noDays.status).toBe(400);
      expect(noDays.body.errors).toHaveProperty('days');
      const yt = await ctx.call({
        method: 'PUT',
        url: `/api/slots/${account}/youtube`,
        token: me,
        payload: { days: [5, 1, 2, 3, 4], times: ['18:00', '09:00'], minGapMinutes: 60 },
      });
      expect(yt.status).toBe(200);
      expect(yt.body.slots).toEqual([
        {
          accountId: account,
          platform: 'youtube',
          days: [1, 2, 3, 4, 5],
          times: ['09:00', '18:00'],
          minGapMinutes: 60,
        },
      ]);
      const theirs = await ctx.call({ method: 'GET', url: `/api/slots/${account}`, token: other });
      expect(theirs.status).toBe(404);
      const theirPut = await ctx.call({
        method: 'PUT',
        url: `/api/slots/${account}/tiktok`,
        token: other,
        payload: { days: [1], times: ['09:00'] },
      });
      expect(theirPut.status).toBe(404);
      const removed = await ctx.call({ method: 'DELETE', url: `/api/slots/${account}/youtube`, token: me });
      expect(removed.status).toBe(200);
      expect(removed.body.slots).toEqual([]);
      expect((await ctx.call({ method: 'DELETE', url: `/api/slots/${account}/youtube`, token: me })).status).toBe(404);
    });

    it('refuses to queue a post of a profile without slots on its platform, naming `queue`', async () => {
      const { r } = await publish(1, { queue: true });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['queue']);
    });

    it('add to queue: posts land in the next free slots, at the slot times local to the zone, within the budget', async () => {
      const set = await ctx.call({
        method: 'PUT',
        url: `/api/slots/${account}/tiktok`,
        token: me,
        payload: { days: [1, 2, 3, 4, 5, 6, 7], times: ['09:00', '12:00', '18:00'], minGapMinutes: 0 },
      });
      expect(set.status).toBe(200);
      const before = Date.now();
      const { r, videos } = await publish(5, { queue: true });
      expect(r.status).toBe(201);
      const rows = await postsOf(videos);
      expect(rows).toHaveLength(5);
      const times = rows.map((p) => Date.parse(p.dueAt));
      expect(new Set(times).size).toBe(5);
      for (const t of times) {
        expect(t).toBeGreaterThan(before);
        const w = wallOf(ZONE, t);
        expect([9, 12, 18]).toContain(w.hour);
        expect(w.minute).toBe(0);
      }
      // TikTok's budget here: 2 posts per rolling 24 h; five posts need at least two more days.
      expect(withinRolling(times, 2)).toBe(true);
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(2 * DAY);
      // Each video's own date is its first post's.
      const v = await ctx.tdb.db
        .selectFrom('videos')
        .select(['id', 'date'])
        .where('id', '=', videos[0]!)
        .executeTakeFirstOrThrow();
      expect(v.date).toBe(rows.find((p) => p.id === rows[0]!.id)!.dueAt);
    });

    it('POST /api/slots/queue moves scheduled posts into the next free slots after those already planned', async () => {
      const { r, videos } = await publish(2, {});
      expect(r.status).toBe(201);
      const ids = (await postsOf(videos)).map((p) => p.id);
      const theirs = await ctx.call({ method: 'POST', url: '/api/slots/queue', token: other, payload: { posts: ids } });
      expect(theirs.status).toBe(400);
      expect(Object.keys(theirs.body.errors)).toEqual(['posts.0']);
      const q = await ctx.call({ method: 'POST', url: '/api/slots/queue', token: me, payload: { posts: ids } });
      expect(q.status).toBe(200);
      expect(q.body.data.map((d: { id: number }) => d.id)).toEqual(ids);
      const all = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select('dueAt')
        .where('accountId', '=', account)
        .where('platform', '=', 'tiktok')
        .where('state', '=', 'scheduled')
        .execute();
      const times = all.map((p) => Date.parse(p.dueAt)).sort((a, b) => a - b);
      expect(times).toHaveLength(7);
      expect(new Set(times).size).toBe(7);
      expect(withinRolling(times, 2)).toBe(true);
      for (const d of q.body.data as { dueAt: string }[]) expect([9, 12, 18]).toContain(wallOf(ZONE, d.dueAt).hour);
    });

    it('two queue requests at one instant never take one slot twice', async () => {
      const a = (await postsOf((await publish(3, {})).videos)).map((p) => p.id);
      const b = (await postsOf((await publish(3, {})).videos)).map((p) => p.id);
      const queue = (ids: number[]) =>
        ctx.call({ method: 'POST', url: '/api/slots/queue', token: me, payload: { posts: ids } });
      const [qa, qb] = await Promise.all([queue(a), queue(b)]);
      expect([qa.status, qb.status]).toEqual([200, 200]);
      const times = (
        await ctx.tdb.db
          .selectFrom('videoPublishes')
          .select('dueAt')
          .where('accountId', '=', account)
          .where('platform', '=', 'tiktok')
          .where('state', '=', 'scheduled')
          .execute()
      ).map((p) => Date.parse(p.dueAt));
      expect(new Set(times).size).toBe(times.length);
      expect(withinRolling(times, 2)).toBe(true);
      // Dated by hand far away again: the capacity test below counts the queued posts.
      for (const id of [...a, ...b])
        await ctx.tdb.db
          .updateTable('videoPublishes')
          .set({ dueAt: new Date(Date.now() + 300 * DAY).toISOString() })
          .where('id', '=', id)
          .execute();
    });

    it('a calendar move into a window the budget has filled is refused naming `at`; beside it, it moves', async () => {
      const planned = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select(['id', 'dueAt'])
        .where('accountId', '=', account)
        .where('platform', '=', 'tiktok')
        .where('state', '=', 'scheduled')
        .orderBy('dueAt')
        .execute();
      // The first queued day holds the budget's two posts; a far post moved next to them would be a third.
      const [first, second] = planned;
      const far = planned[planned.length - 1]!;
      expect(Date.parse(second!.dueAt) - Date.parse(first!.dueAt)).toBeLessThan(DAY);
      const move = (at: string) =>
        ctx.call({ method: 'POST', url: `/api/calendar/posts/${far.id}/move`, token: me, payload: { at } });
      const at = new Date(Date.parse(first!.dueAt) + 30 * 60_000).toISOString();
      const refused = await move(at);
      expect(refused.status).toBe(400);
      expect(refused.body.errors.at).toBe(
        `Понад бюджет TikTok: профіль #${account} уже має в цей час стільки дописів, скільки дозволяє платформа (2 за добу)`,
      );
      const kept = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select('dueAt')
        .where('id', '=', far.id)
        .executeTakeFirstOrThrow();
      expect(kept.dueAt).toBe(far.dueAt);
      // A day later than everything planned holds nothing: the same post moves there.
      const free = new Date(Date.parse(far.dueAt) + 3 * DAY).toISOString();
      const moved = await move(free);
      expect(moved.status).toBe(200);
      expect(moved.body.dueAt).toBe(free);
      await move(far.dueAt);
    });

    it('the capacity view counts each day’s posts in the profile’s zone and marks a day over budget', async () => {
      const start = new Date(Date.now() - DAY).toISOString();
      const end = new Date(Date.now() + 30 * DAY).toISOString();
      const url = `/api/slots/capacity?start=${start}&end=${end}&accountId=${account}`;
      const cap = await ctx.call({ method: 'GET', url, token: me });
      expect(cap.status).toBe(200);
      const days = cap.body.data as {
        day: string;
        platform: string;
        posts: number;
        postsLimit: number;
        over: boolean;
        timeZone: string;
      }[];
      expect(days.reduce((n, d) => n + d.posts, 0)).toBe(7);
      for (const d of days) expect(d).toMatchObject({ platform: 'tiktok', postsLimit: 2, over: false, timeZone: ZONE });
      // A post dated by hand next to a queued one: its window holds three.
      const first = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select('dueAt')
        .where('accountId', '=', account)
        .where('state', '=', 'scheduled')
        .orderBy('dueAt')
        .executeTakeFirstOrThrow();
      const by = new Date(Date.parse(first.dueAt) + 60_000).toISOString();
      expect((await publish(1, { date: by })).r.status).toBe(201);
      const again = await ctx.call({ method: 'GET', url, token: me });
      const over = (again.body.data as typeof days).filter((d) => d.over);
      expect(over.length).toBeGreaterThan(0);
      expect(over.map((d) => d.day)).toContain(
        `${wallOf(ZONE, by).year}-${String(wallOf(ZONE, by).month).padStart(2, '0')}-${String(wallOf(ZONE, by).day).padStart(2, '0')}`,
      );
      expect((await ctx.call({ method: 'GET', url, token: other })).status).toBe(404);
      const tooLong = await ctx.call({
        method: 'GET',
        url: `/api/slots/capacity?start=${start}&end=${new Date(Date.now() + 90 * DAY).toISOString()}`,
        token: me,
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.errors).toHaveProperty('end');
    });

    it('over-days answers the days the capacity view marks over, each once, for one profile or all', async () => {
      const start = new Date(Date.now() - DAY).toISOString();
      const end = new Date(Date.now() + 30 * DAY).toISOString();
      // A second profile of the same user, over budget on a day of its own: three posts within an hour.
      const made = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token: me,
        payload: { proxy: 'http://127.0.0.1:3128', comments: 'Понад', timeZone: 'UTC' },
      });
      const second = made.body.id as number;
      await connectPlatform(ctx.tdb.db, ctx.root.sealer, second, 'tiktok');
      const soon = new Date(Date.now() + 20 * DAY);
      const at = Date.UTC(soon.getUTCFullYear(), soon.getUTCMonth(), soon.getUTCDate(), 12);
      for (let i = 0; i < 3; i++) {
        const { idUpload, videos } = await seedFinishedRequest(ctx.tdb.db, userId, 1);
        const date = new Date(at + i * 60_000).toISOString();
        const r = await ctx.call({
          method: 'POST',
          url: `/api/upload-video/${idUpload}`,
          token: me,
          payload: {
            title: 'Понад',
            description: '',
            tags: ['kadr'],
            accounts: [second],
            inTikTok: true,
            date,
            video: videos.map((id) => ({ id, title: 'Понад', description: '', tags: ['kadr'], account: second, date })),
          },
        });
        expect(r.status).toBe(201);
      }
      for (const accountId of [undefined, account, second]) {
        const q = `start=${start}&end=${end}${accountId ? `&accountId=${accountId}` : ''}`;
        const full = await ctx.call({ method: 'GET', url: `/api/slots/capacity?${q}`, token: me });
        const slim = await ctx.call({ method: 'GET', url: `/api/slots/over-days?${q}`, token: me });
        expect(slim.status).toBe(200);
        const overInFull = [
          ...new Set((full.body.data as { day: string; over: boolean }[]).filter((d) => d.over).map((d) => d.day)),
        ].sort();
        expect(overInFull.length).toBeGreaterThan(0);
        expect(slim.body).toEqual({ days: overInFull });
      }
      // The two profiles' over days differ; together they are both.
      const dayOf = async (accountId: number) =>
        (
          await ctx.call({
            method: 'GET',
            url: `/api/slots/over-days?start=${start}&end=${end}&accountId=${accountId}`,
            token: me,
          })
        ).body.days as string[];
      const [a, b] = [await dayOf(account), await dayOf(second)];
      expect(b).toEqual([new Date(at).toISOString().slice(0, 10)]);
      const all = await ctx.call({ method: 'GET', url: `/api/slots/over-days?start=${start}&end=${end}`, token: me });
      expect(all.body.days).toEqual([...new Set([...a, ...b])].sort());
      // Someone else's profile is not found; another user sees none of these days; a range too long is refused.
      const q = `start=${start}&end=${end}`;
      expect(
        (await ctx.call({ method: 'GET', url: `/api/slots/over-days?${q}&accountId=${second}`, token: other })).status,
      ).toBe(404);
      expect((await ctx.call({ method: 'GET', url: `/api/slots/over-days?${q}`, token: other })).body).toEqual({
        days: [],
      });
      const tooLong = await ctx.call({
        method: 'GET',
        url: `/api/slots/over-days?start=${start}&end=${new Date(Date.now() + 90 * DAY).toISOString()}`,
        token: me,
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.errors).toHaveProperty('end');
      // The OpenAPI document names it.
      const doc = await ctx.call({ method: 'GET', url: '/api/openapi.json' });
      expect(Object.keys(doc.body.paths)).toContain('/api/slots/over-days');
    });
  },
  {},
  { platforms: withLimits({ tiktok: { posts: 2 } }) },
);
