import { describeEachDb, type TestCtx } from '../helpers/app';
import { loadConfig } from '../../server/config';
import { publicationFixtures } from './publications.fixtures';

type Token = { authorization: string };
const DAY = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A signed-in user with a two-video request and a profile on YouTube, and a way to publish it. */
function setUp(ctx: TestCtx) {
  const fx = publicationFixtures(ctx);
  const s = {} as { anna: Token; annaId: number; account: number };
  beforeAll(async () => {
    s.annaId = await ctx.createUser('anna', 'anna-pass');
    s.anna = (await ctx.login('anna', 'anna-pass')).headers;
    s.account = await fx.account(s.anna, 'Main', { youtube: true });
  });
  const body = (videos: number[], date: string, over: Record<string, unknown> = {}) => ({
    title: 'Dated',
    tags: ['cats'],
    accounts: [s.account],
    inYouTube: true,
    date,
    video: videos.map((id) => ({ id, title: 'V', tags: ['cats'], account: s.account, date })),
    ...over,
  });
  const publish = (ref: string, payload: object, lang = 'uk') =>
    ctx.call({
      method: 'POST',
      url: `/api/upload-video/${ref}`,
      token: s.anna,
      payload,
      headers: { 'accept-language': lang },
    });
  const written = () => Promise.all([fx.count('publications'), fx.count('videoPublishes'), fx.count('jobs')]);
  return { fx, s, body, publish, written };
}

describeEachDb(
  'publication dates: the years 2000–2100 and the scheduling horizon (default 365 days)',
  (ctx) => {
    const { fx, s, body, publish, written } = setUp(ctx);

    it('refuses a date past year 9999, past 2100 or beyond the horizon with a 400 naming the field; writes nothing', async () => {
      const req = await fx.request(s.annaId, 2);
      const before = await written();
      const ok = body(req.videos, inDays(1));
      const cases: Array<[object, string, string, string]> = [
        [
          { ...ok, date: '+010000-01-01T00:00:00Z' },
          'date',
          'Невірна дата: потрібні дата й час із часовим поясом (Z або зсув)',
          'Invalid date: a date and time with a time zone (Z or an offset) is needed',
        ],
        [
          body(req.videos, '+010000-01-01T00:00:00Z', { date: inDays(1) }),
          'video.0.date',
          'Невірна дата: потрібні дата й час із часовим поясом (Z або зсув)',
          'Invalid date: a date and time with a time zone (Z or an offset) is needed',
        ],
        [
          body(req.videos, '2101-01-01T00:00:00Z', { date: inDays(1) }),
          'video.1.date',
          'Дата має бути в межах 2000–2100 років',
          'The date must lie in the years 2000–2100',
        ],
        [
          { ...ok, date: '2100-12-31T23:59:60Z' },
          'date',
          'Невірна дата: потрібні дата й час із часовим поясом (Z або зсув)',
          'Invalid date: a date and time with a time zone (Z or an offset) is needed',
        ],
        [
          { ...ok, date: '2100-12-31T23:59:59Z' },
          'date',
          'Дата надто далеко: не пізніше ніж через 365 дн. від сьогодні',
          'The date is too far ahead: at most 365 days from now',
        ],
        [
          { ...ok, video: [ok.video[0], { ...ok.video[1], date: inDays(366) }] },
          'video.1.date',
          'Дата надто далеко: не пізніше ніж через 365 дн. від сьогодні',
          'The date is too far ahead: at most 365 days from now',
        ],
      ];
      for (const [payload, field, uk, en] of cases) {
        const r = await publish(req.idUpload, payload);
        expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.errors?.[field], JSON.stringify(r.body)).toBe(uk);
        const e = await publish(req.idUpload, payload, 'en');
        expect(e.body.errors?.[field], JSON.stringify(e.body)).toBe(en);
      }
      expect(await written()).toEqual(before);
      const rows = await ctx.tdb.db.selectFrom('videos').select('date').where('id', 'in', req.videos).execute();
      expect(rows.map((r) => r.date)).toEqual([null, null]);
    });

    it('publishes a date within the horizon (and one in the past, as before), stored canonically in UTC', async () => {
      const req = await fx.request(s.annaId, 2);
      const soon = new Date(Date.now() + 364 * DAY);
      soon.setUTCMilliseconds(0);
      const withOffset = `${soon.toISOString().slice(0, 19)}+00:00`;
      const payload = body(req.videos, withOffset);
      payload.video[1]!.date = '2020-02-29T23:00:00-01:00';
      const r = await publish(req.idUpload, payload);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.video.map((v: { date: string }) => v.date)).toEqual([
        soon.toISOString(),
        '2020-03-01T00:00:00.000Z',
      ]);
      expect(await fx.count('jobs')).toBeGreaterThan(0);
    });
  },
  // The default horizon (the test helper sets a wide one for tests with fixed dates years ahead).
  { publishHorizonDays: 365 },
);

describeEachDb(
  'publication dates: a configured horizon',
  (ctx) => {
    const { fx, s, body, publish, written } = setUp(ctx);

    it('says the configured horizon in days, and lets a date inside it through', async () => {
      const req = await fx.request(s.annaId, 1);
      const before = await written();
      const late = await publish(req.idUpload, body(req.videos, inDays(31)));
      expect(late.status).toBe(400);
      expect(late.body.errors).toEqual({
        date: 'Дата надто далеко: не пізніше ніж через 30 дн. від сьогодні',
        'video.0.date': 'Дата надто далеко: не пізніше ніж через 30 дн. від сьогодні',
      });
      expect(await written()).toEqual(before);
      expect((await publish(req.idUpload, body(req.videos, inDays(29)))).status).toBe(201);
      // The publish form reads the same horizon to say it before saving.
      const rules = await ctx.call({ method: 'GET', url: '/api/upload-video/rules', token: s.anna });
      expect(rules).toMatchObject({ status: 200, body: { horizonDays: 30 } });
      expect((await ctx.call({ method: 'GET', url: '/api/upload-video/rules' })).status).toBe(401);
    });

    it('reads PUBLISH_HORIZON_DAYS, 365 by default, and refuses a horizon that is not a positive whole number', () => {
      const env = { DATA_DIR: ctx.tdb.dataDir, JWT_SECRET: 'x'.repeat(40), APP_KEY: 'k'.repeat(32) };
      expect(loadConfig(env).publishHorizonDays).toBe(365);
      expect(loadConfig({ ...env, PUBLISH_HORIZON_DAYS: '30' }).publishHorizonDays).toBe(30);
      for (const bad of ['0', '-1', '1.5', 'year']) {
        expect(() => loadConfig({ ...env, PUBLISH_HORIZON_DAYS: bad }), bad).toThrow(/PUBLISH_HORIZON_DAYS/);
      }
    });
  },
  { publishHorizonDays: 30 },
);
