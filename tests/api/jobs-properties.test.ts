import fc from 'fast-check';
import { z } from 'zod';
import type { DbKind } from '../../server/db/index';
import { JobQueue, defineJob, type StoredJob } from '../../server/jobs/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { decodeMessage } from '../../src/contract/stored-message';

/**
 * The queue's rules as properties, over random sequences of enqueue / claim / complete / fail / re-queue and a
 * clock that only the test moves (so leases expire when the sequence says). A model tracks who holds which job.
 */
const job = defineJob({
  name: 'test.prop',
  payload: z.object({ n: z.number() }),
  retry: { kind: 'retry', maxAttempts: 3, backoff: () => 50 },
});
const NAMES = [job.name];
const LEASE_MS = 100;
const FAIL_BACKOFF = () => 50;
/** Deterministic, growing: the stall rule's delays. */
const STALL_BACKOFF = (n: number) => 10 * 2 ** (n - 1);
const START = Date.parse('2030-01-01T00:00:00Z');
const WORKERS = ['w0', 'w1', 'w2'];
const pgOk = await postgresAvailable();

type Mode = 'same' | 'earlier' | 'later' | 'mark' | 'sameMark';
type Op =
  | { t: 'enqueue'; key: number; delay: number }
  | { t: 'advance'; ms: number }
  | { t: 'claim'; w: number }
  | { t: 'race' }
  | { t: 'complete'; w: number; pick: number }
  | { t: 'fail'; w: number; pick: number }
  | { t: 'requeue'; w: number; pick: number; mode: Mode };

const worker = fc.nat(WORKERS.length - 1);
const mode = fc.constantFrom<Mode>('same', 'earlier', 'later', 'mark', 'sameMark');
const delay = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('enqueue' as const), key: fc.nat(6), delay }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 150 }) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('claim' as const), w: worker }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('race' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('complete' as const), w: worker, pick: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('fail' as const), w: worker, pick: fc.nat(9) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('requeue' as const), w: worker, pick: fc.nat(9), mode }) },
);

