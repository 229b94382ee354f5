import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PermanentJobError, type Backoff, type ClaimedJob, type DeadCause, type JobSpec, type JobWorker } from './job';
import type { ClaimAsk, JobQueue, StalledJob, StoredJob } from './queue';
import { Batches } from './batches';
import { JM } from '../../src/contract/jobs';
import { encodeMessage } from '../../src/contract/stored-message';

export type RunnerOptions = {
  queue: JobQueue;
  /** The job kinds this runner claims: it refuses to start unless each has a worker. */
  catalogue: readonly JobSpec<string, unknown>[];
  workers: readonly JobWorker[];
  workerId?: string;
  /** Jobs run at once by this runner (default 1, or the sum of `limits`). */
  concurrency?: number;
  /** Jobs of a kind run at once (WORKER_CONCURRENCY); a kind not named is bounded by `concurrency` only. */
  limits?: Readonly<Record<string, number>>;
  leaseMs?: number;
  /** Lease renewal period (default a third of the lease). */
  heartbeatMs?: number;
  pollMs?: number;
  /** Replaces every retry policy's backoff (tests run retries at once). */
  backoff?: Backoff;
  log?: FastifyBaseLogger;
};

type Decoded = { ok: true; payload: unknown } | { ok: false; error: string };

/**
 * Runs jobs from the queue: claims as many due jobs as it has free slots for (`concurrency` in all, a kind's
 * `limits`) in one statement, and again as soon as a job finishes; renews each lease while its handler runs,
 * completes it (the jobs that finish together in one statement), or records the failure as the job's retry
 * policy says (again after a backoff, or dead). A stored payload that does not match its job's schema goes dead
 * with the reason, without running anything. A heartbeat that finds the job gone or owned by someone else aborts the handler. `stop()` aborts running
 * handlers and gives their jobs back without counting the attempt, so a restart resumes them at once.
 */
export class JobRunner {
  readonly workerId: string;
  private running = new Map<number, { name: string; ac: AbortController; done: Promise<void> }>();
  private stopped = true;
  private wake?: () => void;
  /** A job finished (or stop was asked) since the poll loop last looked: it claims again instead of sleeping. */
  private woken = false;
  private loop?: Promise<void>;
  private readonly workers = new Map<string, JobWorker>();
  private readonly names: string[];
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly concurrency: number;
  /** Finished jobs, marked done together (true: still this runner's). */
  private readonly completions: Batches<number, boolean>;
  /** Jobs whose handlers have finished, their stalled successors looked up together. */
  private readonly stalledLookups: Batches<Pick<StoredJob, 'id' | 'runAt'>, StalledJob[]>;

  constructor(private readonly opts: RunnerOptions) {
    for (const w of opts.workers) this.workers.set(w.job.name, w);
    this.names = opts.catalogue.map((j) => j.name);
    const missing = this.names.filter((n) => typeof this.workers.get(n)?.handle !== 'function');
    if (missing.length)
      throw new Error(`Job runner cannot start: no handler for job ${missing.map((m) => `"${m}"`).join(', ')}`);
    const limits = opts.limits ? this.names.map((n) => opts.limits![n] ?? Infinity) : [];
    this.concurrency = opts.concurrency ?? (limits.length ? limits.reduce((a, b) => a + b, 0) : 1);
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.heartbeatMs = opts.heartbeatMs ?? Math.max(200, Math.floor(this.leaseMs / 3));
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.completions = new Batches(async (ids) => {
      const done = await opts.queue.completeMany(this.workerId, ids);
      return (id) => done.has(id);
    });
    this.stalledLookups = new Batches(async (jobs) => {
      const found = await opts.queue.stalledSuccessorsOf(jobs);
      return (job) => found.get(job.id) ?? [];
    });
  }

