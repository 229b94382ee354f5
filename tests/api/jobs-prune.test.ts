// The queue stays small (issue 20 item 4): done jobs older than JOBS_KEEP_FINISHED and dead ones older than
// JOBS_KEEP_DEAD are removed in batches, each its own statement; queued and running jobs are never touched.
import type { DbKind } from '../../server/db/index';
import { JobQueue } from '../../server/jobs/index';
import { pruneJobs, schedulePrune } from '../../server/jobs/prune';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { fillJobs } from '../helpers/jobs-fill';

const pgOk = await postgresAvailable();
const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const KEEP = { finishedMs: 7 * DAY, deadMs: 30 * DAY };
const at = (ms: number) => new Date(ms).toISOString();

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`pruning finished jobs [${kind}]`, () => {
    let tdb: TestDb;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => {
      await tdb?.drop();
    });
    beforeEach(async () => {
      await tdb.db.deleteFrom('jobs').execute();
    });

    /** Jobs per status and whether they are old (past their keep time) or recent. */
    async function tally() {
      const rows = await tdb.db.selectFrom('jobs').select(['status', 'key']).execute();
      const out: Record<string, number> = {};
      for (const r of rows) {
        const group = `${r.status}:${r.key.split(':')[1]}`;
        out[group] = (out[group] ?? 0) + 1;
      }
      return out;
    }

    it('removes old done and dead jobs in batches and keeps everything else', async () => {
      const base = { runAt: NOW - 40 * DAY };
      // 2,000 rows 40 days old: 1,940 done, 20 dead, 20 queued, 20 running (every hundredth of each).
      await fillJobs(tdb.db, kind, { ...base, rows: 2000, mix: 'mixed', prefix: 'old', updatedAt: at(NOW - 40 * DAY) });
      // Done 8 days ago (past 7 days) but dead only 8 days ago (within 30 days).
      await fillJobs(tdb.db, kind, { ...base, rows: 300, mix: 'mixed', prefix: 'week', updatedAt: at(NOW - 8 * DAY) });
      await fillJobs(tdb.db, kind, { ...base, rows: 300, mix: 'done', prefix: 'new', updatedAt: at(NOW - DAY) });
      const queue = new JobQueue(tdb.db, kind, () => NOW);
      const batches: number[] = [];
      const counting = {
        prune: (...a: Parameters<JobQueue['prune']>) => queue.prune(...a).then((n) => (batches.push(n), n)),
      };
      expect(await pruneJobs(counting, KEEP, NOW, { batch: 500 })).toBe(1940 + 20 + 291);
      // Done: 2,231 in batches of 500 (the last one short ends it); dead: 20 in one.
      expect(batches).toEqual([500, 500, 500, 500, 231, 20]);
      expect(await tally()).toEqual({
        'queued:old': 20,
        'running:old': 20,
        'queued:week': 3,
        'running:week': 3,
        'dead:week': 3,
        'done:new': 300,
      });
      expect(await pruneJobs(queue, KEEP, NOW)).toBe(0);
    });

    it('stops a pass after its batch budget and when asked to, leaving the rest for the next pass', async () => {
      await fillJobs(tdb.db, kind, {
        rows: 1000,
        mix: 'done',
        prefix: 'old',
        runAt: NOW,
        updatedAt: at(NOW - 40 * DAY),
      });
      const queue = new JobQueue(tdb.db, kind, () => NOW);
      expect(await pruneJobs(queue, KEEP, NOW, { batch: 100, maxBatches: 3 })).toBe(300);
      expect(await pruneJobs(queue, KEEP, NOW, { batch: 100, stopped: () => true })).toBe(0);
      expect(await pruneJobs(queue, KEEP, NOW, { batch: 100 })).toBe(700);
    });

    it('a worker process prunes at start and its stop waits for the pass', async () => {
      await fillJobs(tdb.db, kind, {
        rows: 1200,
        mix: 'done',
        prefix: 'old',
        runAt: NOW,
        updatedAt: at(Date.now() - 40 * DAY),
      });
      const stop = schedulePrune(new JobQueue(tdb.db, kind), KEEP);
      await stop();
      // The pass started at once and stopped at a batch boundary (at least its first batch done) before stop
      // resolved; the next pass takes whatever it left.
      const left = Number(
        (
          await tdb.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect([700, 200, 0]).toContain(left);
      expect(await pruneJobs(new JobQueue(tdb.db, kind), KEEP, Date.now())).toBe(left);
    });
  });
}
