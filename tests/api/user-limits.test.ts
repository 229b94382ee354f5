import type net from 'node:net';
import { request } from 'undici';
import { describeEachDb } from '../helpers/app';
import { UserLimitCounter } from '../../server/http/user-limit-counter';
import type { UserLimits } from '../../server/http/user-limits';

/**
 * Per-user limits of expensive operations (issue 17, item 5): one guard declared on the routes, counts in the
 * database (so API processes on one database share them), 429 with Retry-After and a message naming the limit.
 */
const HOUR = 3_600_000;
const LIMITS: UserLimits = { windowMs: HOUR, max: { renders: 2, publish: 3, ai: 4, uploads: 3 } };

/** Every operation the limits guard, by kind (method and path as the OpenAPI document names them). */
const GUARDED: Record<string, string[]> = {
  'post /api/create-video/create': ['renders', 'uploads'],
  'post /api/photo-bg': ['uploads'],
  'post /api/upload-video/{id}': ['publish'],
  'patch /api/upload-video/{id}': ['publish'],
  'post /api/upload-video/upload': ['publish'],
  'post /api/upload-video/ai/{id}': ['publish'],
  'post /api/ai/setting/publication': ['publish'],
  'post /api/ai/setting/type': ['ai'],
  'post /api/ai/setting/type-deepseek': ['ai'],
  'post /api/ai/setting/video': ['ai'],
  'post /api/ai/setting/recreate': ['ai'],
};