  get active(): number {
    return this.running.size;
  }

  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.loop = this.poll();
    return this;
  }

  /** Stops claiming; aborts running handlers and releases their jobs; resolves when all have settled. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.nudge();
    for (const { ac } of this.running.values()) ac.abort('shutdown');
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    await this.loop;
  }

  /** Claims and runs due jobs until there is none (tests drive the queue with this instead of start()). */
  async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      await yieldToEventLoop();
      const [job] = await this.claim({ names: this.names, max: 1 });
      if (!job) return n;
      n++;
      await this.execute(job);
    }
  }

  /** The stored JSON checked against the job's schema; the reason is readable when it does not match. */
  private decode(job: StoredJob): Decoded {
    let raw: unknown;
    try {
      raw = JSON.parse(job.payload);
    } catch {
      return { ok: false, error: encodeMessage(JM.reasonPayloadNotJson, { kind: job.name }) };
    }
    const r = this.workers.get(job.name)!.job.payload.safeParse(raw);
    if (r.success) return { ok: true, payload: r.data };
    const issues = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`);
    return {
      ok: false,
      error: encodeMessage(JM.reasonPayloadInvalid, { kind: job.name, issues: issues.join('; ').slice(0, 1500) }),
    };
  }

  /** Tells the job's onDead hook (when the payload can be read); a failing hook is logged, never thrown. */
  private async dead(job: StoredJob, error: string, payload?: unknown, cause: DeadCause = 'failed') {
    const hook = this.workers.get(job.name)?.onDead;
    if (!hook) return;
    const decoded: Decoded = payload === undefined ? this.decode(job) : { ok: true, payload };
    if (!decoded.ok) return;
    await hook(decoded.payload, error, cause).catch((err) =>
      this.opts.log?.error({ err, jobId: job.id }, 'dead-job hook failed'),
    );
  }

  /**
   * Successors `job` queued that the stall rule stored dead: their kind's hook hears of it once `job`'s handler
   * has finished (and any transaction it enqueued them in), read back from the database.
   */
  private async stalled(job: Pick<StoredJob, 'id' | 'runAt'>) {
    for (const successor of await this.stalledLookups.ask(job))
      await this.dead(successor, successor.lastError, undefined, 'stalled');
  }

  /**
   * What this runner may claim now: as many jobs as it has free slots, of the kinds below their limit, at most
   * the free slots of a kind; undefined when it has none.
   */
  private slots(): ClaimAsk | undefined {
    const max = this.concurrency - this.running.size;
    if (max <= 0) return undefined;
    const limits = this.opts.limits;
    if (!limits) return { names: this.names, max };
    const busy = new Map<string, number>();
    for (const { name } of this.running.values()) busy.set(name, (busy.get(name) ?? 0) + 1);
    const perKind: Record<string, number> = {};
    for (const n of this.names) perKind[n] = (limits[n] ?? Infinity) - (busy.get(n) ?? 0);
    const names = this.names.filter((n) => perKind[n]! > 0);
    return names.length ? { names, max, perKind } : undefined;
  }

  /**
   * The due jobs `ask` allows, claimed in one statement. One whose worker was lost on its last attempt: first its
   * stalled successors, then its own hook.
   */
  private claim(ask: ClaimAsk) {
    return this.opts.queue.claimMany(this.workerId, ask, this.leaseMs, async (job, error) => {
      await this.stalled(job);
      await this.dead(job, error);
    });
  }

  /** Tells the poll loop that a slot freed (or stop was asked): it claims again at once. */
  private nudge() {
    this.woken = true;
    this.wake?.();
  }

  /** Runs a claimed job in a slot of its own; the slot frees, and the loop claims again, when it has settled. */
  private begin(job: StoredJob) {
    const ac = new AbortController();
    const entry = { name: job.name, ac, done: Promise.resolve() };
    this.running.set(job.id, entry);
    // execute() records every outcome itself; a database error while recording one must not escape as an
    // unhandled rejection (the lease then runs out and the job is taken again).
    entry.done = this.execute(job, ac)
      .catch((err) => {
        this.opts.log?.error({ err, jobId: job.id }, 'job outcome could not be recorded');
      })
      .finally(() => {
        this.running.delete(job.id);
        this.nudge();
      });
  }

  /**
   * Claims while it has free slots and jobs are due, then sleeps until a job finishes or `pollMs` passes: never
   * idle while jobs wait and a slot is free, never a busy loop when the queue is empty.
   */
  private async poll() {
    while (!this.stopped) {
      this.woken = false;
      try {
        for (;;) {
          // Between claims the event loop gets its turn: on SQLite every query is synchronous underneath, so a
          // chain of jobs that are due at once would otherwise starve every HTTP request.
          await yieldToEventLoop();
          const ask = this.slots();
          if (this.stopped || !ask) break;
          const jobs = await this.claim(ask);
          for (const job of jobs) this.begin(job);
          if (!jobs.length) break;
        }
      } catch (err) {
        this.opts.log?.error({ err }, 'job claim failed');
      }
      if (this.stopped) break;
      if (this.woken) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.opts.pollMs ?? 1000);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private async execute(stored: StoredJob, ac = new AbortController()): Promise<void> {
    const { queue, log } = this.opts;
    const worker = this.workers.get(stored.name)!;
    const decoded = this.decode(stored);
    if (!decoded.ok) {
      const status = await queue.fail(stored, decoded.error, () => 0, true);
      log?.warn({ jobId: stored.id, name: stored.name, status, error: decoded.error }, 'job payload refused');
      return;
    }
    const { payload: _raw, ...job } = stored;
    let lost = false;
    const beat = setInterval(() => {
      queue.heartbeat(job, this.leaseMs).then(
        (ok) => {
          if (!ok && !ac.signal.aborted) {
            lost = true;
            ac.abort('lost');
          }
        },
        (err) => log?.warn({ err, jobId: job.id }, 'job heartbeat failed'),
      );
    }, this.heartbeatMs);
    try {
      await worker.handle(decoded.payload, { job: job satisfies ClaimedJob, signal: ac.signal, log });
      if (!(await this.completions.ask(job.id))) log?.warn({ jobId: job.id }, 'job finished after its lease was lost');
    } catch (err) {
      if (ac.signal.aborted && ac.signal.reason === 'shutdown' && !lost) {
        await queue.release(job).catch((e) => log?.error({ err: e, jobId: job.id }, 'job release failed'));
      } else if (!lost) {
        const message = err instanceof Error ? err.message : String(err);
        const policy = worker.job.retry;
        const backoff = this.opts.backoff ?? (policy.kind === 'retry' ? policy.backoff : () => 0);
        const never = err instanceof PermanentJobError || policy.kind === 'never';
        const status = await queue.fail(job, message, backoff, never);
        log?.warn({ jobId: job.id, name: job.name, attempts: job.attempts, status, error: message }, 'job failed');
        if (status === 'dead') await this.dead(stored, message, decoded.payload);
      }
    } finally {
      clearInterval(beat);
      await this.stalled(job);
    }
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
