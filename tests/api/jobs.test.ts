import { z } from 'zod';
import { createDb, type DbKind } from '../../server/db/index';
import { JobQueue, JobRunner, PermanentJobError, defineJob, jobWorker, type JobHandler } from '../../server/jobs/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { decodeMessage } from '../../src/contract/stored-message';

const echo = defineJob({ name: 'test.echo', payload: z.object({ n: z.number() }) });
const other = defineJob({ name: 'test.other', payload: z.object({ s: z.string() }) });
/** One attempt only: a failure goes dead for a reconcile step (what publishing needs). */
const once = defineJob({ name: 'test.once', payload: z.object({ n: z.number() }), retry: { kind: 'never' } });
const CATALOGUE = [echo, other];
const NAMES = CATALOGUE.map((j) => j.name);
const idle = async () => {};
/** A runner over echo + other with the given handlers (the rest do nothing). */
const runnerOf = (
  queue: JobQueue,
  h: { echo?: JobHandler<{ n: number }>; other?: JobHandler<{ s: string }> },
  opts = {},
) =>
  new JobRunner({
    queue,
    catalogue: CATALOGUE,
    workers: [jobWorker(echo, h.echo ?? idle), jobWorker(other, h.other ?? idle)],
    ...opts,
  });
const pgOk = await postgresAvailable();

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`durable job queue [${kind}]`, () => {
    let tdb: TestDb;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => clock;
    let q: JobQueue;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
      q = new JobQueue(tdb.db, kind, now);
    });
    afterAll(async () => {
      await tdb?.drop();
    });
    beforeEach(async () => {
      await tdb.db.deleteFrom('jobs').execute();
    });

    it('enqueues once per key', async () => {
      expect(await q.enqueue(echo, { n: 1 }, { key: 'k1' })).toBe(true);
      expect(await q.enqueue(echo, { n: 2 }, { key: 'k1' })).toBe(false);
      const rows = await q.list();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.payload)).toEqual({ n: 1 });
      expect(rows[0]!.status).toBe('queued');
    });

    it('refuses to start a runner when a job name has no handler', () => {
      expect(() => new JobRunner({ queue: q, catalogue: CATALOGUE, workers: [jobWorker(echo, idle)] })).toThrow(
        'no handler for job "test.other"',
      );
    });

    it('runs a job to done with its typed payload', async () => {
      await q.enqueue(echo, { n: 7 }, { key: 'run-1' });
      const seen: number[] = [];
      const runner = runnerOf(q, {
        echo: async (p) => {
          seen.push(p.n);
        },
      });
      expect(await runner.drain()).toBe(1);
      expect(seen).toEqual([7]);
      expect((await q.get('run-1'))!.status).toBe('done');
    });

    it('retries with exponential backoff and ends dead with the last error', async () => {
      let calls = 0;
      const delays: number[] = [];
      const thrice = defineJob({
        name: 'test.echo',
        payload: z.object({ n: z.number() }),
        retry: {
          kind: 'retry',
          maxAttempts: 3,
          backoff: (attempt) => {
            const d = 1000 * 2 ** (attempt - 1);
            delays.push(d);
            return d;
          },
        },
      });
      await q.enqueue(thrice, { n: 1 }, { key: 'fail-1' });
      const runner = new JobRunner({
        queue: q,
        catalogue: [thrice],
        workers: [
          jobWorker(thrice, async () => {
            calls++;
            throw new Error(`boom ${calls}`);
          }),
        ],
      });
      expect(await runner.drain()).toBe(1);
      let row = (await q.get('fail-1'))!;
      expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'boom 1' });
      expect(row.runAt - clock).toBe(1000);
      expect(await runner.drain()).toBe(0); // not due yet
      clock += 1000;
      expect(await runner.drain()).toBe(1);
      row = (await q.get('fail-1'))!;
      expect(row).toMatchObject({ status: 'queued', attempts: 2, lastError: 'boom 2' });
      expect(row.runAt - clock).toBe(2000);
      clock += 2000;
      expect(await runner.drain()).toBe(1);
      row = (await q.get('fail-1'))!;
      expect(row).toMatchObject({ status: 'dead', attempts: 3, lastError: 'boom 3' });
      expect(delays).toEqual([1000, 2000]);
      clock += 3_600_000;
      expect(await runner.drain()).toBe(0); // dead stays dead
      expect(calls).toBe(3);
    });

    it('a permanent failure goes dead at once', async () => {
      await q.enqueue(other, { s: 'x' }, { key: 'perm-1' });
      const runner = runnerOf(q, {
        other: async () => {
          throw new PermanentJobError('bad input');
        },
      });
      await runner.drain();
      expect(await q.get('perm-1')).toMatchObject({ status: 'dead', attempts: 1, lastError: 'bad input' });
    });

    it('recovers a crashed worker’s job after its lease expires; the old worker can no longer finish it', async () => {
      await q.enqueue(echo, { n: 1 }, { key: 'lease-1' });
      const a = await q.claim('worker-a', NAMES, 10_000);
      expect(a).toMatchObject({ attempts: 1, lockedBy: 'worker-a' });
      expect(await q.claim('worker-b', NAMES, 10_000)).toBeUndefined(); // leased
      clock += 9_000;
      expect(await q.heartbeat(a!, 10_000)).toBe(true); // renewed: still not claimable after the first lease
      clock += 5_000;
      expect(await q.claim('worker-b', NAMES, 10_000)).toBeUndefined();
      clock += 10_001; // worker-a "crashed": no more heartbeats
      const b = await q.claim('worker-b', NAMES, 10_000);
      expect(b).toMatchObject({ id: a!.id, attempts: 2, lockedBy: 'worker-b' });
      expect(await q.heartbeat(a!, 10_000)).toBe(false);
      expect(await q.complete(a!)).toBe(false);
      expect(await q.complete(b!)).toBe(true);
      expect((await q.get('lease-1'))!.status).toBe('done');
    });

    it('a job whose lease expired on its last attempt goes dead', async () => {
      await q.enqueue(once, { n: 1 }, { key: 'lease-dead' });
      await q.claim('worker-a', [once.name], 1000);
      clock += 2000;
      const dead: Array<[unknown, string]> = [];
      expect(
        await q.claim('worker-b', [once.name], 1000, async (job, error) => {
          dead.push([JSON.parse(job.payload), error]);
        }),
      ).toBeUndefined();
      expect(await q.get('lease-dead')).toMatchObject({
        status: 'dead',
        lastError: 'kadr.jobs.reasons.worker_lost',
      });
      // No handler runs again, so the caller hears of it (the render worker fails the request then).
      expect(dead).toEqual([[{ n: 1 }, 'kadr.jobs.reasons.worker_lost']]);
    });

    it('a stored payload that does not match its schema goes dead with the reason; the runner goes on', async () => {
      const at = new Date(clock).toISOString();
      const stored = (key: string, payload: string) => ({
        name: 'test.echo',
        key,
        payload,
        status: 'queued' as const,
        maxAttempts: 5,
        runAt: clock,
        createdAt: at,
        updatedAt: at,
      });
      // As an older deploy might have left them: a wrong field type, and text that is not JSON at all.
      await tdb.db
        .insertInto('jobs')
        .values([stored('bad-1', '{"n":"seven"}'), stored('bad-2', 'not json')])
        .execute();
      await q.enqueue(echo, { n: 3 }, { key: 'good-1' });
      const seen: number[] = [];
      expect(
        await runnerOf(q, {
          echo: async (p) => {
            seen.push(p.n);
          },
        }).drain(),
      ).toBe(3);
      expect(seen).toEqual([3]);
      const bad = (await q.get('bad-1'))!;
      expect(bad).toMatchObject({ status: 'dead', attempts: 1 });
      // Stored as a message key the Jobs screen translates, with the kind and the schema's complaint.
      expect(decodeMessage(bad.lastError!)).toEqual({
        key: 'kadr.jobs.reasons.payload_invalid',
        params: { kind: 'test.echo', issues: expect.stringContaining('n:') },
      });
      expect(await q.get('bad-2')).toMatchObject({
        status: 'dead',
        lastError: 'kadr.jobs.reasons.payload_not_json {"kind":"test.echo"}',
      });
      expect((await q.get('good-1'))!.status).toBe('done');
    });

    it('refuses to enqueue a payload its schema rejects', async () => {
      await expect(q.enqueue(echo, { n: 'x' } as never, { key: 'refused' })).rejects.toThrow();
      expect(await q.get('refused')).toBeUndefined();
    });

    it('applies the retry policy of each job kind: a "never" job goes dead after one failure, a default one is queued again', async () => {
      const heard: Array<[unknown, string]> = [];
      const runner = new JobRunner({
        queue: q,
        catalogue: [echo, once],
        workers: [
          jobWorker(echo, async () => {
            throw new Error('flaky');
          }),
          jobWorker(
            once,
            async () => {
              throw new Error('publish outcome unknown');
            },
            async (p, error) => {
              heard.push([p, error]);
            },
          ),
        ],
      });
      await q.enqueue(echo, { n: 1 }, { key: 'retry-default' });
      await q.enqueue(once, { n: 2 }, { key: 'retry-never' });
      expect(await runner.drain()).toBe(2);
      const again = (await q.get('retry-default'))!;
      expect(again).toMatchObject({ status: 'queued', attempts: 1, maxAttempts: 5, lastError: 'flaky' });
      expect(again.runAt).toBeGreaterThan(clock); // after a backoff, not at once
      expect(await q.get('retry-never')).toMatchObject({
        status: 'dead',
        attempts: 1,
        maxAttempts: 1,
        lastError: 'publish outcome unknown',
      });
      expect(heard).toEqual([[{ n: 2 }, 'publish outcome unknown']]); // its onDead hook decides what to reconcile
    });

    it('aborts the handler when its job is cancelled, and releases jobs on shutdown without counting the attempt', async () => {
      const realQ = new JobQueue(tdb.db, kind); // real clock: the runner's timers are real
      await realQ.enqueue(echo, { n: 1 }, { key: 'cancel-1' });
      await realQ.enqueue(other, { s: 'long' }, { key: 'shutdown-1' });
      const reasons: Record<string, unknown> = {};
      const waitAbort = (signal: AbortSignal, name: string) =>
        new Promise<void>((_, reject) =>
          signal.addEventListener('abort', () => {
            reasons[name] = signal.reason;
            reject(new Error('aborted'));
          }),
        );
      const runner = runnerOf(
        realQ,
        {
          echo: (_p, { signal }) => waitAbort(signal, 'echo'),
          other: (_p, { signal }) => waitAbort(signal, 'other'),
        },
        { concurrency: 2, leaseMs: 3000, heartbeatMs: 100, pollMs: 50 },
      ).start();
      try {
        await vi.waitFor(() => expect(runner.active).toBe(2), { timeout: 5000 });
        await realQ.cancel('cancel-1');
        await vi.waitFor(() => expect(reasons.echo).toBe('lost'), { timeout: 5000 });
      } finally {
        await runner.stop();
      }
      expect(reasons.other).toBe('shutdown');
      expect(await realQ.get('shutdown-1')).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    });

    it.runIf(kind === 'postgres')(
      'two runners (separate connection pools) claiming concurrently never run a job twice',
      async () => {
        const N = 150;
        for (let i = 0; i < N; i++) await q.enqueue(echo, { n: i }, { key: `par-${i}` });
        const pools = [
          createDb({ databaseUrl: tdb.url!, sqliteFile: '' }).db,
          createDb({ databaseUrl: tdb.url!, sqliteFile: '' }).db,
        ];
        const runs = new Map<number, string[]>();
        const runners = pools.map((db, w) =>
          runnerOf(
            new JobQueue(db, 'postgres'),
            {
              echo: async (p) => {
                runs.set(p.n, [...(runs.get(p.n) ?? []), `w${w}`]);
                await new Promise((r) => setTimeout(r, Math.random() * 5));
              },
            },
            { workerId: `w${w}`, concurrency: 4, pollMs: 20 },
          ).start(),
        );
        try {
          await vi.waitFor(
            async () => {
              const left = await tdb.db
                .selectFrom('jobs')
                .select((eb) => eb.fn.countAll<number>().as('c'))
                .where('status', '!=', 'done')
                .executeTakeFirstOrThrow();
              expect(Number(left.c)).toBe(0);
            },
            { timeout: 30_000, interval: 100 },
          );
        } finally {
          await Promise.all(runners.map((r) => r.stop()));
          await Promise.all(pools.map((p) => p.destroy()));
        }
        expect(runs.size).toBe(N);
        expect([...runs.values()].filter((w) => w.length !== 1)).toEqual([]);
        const byWorker = [...runs.values()]
          .flat()
          .reduce<Record<string, number>>((acc, w) => ({ ...acc, [w]: (acc[w] ?? 0) + 1 }), {});
        expect(Object.keys(byWorker).sort()).toEqual(['w0', 'w1']); // both really took part
      },
    );
  });
}
