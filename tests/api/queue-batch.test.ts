import { z } from 'zod';
import type { KyselyPlugin } from 'kysely';
import { createDb, type DbKind } from '../../server/db/index';
import { JobQueue, JobRunner, defineJob, jobWorker, type JobHandler } from '../../server/jobs/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

/**
 * Issue 20's queue ceiling: a runner claims as many due jobs as it has free slots for in one statement (at most a
 * kind's own free slots), completes the jobs that finish together in one statement, and claims again as soon as a
 * job finishes. Every job still runs once, under its worker's lease.
 */
const echo = defineJob({ name: 'test.echo', payload: z.object({ n: z.number() }) });
const other = defineJob({ name: 'test.other', payload: z.object({ n: z.number() }) });
const NAMES = [echo.name, other.name];
const LEASE = 60_000;
const pgOk = await postgresAvailable();

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`batch claims and completions [${kind}]`, () => {
    let tdb: TestDb;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    let q: JobQueue;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
      q = new JobQueue(tdb.db, kind, () => clock);
    });
    afterAll(async () => {
      await tdb?.drop();
    });
    beforeEach(async () => {
      await tdb.db.deleteFrom('jobs').execute();
    });

    /** `n` jobs of `spec`, due one second apart from `from` (ms before now). */
    const queue = async (spec: typeof echo | typeof other, n: number, prefix: string, from = 60_000) => {
      for (let i = 0; i < n; i++)
        await q.enqueue(spec, { n: i }, { key: `${prefix}-${i}`, runAt: new Date(clock - from + i * 1000) });
    };
    const keysOf = (jobs: { key: string }[]) => jobs.map((j) => j.key);

    it('one claim takes the oldest due jobs, as many as asked, each leased to its worker', async () => {
      await queue(echo, 6, 'e');
      await q.enqueue(echo, { n: 99 }, { key: 'later', runAt: new Date(clock + 60_000) });
      const first = await q.claimMany('w1', { names: NAMES, max: 4 }, LEASE);
      expect(keysOf(first)).toEqual(['e-0', 'e-1', 'e-2', 'e-3']);
      for (const job of first) {
        expect(job).toMatchObject({ lockedBy: 'w1', attempts: 1 });
        expect(await q.get(job.id)).toMatchObject({ status: 'running', lockedBy: 'w1', leaseUntil: clock + LEASE });
      }
      const rest = await q.claimMany('w2', { names: NAMES, max: 10 }, LEASE);
      expect(keysOf(rest)).toEqual(['e-4', 'e-5']); // not the job due later, not one w1 holds
      expect(await q.claimMany('w3', { names: NAMES, max: 10 }, LEASE)).toEqual([]);
    });

    it("a claim takes no more of a kind than its free slots, and no more than the runner's in all", async () => {
      await queue(echo, 5, 'e', 60_000);
      await queue(other, 5, 'o', 30_000);
      const ask = { names: NAMES, max: 4, perKind: { [echo.name]: 1 } };
      const got = await q.claimMany('w1', ask, LEASE);
      expect(keysOf(got)).toEqual(['e-0', 'o-0', 'o-1', 'o-2']);
      const none = await q.claimMany(
        'w1',
        { names: NAMES, max: 3, perKind: { [echo.name]: 0, [other.name]: 1 } },
        LEASE,
      );
      expect(keysOf(none)).toEqual(['o-3']);
      // Each kind limited below the total: their picks together are still cut to the total, oldest first.
      const both = await q.claimMany(
        'w1',
        { names: NAMES, max: 3, perKind: { [echo.name]: 2, [other.name]: 2 } },
        LEASE,
      );
      expect(keysOf(both)).toEqual(['e-1', 'e-2', 'o-4']);
    });

    it('a job whose lease ran out after its last attempt goes dead on the claim, and the others are handed out', async () => {
      const once = defineJob({ name: 'test.echo', payload: z.object({ n: z.number() }), retry: { kind: 'never' } });
      await q.enqueue(once, { n: 0 }, { key: 'lost', runAt: new Date(clock - 120_000) });
      expect(keysOf(await q.claimMany('gone', { names: NAMES, max: 1 }, 1000))).toEqual(['lost']);
      await queue(echo, 2, 'e');
      clock += 2000;
      const dead: string[] = [];
      const got = await q.claimMany('w1', { names: NAMES, max: 5 }, LEASE, async (job) => {
        dead.push(job.key);
      });
      expect(keysOf(got)).toEqual(['e-0', 'e-1']);
      expect(dead).toEqual(['lost']);
      expect(await q.get('lost')).toMatchObject({ status: 'dead', lockedBy: null });
    });

    it('two workers claiming in batches at once never get the same job', async () => {
      const N = 120;
      for (let i = 0; i < N; i++) await q.enqueue(echo, { n: i }, { key: `p-${i}` });
      // On PostgreSQL each worker has its own pool, so the claims really overlap.
      const dbs =
        kind === 'postgres'
          ? [
              createDb({ databaseUrl: tdb.url!, sqliteFile: '' }).db,
              createDb({ databaseUrl: tdb.url!, sqliteFile: '' }).db,
            ]
          : [tdb.db, tdb.db];
      const taken = new Map<string, string[]>();
      try {
        await Promise.all(
          dbs.map(async (db, w) => {
            const mine = new JobQueue(db, kind, () => clock);
            for (;;) {
              const jobs = await mine.claimMany(`w${w}`, { names: NAMES, max: 7 }, LEASE);
              if (!jobs.length) return;
              for (const j of jobs) taken.set(j.key, [...(taken.get(j.key) ?? []), `w${w}`]);
            }
          }),
        );
      } finally {
        if (kind === 'postgres') await Promise.all(dbs.map((db) => db.destroy()));
      }
      expect(taken.size).toBe(N);
      expect([...taken.entries()].filter(([, by]) => by.length !== 1)).toEqual([]);
      const rows = await q.list('running', 1000);
      expect(rows).toHaveLength(N);
      expect(rows.every((r) => r.attempts === 1 && taken.get(r.key)?.[0] === r.lockedBy)).toBe(true);
    });

    it('a batch completion marks done only the jobs the worker still owns', async () => {
      await queue(echo, 3, 'e');
      const [a, b, c] = await q.claimMany('w1', { names: NAMES, max: 3 }, 1000);
      await q.cancel(b!.key); // cancelled by an operator meanwhile
      clock += 2000; // w1's leases ran out: the oldest, a, is taken over by w2; c is still w1's
      const [taken] = await q.claimMany('w2', { names: NAMES, max: 1 }, LEASE);
      expect(taken!.key).toBe(a!.key);
      const done = await q.completeMany('w1', [a!.id, b!.id, c!.id]);
      expect([...done]).toEqual([c!.id]);
      expect(await q.get(a!.id)).toMatchObject({ status: 'running', lockedBy: 'w2' });
      expect(await q.get(b!.key)).toBeUndefined();
      expect(await q.get(c!.id)).toMatchObject({ status: 'done' });
      expect(await q.completeMany('w1', [])).toEqual(new Set());
    });

    it('a runner runs no more of a kind than its limit, fills its free slots at once, and runs every job once', async () => {
      const realQ = new JobQueue(tdb.db, kind);
      const runs = new Map<string, number>();
      const busy: Record<string, number> = { [echo.name]: 0, [other.name]: 0 };
      const most: Record<string, number> = { [echo.name]: 0, [other.name]: 0 };
      let gate!: () => void;
      const open = new Promise<void>((r) => (gate = r));
      const hold: JobHandler<{ n: number }> = async (_p, { job }) => {
        runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
        busy[job.name]!++;
        most[job.name] = Math.max(most[job.name]!, busy[job.name]!);
        await open;
        await new Promise((r) => setImmediate(r));
        busy[job.name]!--;
      };
      for (let i = 0; i < 6; i++) await realQ.enqueue(echo, { n: i }, { key: `re-${i}` });
      for (let i = 0; i < 4; i++) await realQ.enqueue(other, { n: i }, { key: `ro-${i}` });
      const runner = new JobRunner({
        queue: realQ,
        catalogue: [echo, other],
        workers: [jobWorker(echo, hold), jobWorker(other, hold)],
        limits: { [echo.name]: 2, [other.name]: 1 },
        pollMs: 60_000, // only the start or a finished job makes it claim: a poll never comes in this test
      }).start();
      try {
        await vi.waitFor(() => expect(runner.active).toBe(3), { timeout: 5000 });
        expect(busy).toEqual({ [echo.name]: 2, [other.name]: 1 });
        gate();
        await vi.waitFor(async () => expect(await realQ.list('done', 100)).toHaveLength(10), { timeout: 10_000 });
      } finally {
        gate();
        await runner.stop();
      }
      expect(most).toEqual({ [echo.name]: 2, [other.name]: 1 });
      expect(runs.size).toBe(10);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
    });

    it('an idle runner does not spin: an empty queue is asked once per poll', async () => {
      let claims = 0;
      const counter: KyselyPlugin = {
        transformQuery: ({ node }) => {
          if (node.kind === 'UpdateQueryNode') claims++;
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const runner = new JobRunner({
        queue: new JobQueue(tdb.db.withPlugin(counter), kind),
        catalogue: [echo],
        workers: [jobWorker(echo, async () => {})],
        concurrency: 4,
        pollMs: 100,
      });
      const started = performance.now();
      runner.start();
      await new Promise((r) => setTimeout(r, 500));
      await runner.stop();
      const polls = (performance.now() - started) / 100;
      expect(claims).toBeGreaterThanOrEqual(1);
      expect(claims).toBeLessThanOrEqual(Math.ceil(polls) + 1); // one per 100 ms poll at most, never a loop of claims
    });
  });
}