describeEachDb(
  'per-user limits',
  (ctx) => {
    let alice: { authorization: string };
    let aliceId: number;
    let bob: { authorization: string };
    const counts = async (userId: number) =>
      Object.fromEntries(
        (await ctx.tdb.db.selectFrom('userLimits').selectAll().where('userId', '=', userId).execute()).map((r) => [
          r.kind,
          Number(r.count),
        ]),
      );
    /** Ends every window of the user in the database (as if the hour had passed). */
    const endWindows = (userId: number) =>
      ctx.tdb.db
        .updateTable('userLimits')
        .set({ untilMs: Date.now() - 1 })
        .where('userId', '=', userId)
        .execute();
    const aiType = (token: { authorization: string }, lang = 'en') =>
      ctx.call({
        method: 'POST',
        url: '/api/ai/setting/type',
        token,
        headers: { 'accept-language': lang },
        payload: { email: 'nobody@example.com', text: 'hello' },
      });

    beforeAll(async () => {
      await ctx.createUser('limit-alice', 'alice-pass');
      await ctx.createUser('limit-bob', 'bob-pass');
      ({ headers: alice, userId: aliceId } = await ctx.login('limit-alice', 'alice-pass'));
      ({ headers: bob } = await ctx.login('limit-bob', 'bob-pass'));
    });

    it('the guarded operations are exactly the expensive ones, each documenting its 429', async () => {
      const declared: Record<string, string[]> = {};
      for (const route of ctx.app.apiRoutes) {
        const kinds = route.config?.userLimit;
        if (kinds?.length)
          declared[`${[route.method].flat()[0]!.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`] = [...kinds];
      }
      expect(declared).toEqual(GUARDED);
      const doc = (await ctx.call({ method: 'GET', url: '/api/openapi.json' })).body;
      for (const op of Object.keys(GUARDED)) {
        const [method, path] = op.split(' ') as [string, string];
        expect(doc.paths[path][method].responses, op).toHaveProperty('429');
      }
    });

    it('counts AI calls per user and answers the one past the limit with 429, Retry-After and a named limit', async () => {
      for (let i = 0; i < 4; i++) expect((await aiType(alice)).status).not.toBe(429);
      const refused = await aiType(alice);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(HOUR / 1000);
      expect(refused.body).toEqual({
        statusCode: 429,
        message: `AI request limit reached (4 an hour). Try again in ${Math.ceil(retryAfter / 60)} min.`,
      });
      const uk = await aiType(alice, 'uk');
      expect(uk.body.message).toMatch(
        /^Ліміт запитів до ШІ \(4 на годину\) вичерпано\. Спробуйте знову через \d+ хв\.$/,
      );
      // Another user has a count of their own; another kind too.
      expect((await aiType(bob)).status).not.toBe(429);
      expect(await counts(aliceId)).toEqual({ ai: 4 });
      // The window ends: the count starts again.
      await endWindows(aliceId);
      expect((await aiType(alice)).status).not.toBe(429);
      expect(await counts(aliceId)).toEqual({ ai: 1 });
    });

    it('20 racing requests admit exactly the limit (publishing)', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          ctx.call({
            method: 'POST',
            url: '/api/upload-video/upload',
            token: bob,
            payload: { videoId: 1, youTubeId: 1 },
          }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 429)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(17);
      expect(answers.every((a) => a.status !== 429 || Number(a.headers['retry-after']) > 0)).toBe(true);
    });

    it('a clip upload counts as a render request and an upload; a refused one gives its other count back', async () => {
      const userId = await ctx.createUser('limit-carol', 'carol-pass');
      const { headers: carol } = await ctx.login('limit-carol', 'carol-pass');
      const createVideo = () =>
        ctx.call({
          method: 'POST',
          url: '/api/create-video/create',
          token: carol,
          headers: { 'content-type': 'multipart/form-data; boundary=kadr', 'accept-language': 'en' },
          payload: '--kadr--\r\n',
        });
      expect((await createVideo()).status).not.toBe(429);
      // Two background uploads fill the uploads window (3): the next clip is refused for its upload.
      for (let i = 0; i < 2; i++) {
        const r = await ctx.call({
          method: 'POST',
          url: '/api/photo-bg',
          token: carol,
          headers: { 'content-type': 'multipart/form-data; boundary=kadr' },
          payload: '--kadr--\r\n',
        });
        expect(r.status).not.toBe(429);
      }
      const refused = await createVideo();
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Upload limit reached \(3 an hour\)/);
      expect(await counts(userId)).toEqual({ renders: 1, uploads: 3 });
      // Uploads free again, renders fill up (2): the clip is refused for its render request, uploads given back.
      await endWindows(userId);
      expect((await createVideo()).status).not.toBe(429);
      expect((await createVideo()).status).not.toBe(429);
      const renders = await createVideo();
      expect(renders.status).toBe(429);
      expect(renders.body.message).toMatch(/^Video request limit reached \(2 an hour\)/);
      expect(await counts(userId)).toEqual({ renders: 2, uploads: 2 });
    });

    it('the counter is atomic: 20 racing takes of one kind admit exactly the limit, shared by two counters', async () => {
      const userId = await ctx.createUser('limit-dave', 'dave-pass');
      // Two counters on one database stand for two API processes.
      const a = new UserLimitCounter(ctx.tdb.db, LIMITS);
      const b = new UserLimitCounter(ctx.tdb.db, LIMITS);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take(userId, ['publish'])),
      );
      expect(results.filter((r) => r === undefined)).toHaveLength(3);
      const refusals = results.filter((r) => r !== undefined);
      expect(refusals).toHaveLength(17);
      expect(refusals[0]).toMatchObject({ kind: 'publish', limit: 3 });
      expect(await counts(userId)).toEqual({ publish: 3 });
    });

    it('a window frees when it ends, and a limit of 0 counts nothing', async () => {
      const userId = await ctx.createUser('limit-erin', 'erin-pass');
      let now = 1_000_000;
      const counter = new UserLimitCounter(ctx.tdb.db, LIMITS, () => now);
      for (let i = 0; i < 2; i++) expect(await counter.take(userId, ['renders'])).toBeUndefined();
      now += 60_000;
      expect(await counter.take(userId, ['renders'])).toEqual({ kind: 'renders', limit: 2, waitSec: 3540 });
      now = 1_000_000 + HOUR;
      expect(await counter.take(userId, ['renders'])).toBeUndefined();
      const unlimited = new UserLimitCounter(ctx.tdb.db, { ...LIMITS, max: { ...LIMITS.max, ai: 0 } }, () => now);
      for (let i = 0; i < 30; i++) expect(await unlimited.take(userId, ['ai'])).toBeUndefined();
      expect(await counts(userId)).toEqual({ renders: 1 });
    });

    it('a refused upload on a listening server: the client still sending reads the 429 and Retry-After', async () => {
      const userId = await ctx.createUser('limit-frank', 'frank-pass');
      const { accessToken } = await ctx.login('limit-frank', 'frank-pass');
      await ctx.tdb.db
        .insertInto('userLimits')
        .values({ userId, kind: 'uploads', count: 3, untilMs: Date.now() + HOUR })
        .execute();
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (ctx.app.server.address() as net.AddressInfo).port;
      const res = await request(`http://127.0.0.1:${port}/api/photo-bg`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'accept-language': 'en',
          'content-type': 'multipart/form-data; boundary=kadr',
        },
        body: Buffer.alloc(4 * 1024 * 1024, 'z'),
      });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers.connection).toBe('close');
      expect(((await res.body.json()) as { message: string }).message).toMatch(/^Upload limit reached \(3 an hour\)/);
    });
  },
  { userLimits: LIMITS },
);

describeEachDb(
  'the sign-in throttle’s 429',
  (ctx) => {
    it('carries Retry-After in seconds', async () => {
      await ctx.createUser('throttled', 'right-pass');
      const attempt = () =>
        ctx.call({ method: 'POST', url: '/api/auth/login', payload: { login: 'throttled', password: 'wrong-pass' } });
      for (let i = 0; i < 2; i++) expect((await attempt()).status).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(refused.body.message).toContain(`${Math.ceil(retryAfter / 60)}`);
    });
  },
  { loginThrottle: { maxFailures: 2, lockSec: 900, maxDelayMs: 0 } },
);
