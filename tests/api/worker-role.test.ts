// A worker process's runner (PROCESS_ROLE=worker): it takes only the kinds WORKER_KINDS names, never more of a
// kind at once than WORKER_CONCURRENCY allows, and an unknown kind stops the start naming the variable.
import { z } from 'zod';
import type { DbKind } from '../../server/db/index';
import { JobQueue, JobRunner, defineJob, jobWorker } from '../../server/jobs/index';
import { renderJob } from '../../server/videos/videos.jobs';
import { keepAliveJob } from '../../server/accounts/accounts.jobs';
import { startWorkers, workerPlan } from '../../server/workers';
import { describeEachDb } from '../helpers/app';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();
const wide = defineJob({ name: 'test.wide', payload: z.object({ n: z.number() }) });
const narrow = defineJob({ name: 'test.narrow', payload: z.object({ n: z.number() }) });
const elsewhere = defineJob({ name: 'test.elsewhere', payload: z.object({ n: z.number() }) });

/** Resolves once `check` holds, looking every 20 ms (the runner works in the background meanwhile). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`a runner with per-kind limits [${kind}]`, () => {
    let tdb: TestDb;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => {
      await tdb?.drop();
    });

    it('runs at most each kind’s limit at once and never claims a kind it was not given', async () => {
      const queue = new JobQueue(tdb.db, kind);
      for (let n = 0; n < 6; n++) {
        await queue.enqueue(wide, { n }, { key: `wide-${n}` });
        await queue.enqueue(narrow, { n }, { key: `narrow-${n}` });
        await queue.enqueue(elsewhere, { n }, { key: `elsewhere-${n}` });
      }
      const running: Record<string, number> = { [wide.name]: 0, [narrow.name]: 0 };
      const most: Record<string, number> = { [wide.name]: 0, [narrow.name]: 0 };
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const hold = (name: string) => async () => {
        running[name]!++;
        most[name] = Math.max(most[name]!, running[name]!);
        await gate;
        running[name]!--;
      };
      const runner = new JobRunner({
        queue,
        catalogue: [wide, narrow],
        workers: [jobWorker(wide, hold(wide.name)), jobWorker(narrow, hold(narrow.name))],
        limits: { [wide.name]: 3, [narrow.name]: 1 },
        pollMs: 20,
      }).start();
      try {
        // Both kinds at their limits, and the rest still waiting for a slot.
        await until(async () => running[wide.name] === 3 && running[narrow.name] === 1);
        const status = async (name: string) =>
          (await queue.list(undefined, 100)).filter((j) => j.name === name).map((j) => j.status);
        expect((await status(wide.name)).filter((s) => s === 'running')).toHaveLength(3);
        expect((await status(narrow.name)).filter((s) => s === 'running')).toHaveLength(1);
        open();
        await until(async () => (await status(wide.name)).concat(await status(narrow.name)).every((s) => s === 'done'));
        expect(most).toEqual({ [wide.name]: 3, [narrow.name]: 1 });
        expect(await status(elsewhere.name)).toEqual(Array(6).fill('queued'));
      } finally {
        open();
        await runner.stop();
      }
    });
  });
}

describeEachDb(
  'a worker process’s runner from its configuration',
  (ctx) => {
    it('plans only WORKER_KINDS with WORKER_CONCURRENCY over the defaults', async () => {
      expect(workerPlan(ctx.root)).toEqual({ kinds: [keepAliveJob.name], limits: { [keepAliveJob.name]: 2 } });
      await ctx.root.queue.enqueue(renderJob, { requestId: 1 }, { key: 'render-elsewhere' });
      const workers = await startWorkers(ctx.root, { pollMs: 20 });
      try {
        // The keep-alive job its timer enqueued at start is run here; the render is left to another process.
        await until(async () => (await ctx.root.queue.list('done')).some((j) => j.name === keepAliveJob.name));
        expect(await workers.runner.drain()).toBe(0);
        expect(await ctx.root.queue.get('render-elsewhere')).toMatchObject({ status: 'queued', attempts: 0 });
      } finally {
        await workers.stop();
      }
    });

    it('refuses a kind the catalogue does not know, naming the variable', () => {
      const root = { ...ctx.root, config: { ...ctx.root.config, workerKinds: ['video.rendr'] } };
      expect(() => workerPlan(root)).toThrow(
        /^Invalid configuration:\n {2}WORKER_KINDS: unknown job kind "video\.rendr"/,
      );
    });
  },
  { role: 'worker', healthPort: 9, workerKinds: [keepAliveJob.name], workerConcurrency: { [keepAliveJob.name]: 2 } },
);
