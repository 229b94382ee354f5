import { z } from 'zod';
import { JobRunner, defineJob, jobWorker, type DeadCause, type JobContext } from '../../server/jobs/index';
import { publishJob } from '../../server/publishing/publishing.jobs';
import { decodeMessage } from '../../src/contract/stored-message';
import { describeEachDb } from '../helpers/app';

/**
 * Issue 17: a job chain that re-queued itself at its own run_at wedged a SQLite server (the runner's claim loop
 * never yielded, every request timed out). Whatever a handler does, requests are answered and the chain ends.
 */
const payload = z.object({ n: z.number() });
const tight = defineJob({ name: 'test.tight', payload, retry: { kind: 'never' } });
const stall = defineJob({ name: 'test.stall', payload, retry: { kind: 'never' } });
const MAX_STALLS = 4;

describeEachDb(
  'a job chain that never stops re-queueing',
  (ctx) => {
    let token: { authorization: string };
    beforeAll(async () => {
      await ctx.createUser('loop', 'loop-pass');
      token = (await ctx.login('loop', 'loop-pass')).headers;
    });

    /** A runner in the API's process, on its queue and database, over the one test job kind. */
    const runnerOf = (
      chain: typeof tight | typeof stall,
      handle: (p: { n: number }, c: JobContext) => Promise<void>,
      onDead?: (p: { n: number }, e: string, cause?: DeadCause) => Promise<void>,
    ) =>
      new JobRunner({
        queue: ctx.root.queue,
        catalogue: [chain],
        workers: [jobWorker(chain, handle, onDead)],
        pollMs: 20,
      }).start();
    /**
     * One request, answered, then a turn of the event loop as a real client's next request would take (inject
     * itself runs on promises only, so back-to-back injects alone would never let the runner's timers fire).
     */
    const me = async () => {
      const { status } = await ctx.call({ method: 'GET', url: '/api/auth/me', token });
      await new Promise((r) => setImmediate(r));
      return status;
    };

    it('a chain whose every step is due at once does not starve requests', async () => {
      let steps = 0;
      let running = true;
      // Each step queues the next one millisecond after its own run_at: progress by the rule, and always due.
      const runner = runnerOf(tight, async (p, { job }) => {
        steps++;
        if (!running) return;
        const runAt = new Date(job.runAt + 1);
        await ctx.root.queue.enqueue(tight, { n: p.n + 1 }, { key: `tight:${p.n + 1}`, runAt, after: job });
      });
      try {
        // Dated long ago, so that each next step, a millisecond later, is due too.
        await ctx.root.queue.enqueue(tight, { n: 0 }, { key: 'tight:0', runAt: new Date(Date.now() - 3_600_000) });
        while (steps < 3) await new Promise((r) => setImmediate(r));
        // Requests, answered one after another, while the chain goes on between them (not after it).
        const until = steps + 5;
        do expect(await me()).toBe(200);
        while (steps < until);
      } finally {
        running = false;
        await runner.stop();
      }
    });

    it('a chain re-queueing at its own run_at ends dead with the reason; its hook hears why; requests are answered', async () => {
      let heard!: (v: [string, DeadCause | undefined]) => void;
      const dead = new Promise<[string, DeadCause | undefined]>((r) => (heard = r));
      const runner = runnerOf(
        stall,
        async (p, { job }) => {
          // The handler believes the work is not due yet and asks again for the same time (the wedge of issue 17).
          const runAt = new Date(job.runAt);
          await ctx.root.queue.enqueue(stall, { n: p.n + 1 }, { key: `stall:${p.n + 1}`, runAt, after: job });
        },
        async (_p, error, cause) => heard([error, cause]),
      );
      try {
        await ctx.root.queue.enqueue(stall, { n: 0 }, { key: 'stall:0' });
        let ended = false;
        void dead.then(() => (ended = true));
        while (!ended) expect(await me()).toBe(200);
        const [error, cause] = await dead;
        expect(cause).toBe('stalled');
        expect(decodeMessage(error)).toMatchObject({
          key: 'kadr.jobs.reasons.no_progress',
          params: { stalls: 4, kind: 'test.stall' },
        });
      } finally {
        await runner.stop();
      }
      const rows = await ctx.tdb.db
        .selectFrom('jobs')
        .select(['key', 'status', 'stalls', 'runAt'])
        .where('key', 'like', 'stall:%')
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.key, r.status, r.stalls])).toEqual([
        ['stall:0', 'done', 0],
        ['stall:1', 'done', 1],
        ['stall:2', 'done', 2],
        ['stall:3', 'done', 3],
        ['stall:4', 'dead', MAX_STALLS],
      ]);
      // Each stalled step waited longer than the one before.
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.runAt).toBeGreaterThan(rows[i - 1]!.runAt);
    });

    it('a stalled publish chain fails its row with the reason instead of reconciling again', async () => {
      const userId = await ctx.createUser('pub-stall', 'pub-stall-pass');
      const at = new Date().toISOString();
      const db = ctx.tdb.db;
      const pub = await db
        .insertInto('publications')
        .values({ userId, requestId: null, title: 'T', createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('publicationPlatforms').values({ publicationId: pub.id, platform: 'youtube' }).execute();
      const video = await db
        .insertInto('videos')
        .values({ userId, publicationId: pub.id, storageKey: 'videos/x.mp4', status: 'publication', createdAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await db
        .insertInto('videoPublishes')
        .values({ videoId: video.id, platform: 'youtube', dueAt: at, videoVersion: 1, createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const onDead = ctx.root.jobs.workers.find((w) => w.job === publishJob)!.onDead!;
      await onDead({ publishId: row.id, step: 3 }, 'no progress: 5 successive re-queues', 'stalled');
      const after = await db
        .selectFrom('videoPublishes')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({ state: 'failed', errorKind: 'retry-later' });
      expect(decodeMessage(after.error!)?.key).toBe('kadr.publish.stalled');
      // Nothing queued again for it: the chain ends here.
      const jobs = await db.selectFrom('jobs').select('payload').where('name', '=', publishJob.name).execute();
      expect(jobs.filter((j) => (JSON.parse(j.payload) as { publishId: number }).publishId === row.id)).toEqual([]);
      const v = await db
        .selectFrom('videos')
        .select(['status', 'error'])
        .where('id', '=', video.id)
        .executeTakeFirstOrThrow();
      expect(v.status).toBe('error');
    });
  },
  { jobMaxStalls: MAX_STALLS, jobStallBackoffMs: 2 },
);
