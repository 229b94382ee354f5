import { createDb, type DbKind } from '../../server/db/index';
import { JobQueue, JobRunner, PermanentJobError } from '../../server/jobs/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

type TestJobs = { 'test.echo': { n: number }; 'test.other': { s: string } };
const NAMES = ['test.echo', 'test.other'] as const;
const pgOk = await postgresAvailable();

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`durable job queue [${kind}]`, () => {
    let tdb: TestDb;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => clock;
    let q: JobQueue<TestJobs>;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
      q = new JobQueue<TestJobs>(tdb.db, kind, now);
    });
    afterAll(async () => { await tdb?.drop(); });
    beforeEach(async () => { await tdb.db.deleteFrom('jobs').execute(); });

    it('enqueues once per key', async () => {
      expect(await q.enqueue('test.echo', { n: 1 }, { key: 'k1' })).toBe(true);
      expect(await q.enqueue('test.echo', { n: 2 }, { key: 'k1' })).toBe(false);
      const rows = await q.list();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.payload)).toEqual({ n: 1 });
      expect(rows[0]!.status).toBe('queued');
    });

    it('refuses to start a runner when a job name has no handler', () => {
      expect(() => new JobRunner<TestJobs>({ queue: q as any, names: NAMES, handlers: { 'test.echo': async () => {} } }))
        .toThrow('no handler for job "test.other"');
    });

    it('runs a job to done with its typed payload', async () => {
      await q.enqueue('test.echo', { n: 7 }, { key: 'run-1' });
      const seen: number[] = [];
      const runner = new JobRunner<TestJobs>({ queue: q as any, names: NAMES, handlers: { 'test.echo': async (p) => { seen.push(p.n); }, 'test.other': async () => {} } });
      expect(await runner.drain()).toBe(1);
      expect(seen).toEqual([7]);
      expect((await q.get('run-1'))!.status).toBe('done');
    });

    it('retries with exponential backoff and ends dead with the last error', async () => {
      await q.enqueue('test.echo', { n: 1 }, { key: 'fail-1', maxAttempts: 3 });
      let calls = 0;
      const delays: number[] = [];
      const runner = new JobRunner<TestJobs>({
        queue: q as any, names: NAMES,
        handlers: { 'test.echo': async () => { calls++; throw new Error(`boom ${calls}`); }, 'test.other': async () => {} },
        backoff: (attempt) => { const d = 1000 * 2 ** (attempt - 1); delays.push(d); return d; },
      });
      expect(await runner.drain()).toBe(1);
      let row = (await q.get('fail-1'))!;
      expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'boom 1' });
      expect(Date.parse(row.runAt) - clock).toBe(1000);
      expect(await runner.drain()).toBe(0); // not due yet
      clock += 1000;
      expect(await runner.drain()).toBe(1);
      row = (await q.get('fail-1'))!;
      expect(row).toMatchObject({ status: 'queued', attempts: 2, lastError: 'boom 2' });
      expect(Date.parse(row.runAt) - clock).toBe(2000);
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
      await q.enqueue('test.other', { s: 'x' }, { key: 'perm-1' });
      const runner = new JobRunner<TestJobs>({ queue: q as any, names: NAMES, handlers: { 'test.echo': async () => {}, 'test.other': async () => { throw new PermanentJobError('bad input'); } } });
      await runner.drain();
      expect(await q.get('perm-1')).toMatchObject({ status: 'dead', attempts: 1, lastError: 'bad input' });
    });

    it('recovers a crashed worker’s job after its lease expires; the old worker can no longer finish it', async () => {
      await q.enqueue('test.echo', { n: 1 }, { key: 'lease-1' });
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
      await q.enqueue('test.echo', { n: 1 }, { key: 'lease-dead', maxAttempts: 1 });
      await q.claim('worker-a', NAMES, 1000);
      clock += 2000;
      const dead: Array<[unknown, string]> = [];
      expect(await q.claim('worker-b', NAMES, 1000, async (job, error) => { dead.push([job.payload, error]); })).toBeUndefined();
      expect(await q.get('lease-dead')).toMatchObject({ status: 'dead', lastError: 'worker lost (lease expired) on the last attempt' });
      // No handler runs again, so the caller hears of it (the render worker fails the request then).
      expect(dead).toEqual([[{ n: 1 }, 'worker lost (lease expired) on the last attempt']]);
    });

    it('aborts the handler when its job is cancelled, and releases jobs on shutdown without counting the attempt', async () => {
      const realQ = new JobQueue<TestJobs>(tdb.db, kind); // real clock: the runner's timers are real
      await realQ.enqueue('test.echo', { n: 1 }, { key: 'cancel-1' });
      await realQ.enqueue('test.other', { s: 'long' }, { key: 'shutdown-1' });
      const reasons: Record<string, unknown> = {};
      const waitAbort = (signal: AbortSignal, name: string) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => { reasons[name] = signal.reason; reject(new Error('aborted')); }));
      const runner = new JobRunner<TestJobs>({
        queue: realQ as any, names: NAMES, concurrency: 2, leaseMs: 3000, heartbeatMs: 100, pollMs: 50,
        handlers: { 'test.echo': (_p, { signal }) => waitAbort(signal, 'echo'), 'test.other': (_p, { signal }) => waitAbort(signal, 'other') },
      }).start();
      await vi.waitFor(() => expect(runner.active).toBe(2), { timeout: 5000 });
      await realQ.cancel('cancel-1');
      await vi.waitFor(() => expect(reasons.echo).toBe('lost'), { timeout: 5000 });
      await runner.stop();
      expect(reasons.other).toBe('shutdown');
      expect(await realQ.get('shutdown-1')).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    });

    it.runIf(kind === 'postgres')('two runners (separate connection pools) claiming concurrently never run a job twice', async () => {
      const N = 150;
      for (let i = 0; i < N; i++) await q.enqueue('test.echo', { n: i }, { key: `par-${i}` });
      const pools = [createDb({ databaseUrl: tdb.url!, sqliteFile: '' }).db, createDb({ databaseUrl: tdb.url!, sqliteFile: '' }).db];
      const runs = new Map<number, string[]>();
      const runners = pools.map((db, w) => new JobRunner<TestJobs>({
        queue: new JobQueue<TestJobs>(db, 'postgres') as any, names: NAMES, workerId: `w${w}`, concurrency: 4, pollMs: 20,
        handlers: {
          'test.echo': async (p) => {
            runs.set(p.n, [...(runs.get(p.n) ?? []), `w${w}`]);
            await new Promise((r) => setTimeout(r, Math.random() * 5));
          },
          'test.other': async () => {},
        },
      }).start());
      await vi.waitFor(async () => {
        const left = await tdb.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('c')).where('status', '!=', 'done').executeTakeFirstOrThrow();
        expect(Number(left.c)).toBe(0);
      }, { timeout: 30_000, interval: 100 });
      await Promise.all(runners.map((r) => r.stop()));
      await Promise.all(pools.map((p) => p.destroy()));
      expect(runs.size).toBe(N);
      expect([...runs.values()].filter((w) => w.length !== 1)).toEqual([]);
      const byWorker = [...runs.values()].flat().reduce<Record<string, number>>((acc, w) => ({ ...acc, [w]: (acc[w] ?? 0) + 1 }), {});
      expect(Object.keys(byWorker).sort()).toEqual(['w0', 'w1']); // both really took part
    });
  });
}
