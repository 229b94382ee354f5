import { request } from 'undici';
import { z } from 'zod';
import { JobRunner, defineJob, jobWorker, type DeadCause } from '../../server/jobs/index';
import { startWorkers, type Workers } from '../../server/workers';
import { describeEachDb } from '../helpers/app';
import { recordEvents, renderEvent } from '../helpers/events';
import { openSse } from '../helpers/sse';
import { publicationFixtures } from './publications.fixtures';

type Token = { authorization: string };

/**
 * Issue 17's fault test: the server on a real socket with its workers, under a mixed load of reads and writes
 * from several clients, while one request of each kind that once hurt it is sent: a date past year 9999, a job
 * chain that re-queues itself at its own time, a demoted admin's open stream, a reused ticket, uploads refused
 * before their bodies are read (read by a plain HTTP client), a burst past a per-user limit. Afterwards every
 * request of the load was answered, none with a 5xx, and every write it made is there.
 */
const CLIENTS = 8;
const UPLOAD_LIMIT = 2;
const stallJob = defineJob({
  name: 'test.fault-stall',
  payload: z.object({ n: z.number() }),
  retry: { kind: 'never' },
});

describeEachDb(
  'the server under load while faults are sent',
  (ctx) => {
    let base: string;
    let workers: Workers;
    let boss: Token;
    let operators: Token[];
    let anna: Token;
    let annaId: number;

    beforeAll(async () => {
      await ctx.createUser('boss', 'boss-pass', 'admin');
      boss = (await ctx.login('boss', 'boss-pass')).headers;
      operators = [];
      for (let i = 0; i < CLIENTS; i++) {
        await ctx.createUser(`op${i}`, `op${i}-pass`);
        operators.push((await ctx.login(`op${i}`, `op${i}-pass`)).headers);
      }
      annaId = await ctx.createUser('anna', 'anna-pass');
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const addr = ctx.app.server.address();
      base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      workers = await startWorkers(ctx.root, { pollMs: 50 });
    });
    afterAll(async () => {
      await workers?.stop();
    });

    /** One request over the socket; a timeout, a reset or a 5xx is a failure of the server, never of the test. */
    async function send(method: 'GET' | 'POST', path: string, token: Token, body?: unknown) {
      const res = await request(`${base}${path}`, {
        method,
        headers: { ...token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as any) : undefined };
    }

    /** Each client loops over reads and writes until told to stop; writes are remembered to be looked for. */
    function startLoad() {
      let running = true;
      const failures: string[] = [];
      const written: Array<{ id: number; name: string; owner: number }> = [];
      let answered = 0;
      const client = async (token: Token, c: number) => {
        for (let i = 0; running; i++) {
          const step = i % 4;
          try {
            if (step === 0) {
              const name = `set-${c}-${i}`;
              const r = await send('POST', '/api/tags', token, { name, tags: [`t${i}`, 'load'] });
              if (r.status !== 201) failures.push(`POST /api/tags → ${r.status} ${JSON.stringify(r.body)}`);
              else written.push({ id: r.body.id, name, owner: c });
            } else {
              const path = ['/api/tags?page=1', '/api/accounts?page=1', '/api/notifications?page=1'][step - 1]!;
              const r = await send('GET', path, token);
              if (r.status !== 200) failures.push(`GET ${path} → ${r.status}`);
            }
            answered++;
          } catch (err) {
            failures.push(`request failed: ${(err as Error).message}`);
          }
        }
      };
      const clients = operators.map((t, c) => client(t, c));
      return {
        answered: () => answered,
        stop: async () => {
          running = false;
          await Promise.all(clients);
          return { failures, written, answered };
        },
      };
    }

    it('answers every other request and loses nothing', async () => {
      const load = startLoad();
      const fixtures = publicationFixtures(ctx);

      // 1. A publication dated past year 9999: refused, naming the field; nothing scheduled.
      const req = await fixtures.request(annaId, 1);
      const profile = await fixtures.account(anna, 'fault profile', { youtube: true });
      const date = '+010000-01-01T00:00:00Z';
      const far = await send('POST', `/api/upload-video/${req.idUpload}`, anna, {
        title: 'far future',
        description: '',
        tags: ['x'],
        accounts: [profile],
        video: [{ id: req.videos[0], title: 'far future', description: '', tags: ['x'], account: profile, date }],
        inYouTube: true,
        inTikTok: false,
        inInstagram: false,
        date,
      });
      expect(far.status).toBe(400);
      expect(Object.keys(far.body.errors)).toEqual(expect.arrayContaining(['date', 'video.0.date']));
      expect(await ctx.tdb.db.selectFrom('videoPublishes').select('id').execute()).toEqual([]);

      // 2. A job chain that asks again for its own time, forever: it goes dead with the reason.
      let heard!: (v: DeadCause | undefined) => void;
      const dead = new Promise<DeadCause | undefined>((r) => (heard = r));
      const runner = new JobRunner({
        queue: ctx.root.queue,
        catalogue: [stallJob],
        workers: [
          jobWorker(
            stallJob,
            async (p, { job }) => {
              const at = { key: `fault-stall:${p.n + 1}`, runAt: new Date(job.runAt), after: job };
              await ctx.root.queue.enqueue(stallJob, { n: p.n + 1 }, at);
            },
            async (_p, _error, cause) => heard(cause),
          ),
        ],
        pollMs: 20,
      }).start();
      await ctx.root.queue.enqueue(stallJob, { n: 0 }, { key: 'fault-stall:0' });

      // 3. A demoted admin's open stream narrows at once; 4. its ticket opens no second stream.
      const deputyId = await ctx.createUser('deputy', 'deputy-pass', 'admin');
      const deputy = (await ctx.login('deputy', 'deputy-pass')).headers;
      const { body: t } = await send('POST', '/api/live/ticket', deputy);
      const stream = openSse(`${base}/api/live/events?ticket=${encodeURIComponent(t.ticket)}`);
      await stream.opened;
      expect(stream.state.status).toBe(200);
      const again = openSse(`${base}/api/live/events?ticket=${encodeURIComponent(t.ticket)}`);
      await again.opened;
      expect(again.state.status).toBe(401);
      again.close();
      await recordEvents(ctx.root, renderEvent(annaId, { id: 1001 }));
      await expect.poll(() => stream.messages.map((m) => m.payload.id)).toEqual([1001]);
      const demoted = await ctx.call({
        method: 'PATCH',
        url: `/api/users/${deputyId}`,
        token: boss,
        payload: { login: 'deputy', password: 'deputy-pass', role: 'user' },
      });
      expect(demoted.status).toBe(200);
      await recordEvents(ctx.root, renderEvent(annaId, { id: 1002 }));
      await recordEvents(ctx.root, renderEvent(deputyId, { id: 1003 }));
      await expect.poll(() => stream.messages.map((m) => m.payload.id)).toEqual([1001, 1003]);
      stream.close();

      // 5. Uploads refused before their bodies are read, by a plain HTTP client: it reads the answer.
      const big = Buffer.alloc(6 * 1024 * 1024, 1);
      const form = (boundary: string) =>
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="a.jpg"\r\n` +
              'content-type: image/jpeg\r\n\r\n',
          ),
          big,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
      const upload = (token: Partial<Token>) =>
        request(`${base}/api/photo-bg`, {
          method: 'POST',
          headers: { ...token, 'content-type': 'multipart/form-data; boundary=xyz' },
          body: form('xyz'),
        });
      const unsigned = await upload({});
      expect(unsigned.statusCode).toBe(401);
      expect(((await unsigned.body.json()) as { message: string }).message).toBeTruthy();

      // 6. A burst past the per-user upload limit: 429 with Retry-After and a message, the answer read in full.
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i < UPLOAD_LIMIT + 2; i++) {
        const r = await upload(anna);
        statuses.push(r.statusCode);
        if (r.statusCode === 429) retryAfter = String(r.headers['retry-after']);
        await r.body.dump();
      }
      expect(statuses.slice(UPLOAD_LIMIT)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);

      expect(await dead).toBe('stalled');
      await runner.stop();

      // The load ran through all of it: every request answered, every write there with its tags.
      await expect.poll(() => load.answered()).toBeGreaterThan(CLIENTS * 8);
      const { failures, written } = await load.stop();
      expect(failures).toEqual([]);
      const stored = await ctx.tdb.db
        .selectFrom('tagSets')
        .select(['id', 'name', 'tags'])
        .where('name', 'like', 'set-%')
        .execute();
      expect(stored.map((s) => s.name).sort()).toEqual(written.map((w) => w.name).sort());
      for (const s of stored) expect(JSON.parse(s.tags)).toContain('load');
    });
  },
  { userLimits: { windowMs: 3_600_000, max: { renders: 0, publish: 0, ai: 0, uploads: UPLOAD_LIMIT } } } as any,
);