/** The successor's run_at and mark a re-queue of `pred` asks for, by mode. */
function ask(pred: StoredJob, m: Mode, clock: number): { runAt: number; progress?: string } {
  const mark = pred.progressMark ?? 'm0';
  switch (m) {
    case 'same':
      return { runAt: pred.runAt };
    case 'sameMark':
      return { runAt: pred.runAt, progress: mark };
    case 'earlier':
      return { runAt: pred.runAt - 1000, progress: mark };
    case 'later':
      return { runAt: Math.max(clock, pred.runAt) + 1 };
    case 'mark':
      return { runAt: pred.runAt, progress: `${mark}+` };
  }
}

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`job queue properties [${kind}]`, () => {
    let tdb: TestDb;
    let clock = START;
    const runs = kind === 'postgres' ? 30 : 50;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => tdb?.drop());

    const queueOf = (max: number) => new JobQueue(tdb.db, kind, () => clock, { max, backoff: STALL_BACKOFF });
    const row = async (id: number) =>
      tdb.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('claims only due jobs, never one held by another live lease, loses nothing, and bounds no-progress chains', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { minLength: 10, maxLength: 40 }),
          fc.integer({ min: 1, max: 5 }),
          async (ops, maxStalls) => {
            await tdb.db.deleteFrom('jobs').execute();
            clock = START;
            const q = queueOf(maxStalls);
            const keys = new Set<string>();
            /** Who the database says holds a running job, and until when (as the model follows it). */
            const held = new Map<number, { worker: string; leaseUntil: number }>();
            /** Jobs each worker has claimed and not yet finished (some may have been taken over since). */
            const mine = new Map<string, StoredJob[]>(WORKERS.map((w) => [w, []]));
            let successor = 0;

            const claimed = (w: string, j: StoredJob | undefined, before: Map<number, { leaseUntil: number }>) => {
              if (!j) return;
              const prior = before.get(j.id);
              // A job held by a lease that has not expired is never handed to anyone.
              if (prior) expect(prior.leaseUntil).toBeLessThan(clock);
              // A queued job is handed out only once due.
              else expect(j.runAt).toBeLessThanOrEqual(clock);
              held.set(j.id, { worker: w, leaseUntil: clock + LEASE_MS });
              mine.get(w)!.push(j);
            };
            /** A lease that ran out on the job's last attempt: the next claim stores it dead instead. */
            const settle = async () => {
              for (const [id, h] of held) {
                if (h.leaseUntil >= clock) continue;
                const r = await row(id);
                if (r.status === 'running') continue;
                expect(r).toMatchObject({ status: 'dead', lockedBy: null });
                expect(r.attempts).toBeGreaterThan(r.maxAttempts);
                held.delete(id);
              }
            };
            const take = (w: string, pick: number) => {
              const list = mine.get(w)!;
              if (!list.length) return undefined;
              return list.splice(pick % list.length, 1)[0]!;
            };

            for (const o of ops) {
              switch (o.t) {
                case 'enqueue': {
                  const key = `k${o.key}`;
                  const inserted = await q.enqueue(job, { n: o.key }, { key, runAt: new Date(clock + o.delay) });
                  expect(inserted).toBe(!keys.has(key)); // once per key
                  keys.add(key);
                  break;
                }
                case 'advance':
                  clock += o.ms;
                  break;
                case 'claim': {
                  const before = new Map(held);
                  claimed(WORKERS[o.w]!, await q.claim(WORKERS[o.w]!, NAMES, LEASE_MS), before);
                  await settle();
                  break;
                }
                case 'race': {
                  // Every worker at once (on PostgreSQL over separate pooled connections): no job twice.
                  const before = new Map(held);
                  const got = await Promise.all(WORKERS.map((w) => q.claim(w, NAMES, LEASE_MS)));
                  const ids = got.filter((j) => j).map((j) => j!.id);
                  expect(new Set(ids).size).toBe(ids.length);
                  got.forEach((j, i) => claimed(WORKERS[i]!, j, before));
                  await settle();
                  break;
                }
                case 'complete':
                case 'fail': {
                  const w = WORKERS[o.w]!;
                  const j = take(w, o.pick);
                  if (!j) break;
                  const owner = held.get(j.id)?.worker === w;
                  if (o.t === 'complete') expect(await q.complete(j)).toBe(owner);
                  else {
                    const status = await q.fail(j, 'boom', FAIL_BACKOFF);
                    expect(status !== undefined).toBe(owner);
                    if (status === 'queued') expect((await row(j.id)).runAt).toBe(clock + 50);
                  }
                  if (owner) held.delete(j.id);
                  break;
                }
                case 'requeue': {
                  // The handler queues its own next look, then returns (and its job completes).
                  const w = WORKERS[o.w]!;
                  const pred = take(w, o.pick);
                  if (!pred || held.get(pred.id)?.worker !== w) break;
                  const a = ask(pred, o.mode, clock);
                  const key = `s${successor++}`;
                  expect(
                    await q.enqueue(
                      job,
                      { n: -1 },
                      { key, runAt: new Date(a.runAt), after: pred, progress: a.progress },
                    ),
                  ).toBe(true);
                  keys.add(key);
                  const next = await tdb.db
                    .selectFrom('jobs')
                    .selectAll()
                    .where('key', '=', key)
                    .executeTakeFirstOrThrow();
                  const progressed =
                    a.runAt > pred.runAt || (a.progress !== undefined && a.progress !== pred.progressMark);
                  if (progressed) {
                    expect(next).toMatchObject({ status: 'queued', stalls: 0, runAt: a.runAt });
                  } else {
                    // No progress: counted, and pushed strictly past its predecessor by the growing delay; dead
                    // with the reason once the count reaches the limit (its kind's onDead hook is told).
                    const dead = pred.stalls + 1 >= maxStalls;
                    expect(next).toMatchObject({ status: dead ? 'dead' : 'queued', stalls: pred.stalls + 1 });
                    expect(next.runAt).toBe(Math.max(pred.runAt, a.runAt, clock) + STALL_BACKOFF(pred.stalls + 1));
                    expect(next.runAt).toBeGreaterThan(pred.runAt);
                    if (dead) {
                      expect(decodeMessage(next.lastError!)).toEqual({
                        key: 'kadr.jobs.reasons.no_progress',
                        params: {
                          stalls: pred.stalls + 1,
                          kind: 'test.prop',
                          runAt: expect.any(String),
                          after: pred.id,
                        },
                      });
                      expect((await q.stalledSuccessors(pred)).map((d) => d.key)).toEqual([key]);
                    }
                  }
                  expect(await q.complete(pred)).toBe(true);
                  held.delete(pred.id);
                  break;
                }
              }
            }

            // Nothing is lost: every key is one row, and once time has passed every live job is claimed and ends.
            const rows = await tdb.db.selectFrom('jobs').select(['key', 'status']).execute();
            expect(rows.map((r) => r.key).sort()).toEqual([...keys].sort());
            clock += 10 ** 9;
            for (let guard = 0; guard < 500; guard++) {
              const j = await q.claim('sweeper', NAMES, LEASE_MS);
              if (!j) break;
              expect(await q.complete(j)).toBe(true);
            }
            const left = await tdb.db
              .selectFrom('jobs')
              .select('status')
              .where('status', 'in', ['queued', 'running'])
              .execute();
            expect(left).toEqual([]);
          },
        ),
        { numRuns: runs },
      );
    });

    it('a chain goes dead within JOB_MAX_STALLS re-queues without progress; its run_at strictly grows; progress resets the count', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 6 }),
          fc.array(fc.constantFrom<Mode>('same', 'earlier', 'sameMark', 'later', 'mark'), { maxLength: 20 }),
          async (maxStalls, steps) => {
            await tdb.db.deleteFrom('jobs').execute();
            clock = START;
            const q = queueOf(maxStalls);
            await q.enqueue(job, { n: 0 }, { key: 'c0' });
            // After the scripted steps, the handler keeps re-queueing at its own run_at (the hot loop).
            const script = [...steps, ...Array<Mode>(maxStalls).fill('same')];
            let inARow = 0;
            let previousRunAt = -Infinity;
            let ended = false;
            for (const [i, m] of script.entries()) {
              clock = Math.max(clock, (await q.get(`c${i}`))!.runAt);
              const pred = (await q.claim('w', NAMES, LEASE_MS))!;
              expect(pred.key).toBe(`c${i}`);
              const a = ask(pred, m, clock);
              await q.enqueue(
                job,
                { n: i + 1 },
                { key: `c${i + 1}`, runAt: new Date(a.runAt), after: pred, progress: a.progress },
              );
              await q.complete(pred);
              const next = (await q.get(`c${i + 1}`))!;
              const progressed = a.runAt > pred.runAt || (a.progress !== undefined && a.progress !== pred.progressMark);
              inARow = progressed ? 0 : inARow + 1;
              expect(next.stalls).toBe(inARow);
              if (!progressed) {
                expect(next.runAt).toBeGreaterThan(pred.runAt);
                expect(next.runAt).toBeGreaterThan(previousRunAt);
              }
              previousRunAt = next.runAt;
              if (inARow >= maxStalls) {
                expect(next.status).toBe('dead');
                ended = true;
                break;
              }
              expect(next.status).toBe('queued');
            }
            // The trailing hot loop always ends it, within maxStalls re-queues of its start.
            expect(ended).toBe(true);
            expect(await q.claim('w', NAMES, LEASE_MS)).toBeUndefined();
          },
        ),
        { numRuns: runs },
      );
    });
  });
}
