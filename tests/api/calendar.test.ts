import { CalendarRepository } from '../../server/calendar/calendar.repository';
import { describeEachDb } from '../helpers/app';
import { planOf } from '../helpers/query-plan';
import {
  PUBLISH_TIMING as timing,
  connectedProfile,
  publishBench,
  publisher,
  schedule,
  settle,
} from './publish.fixtures';

/**
 * The calendar (issue 21 item 1): the posts due in a range with their filters and owners, and a scheduled post
 * dragged to another time: refused in the past or once it is going out, and published by the worker at its new time.
 */
const bench = publishBench();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describeEachDb(
  'calendar',
  (ctx) => {
    const me = publisher(ctx, bench, 'cal-a');
    // A second operator (the app already listens for the first's media).
    const other = { userId: 0, token: { authorization: '' }, accountId: 0 };
    let admin = { authorization: '' };
    const base = Date.UTC(2031, 2, 10, 9);
    const range = (q: Record<string, string> = {}) =>
      new URLSearchParams({
        start: new Date(base - DAY).toISOString(),
        end: new Date(base + 30 * DAY).toISOString(),
        ...q,
      }).toString();
    const posts = async (token: { authorization: string }, q: Record<string, string> = {}) => {
      const r = await ctx.call({ method: 'GET', url: `/api/calendar/posts?${range(q)}`, token });
      expect(r.status).toBe(200);
      return r.body.data as { id: number; platform: string; state: string; dueAt: string; title: string }[];
    };
    let mine: Awaited<ReturnType<typeof me.post>>;
    let later: Awaited<ReturnType<typeof me.post>>;
    let theirs: Awaited<ReturnType<typeof me.post>>;

    beforeAll(async () => {
      await ctx.createUser('cal-admin', 'cal-admin-pass', 'admin');
      admin = (await ctx.login('cal-admin', 'cal-admin-pass')).headers;
      other.userId = await ctx.createUser('cal-b', 'cal-b-pass');
      other.token = (await ctx.login('cal-b', 'cal-b-pass')).headers;
      other.accountId = await connectedProfile(ctx, other.token, bench.proxy.url);
      mine = await me.post(['youtube', 'tiktok'], { date: new Date(base), title: 'Перший' });
      later = await me.post(['instagram'], { date: new Date(base + 10 * DAY), title: 'Другий' });
      // Out of the range: the day after it ends.
      await me.post(['youtube'], { date: new Date(base + 31 * DAY), title: 'Поза' });
      theirs = await schedule(ctx, {
        userId: other.userId,
        accountId: other.accountId,
        clip: bench.clip.file,
        platforms: ['youtube'],
        date: new Date(base + HOUR),
        title: 'Чужий',
      });
    });

    it('answers the posts due in the range, in order, with their profile, publication and title', async () => {
      const data = await posts(me.token);
      expect(data.map((p) => [p.id, p.platform, p.state, p.title])).toEqual([
        [mine.rows.youtube, 'youtube', 'scheduled', 'Перший'],
        [mine.rows.tiktok, 'tiktok', 'scheduled', 'Перший'],
        [later.rows.instagram, 'instagram', 'scheduled', 'Другий'],
      ]);
      expect(data[0]).toMatchObject({
        videoId: mine.videoId,
        publicationId: mine.publicationId,
        accountId: me.accountId,
        dueAt: new Date(base).toISOString(),
        publishedAt: null,
      });
      expect((data[0] as unknown as { profile: string }).profile).toContain(`#${me.accountId}`);
      expect((data[0] as unknown as { profileLabel: string }).profileLabel).toMatch(
        new RegExp(`^#${me.accountId}( · |$)`),
      );
    });

    it('filters by profile, group, platform and state; cancelled posts only when asked', async () => {
      expect((await posts(me.token, { platform: 'tiktok,instagram' })).map((p) => p.id)).toEqual([
        mine.rows.tiktok,
        later.rows.instagram,
      ]);
      expect(await posts(me.token, { accountId: String(other.accountId) })).toEqual([]);
      expect((await posts(admin, { accountId: String(other.accountId) })).map((p) => p.id)).toEqual([
        theirs.rows.youtube,
      ]);
      const at = new Date().toISOString();
      const group = await ctx.tdb.db
        .insertInto('accountGroups')
        .values({ userId: me.userId, name: 'Кухня', createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.tdb.db.insertInto('groupAccounts').values({ groupId: group.id, accountId: other.accountId }).execute();
      expect((await posts(admin, { groupId: String(group.id) })).map((p) => p.id)).toEqual([theirs.rows.youtube]);
      await ctx.tdb.db
        .updateTable('videoPublishes')
        .set({ state: 'cancelled' })
        .where('id', '=', later.rows.instagram!)
        .execute();
      expect((await posts(me.token)).map((p) => p.id)).not.toContain(later.rows.instagram);
      expect((await posts(me.token, { state: 'cancelled' })).map((p) => p.id)).toEqual([later.rows.instagram]);
      await ctx.tdb.db
        .updateTable('videoPublishes')
        .set({ state: 'scheduled' })
        .where('id', '=', later.rows.instagram!)
        .execute();
    });

    it('refuses a bad range or filter with a 400 naming the field', async () => {
      const bad = async (q: string, field: string) => {
        const r = await ctx.call({ method: 'GET', url: `/api/calendar/posts?${q}`, token: me.token });
        expect(r.status).toBe(400);
        expect(Object.keys(r.body.errors ?? {})).toContain(field);
      };
      await bad(range({ end: new Date(base - 2 * DAY).toISOString() }), 'end');
      await bad(range({ end: new Date(base + 90 * DAY).toISOString() }), 'end');
      await bad(range({ platform: 'myspace' }), 'platform');
      await bad(range({ state: 'lost' }), 'state');
      await bad('end=2031-01-01T00:00:00Z', 'start');
    });

    it('an operator sees only their own posts; an admin sees everyone’s', async () => {
      expect((await posts(other.token)).map((p) => p.id)).toEqual([theirs.rows.youtube]);
      const all = (await posts(admin)).map((p) => p.id);
      expect(all).toEqual(expect.arrayContaining([mine.rows.youtube, theirs.rows.youtube, later.rows.instagram]));
      const r = await ctx.call({
        method: 'POST',
        url: `/api/calendar/posts/${theirs.rows.youtube}/move`,
        token: me.token,
        payload: { at: new Date(base + 2 * DAY).toISOString() },
      });
      expect(r.status).toBe(404);
    });

    it('moves a scheduled post: its due time and its queued step change; the video’s date follows', async () => {
      const at = new Date(base + 3 * DAY).toISOString();
      const r = await ctx.call({
        method: 'POST',
        url: `/api/calendar/posts/${later.rows.instagram}/move`,
        token: me.token,
        payload: { at },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: later.rows.instagram, dueAt: at, state: 'scheduled' });
      const jobs = await ctx.tdb.db
        .selectFrom('jobs')
        .select(['runAt', 'status'])
        .where('key', 'like', `publication.publish:${later.rows.instagram}:%`)
        .execute();
      expect(jobs.filter((j) => j.status === 'queued').map((j) => Number(j.runAt))).toEqual([Date.parse(at)]);
      const v = await ctx.tdb.db
        .selectFrom('videos')
        .select('date')
        .where('id', '=', later.videoId)
        .executeTakeFirstOrThrow();
      expect(v.date).toBe(at);
      // An admin may move anyone's post.
      const a = await ctx.call({
        method: 'POST',
        url: `/api/calendar/posts/${theirs.rows.youtube}/move`,
        token: admin,
        payload: { at: new Date(base + 4 * DAY).toISOString() },
      });
      expect(a.status).toBe(200);
    });

    it('refuses a move into the past, and of a post already going out, with a translated reason', async () => {
      const move = (id: number, at: string) =>
        ctx.call({ method: 'POST', url: `/api/calendar/posts/${id}/move`, token: me.token, payload: { at } });
      const past = await move(mine.rows.youtube!, new Date(Date.now() - HOUR).toISOString());
      expect(past.status).toBe(400);
      expect(past.body.errors.at).toBe('Допис не можна перенести в минуле');
      for (const state of ['uploading', 'processing', 'publishing', 'published']) {
        await ctx.tdb.db.updateTable('videoPublishes').set({ state }).where('id', '=', mine.rows.tiktok!).execute();
        const r = await move(mine.rows.tiktok!, new Date(base + 5 * DAY).toISOString());
        expect(r.status).toBe(400);
        expect(r.body.errors.at).toBe('Цей допис уже публікується (або опублікований), його не можна перенести');
        expect(r.body.message).toBe(r.body.errors.at);
      }
      const row = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select('dueAt')
        .where('id', '=', mine.rows.tiktok!)
        .executeTakeFirstOrThrow();
      expect(row.dueAt).toBe(new Date(base).toISOString());
      const bad = await move(mine.rows.youtube!, 'tomorrow');
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toContain('at');
    });

    it('a moved post is published by the worker at its new time, once', async () => {
      const before = me.counts().tiktok;
      const { rows } = await me.post(['tiktok'], { date: new Date(Date.now() + DAY) });
      const at = new Date(Date.now() + 1500);
      const r = await ctx.call({
        method: 'POST',
        url: `/api/calendar/posts/${rows.tiktok}/move`,
        token: me.token,
        payload: { at: at.toISOString() },
      });
      expect(r.status).toBe(200);
      const [done] = await settle(ctx, [rows.tiktok!]);
      expect(done!.state).toBe('published');
      expect(Date.parse(done!.publishedAt!)).toBeGreaterThanOrEqual(at.getTime());
      expect(me.counts().tiktok).toBe(before + 1);
    });

    it('the range query walks the due-time index', async () => {
      const db = ctx.tdb.db;
      const query = new CalendarRepository(db).rangeQuery(
        null,
        {
          start: new Date(base).toISOString(),
          end: new Date(base + DAY).toISOString(),
          platform: [],
          state: [],
        },
        100,
      );
      const plan = await planOf(db, ctx.tdb.kind, query);
      expect(plan).toContain('video_publishes_due');
    });
  },
  bench.overrides,
  { publishTiming: timing },
);
