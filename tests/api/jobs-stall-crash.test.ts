import { z } from 'zod';
import type { DbKind } from '../../server/db/index';
import {
  JobQueue,
  JobRunner,
  defineJob,
  jobWorker,
  type ClaimedJob,
  type DeadCause,
  type JobContext,
  type RetryPolicy,
} from '../../server/jobs/index';
import type { Transaction } from 'kysely';
import type { Database } from '../../server/db/types';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { decodeMessage } from '../../src/contract/stored-message';

/**
 * The stall rule's dead successor reaches its kind's onDead hook from the database, not from the process that
 * enqueued it: a worker that dies between queueing it and telling the hook loses nothing (its job dies or runs
 * again, and the hook hears 'stalled' then), and a successor whose transaction rolled back is never told of.
 */
const payload = z.object({ n: z.number() });
const LEASE_MS = 100;
const START = Date.parse('2030-01-01T00:00:00Z');
const pgOk = await postgresAvailable();

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`a stalled successor's hook [${kind}]`, () => {
    let tdb: TestDb;
    let clock = START;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => tdb?.drop());
    beforeEach(async () => {
      await tdb.db.deleteFrom('jobs').execute();
      clock = START;
    });

    /** One stall and the successor is dead: every re-queue at the job's own run_at ends the chain. */
    const queue = () => new JobQueue(tdb.db, kind, () => clock, { max: 1, backoff: () => 10 });

    /** A chain kind whose handler re-queues itself at its own run_at (no progress); its hook records what it heard. */
    const chainOf = (q: JobQueue, retry: RetryPolicy, inRolledBackTransaction = false) => {
      const spec = defineJob({ name: `test.crash.${retry.kind}`, payload, retry });
      const heard: [number, DeadCause | undefined, string][] = [];
      const requeue = (n: number, job: ClaimedJob, trx?: Transaction<Database>) =>
        q.enqueue(spec, { n: n + 1 }, { key: `c:${n + 1}`, runAt: new Date(job.runAt), after: job }, trx);
      const handle = async (p: { n: number }, { job }: JobContext) => {
        if (!inRolledBackTransaction) return void (await requeue(p.n, job));
        const rollback = tdb.db.transaction().execute(async (trx) => {
          await requeue(p.n, job, trx);
          throw new Error('rolled back');
        });
        await expect(rollback).rejects.toThrow('rolled back');
      };
      const worker = jobWorker(spec, handle, async (p, error, cause) => void heard.push([p.n, cause, error]));
      const runner = new JobRunner({ queue: q, catalogue: [spec], workers: [worker], leaseMs: LEASE_MS });
      return { spec, heard, requeue, runner };
    };

    /** The first step claimed by a worker that queues its successor and then dies (its hook never runs). */
    const crashAfterEnqueue = async (q: JobQueue, chain: ReturnType<typeof chainOf>) => {
      await q.enqueue(chain.spec, { n: 0 }, { key: 'c:0' });
      const job = (await q.claim('crashed', [chain.spec.name], LEASE_MS))!;
      expect(await chain.requeue(0, job)).toBe(true);
      expect(await q.get('c:1')).toMatchObject({ status: 'dead', stalls: 1 });
      clock += LEASE_MS + 1;
    };

    it('a job that dies with its worker: the stalled successor is told first, then the job itself', async () => {
      const q = queue();
      const chain = chainOf(q, { kind: 'never' });
      await crashAfterEnqueue(q, chain);
      await chain.runner.drain();
      expect(chain.heard.map(([n, cause]) => [n, cause])).toEqual([
        [1, 'stalled'],
        [0, 'failed'],
      ]);
      expect(decodeMessage(chain.heard[0]![2])).toMatchObject({
        key: 'kadr.jobs.reasons.no_progress',
        params: { stalls: 1, kind: 'test.crash.never' },
      });
      expect(await q.get('c:0')).toMatchObject({ status: 'dead' });
      expect(await q.get('c:1')).toMatchObject({ status: 'dead' });
    });

    it('a job that runs again after its worker died: its re-queue is a no-op and the stalled successor is told', async () => {
      const q = queue();
      const chain = chainOf(q, { kind: 'retry', maxAttempts: 3, backoff: () => 0 });
      await crashAfterEnqueue(q, chain);
      await chain.runner.drain();
      expect(chain.heard.map(([n, cause]) => [n, cause])).toEqual([[1, 'stalled']]);
      expect(await q.get('c:0')).toMatchObject({ status: 'done', attempts: 2 });
      const rows = await tdb.db.selectFrom('jobs').select('key').execute();
      expect(rows.map((r) => r.key).sort()).toEqual(['c:0', 'c:1']);
    });

    it('a stalled successor whose transaction rolled back is not told of', async () => {
      const q = queue();
      const chain = chainOf(q, { kind: 'never' }, true);
      await q.enqueue(chain.spec, { n: 0 }, { key: 'c:0' });
      await chain.runner.drain();
      expect(await q.get('c:0')).toMatchObject({ status: 'done' });
      expect(await q.get('c:1')).toBeUndefined();
      expect(chain.heard).toEqual([]);
    });
  });
}
