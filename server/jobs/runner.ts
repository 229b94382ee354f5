import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JobCatalogue } from './catalogue';
import { exponentialBackoff, type Backoff, type Job, type JobQueue } from './queue';

/** What a handler gets besides its payload: the claimed job, and a signal that aborts when it must stop. */
export type JobContext<C, N extends keyof C> = {
  job: Job<C, N>;
  /** Aborted on shutdown (reason 'shutdown') or when the lease is lost / the job cancelled (reason 'lost'). */
  signal: AbortSignal;
  log?: FastifyBaseLogger;
};

export type JobHandler<C, N extends keyof C> = (payload: C[N], ctx: JobContext<C, N>) => Promise<void>;
export type JobHandlers<C> = { [N in keyof C]: JobHandler<C, N> };

/** Thrown by a handler for a failure no retry can fix: the job goes dead at once with this message. */
export class PermanentJobError extends Error {}

export type RunnerOptions<C> = {
  queue: JobQueue<C & Record<string, unknown>>;
  /** Every job name of the catalogue: the runner refuses to start unless each has a handler. */
  names: readonly (keyof C & string)[];
  handlers: Partial<JobHandlers<C>>;
  workerId?: string;
  /** Jobs run at once by this runner. */
  concurrency?: number;
  leaseMs?: number;
  /** Lease renewal period (default a third of the lease). */
  heartbeatMs?: number;
  pollMs?: number;
  backoff?: Backoff;
  /**
   * Per job name: what to do when a job goes dead without its handler seeing the end (its worker was lost
   * during the last attempt), e.g. mark the request it served as failed.
   */
  onDead?: { [N in keyof C]?: (payload: C[N], error: string) => Promise<void> };
  log?: FastifyBaseLogger;
};

/**
 * Runs jobs from the queue: claims up to `concurrency` at a time, renews each lease while its handler runs,
 * completes it, or records the failure (retry with backoff, or dead). A heartbeat that finds the job gone or
 * owned by someone else aborts the handler. `stop()` aborts running handlers and gives their jobs back
 * without counting the attempt, so a restart resumes them at once.
 */
export class JobRunner<C = JobCatalogue> {
  readonly workerId: string;
  private running = new Map<number, { ac: AbortController; done: Promise<void> }>();
  private stopped = true;
  private wake?: () => void;
  private loop?: Promise<void>;
  private opts: Required<Omit<RunnerOptions<C>, 'log' | 'workerId' | 'onDead'>> & Pick<RunnerOptions<C>, 'log' | 'onDead'>;

  constructor(options: RunnerOptions<C>) {
    const missing = options.names.filter((n) => typeof options.handlers[n] !== 'function');
    if (missing.length) throw new Error(`Job runner cannot start: no handler for job ${missing.map((m) => `"${m}"`).join(', ')}`);
    const leaseMs = options.leaseMs ?? 60_000;
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.opts = {
      queue: options.queue, names: options.names, handlers: options.handlers, concurrency: options.concurrency ?? 1, leaseMs,
      heartbeatMs: options.heartbeatMs ?? Math.max(200, Math.floor(leaseMs / 3)), pollMs: options.pollMs ?? 1000,
      backoff: options.backoff ?? exponentialBackoff(), onDead: options.onDead, log: options.log,
    };
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
    this.wake?.();
    for (const { ac } of this.running.values()) ac.abort('shutdown');
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    await this.loop;
  }

  /** Claims and runs due jobs until there is none (tests drive the queue with this instead of start()). */
  async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      const job = await this.claim();
      if (!job) return n;
      n++;
      await this.execute(job as unknown as Job<C>);
    }
  }

  private claim() {
    return this.opts.queue.claim(this.workerId, this.opts.names, this.opts.leaseMs, async (job, error) => {
      const hook = this.opts.onDead?.[job.name as keyof C];
      await hook?.(job.payload as never, error).catch((err) => this.opts.log?.error({ err, jobId: job.id }, 'dead-job hook failed'));
    });
  }

  private async poll() {
    while (!this.stopped) {
      try {
        while (!this.stopped && this.running.size < this.opts.concurrency) {
          const job = await this.claim();
          if (!job) break;
          const ac = new AbortController();
          const entry = { ac, done: Promise.resolve() };
          this.running.set(job.id, entry);
          // execute() records every outcome itself; a database error while recording one must not escape
          // as an unhandled rejection (the lease then runs out and the job is taken again).
          entry.done = this.execute(job as unknown as Job<C>, ac).catch((err) => {
            this.opts.log?.error({ err, jobId: job.id }, 'job outcome could not be recorded');
          }).finally(() => {
            this.running.delete(job.id);
            this.wake?.();
          });
        }
      } catch (err) {
        this.opts.log?.error({ err }, 'job claim failed');
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.opts.pollMs);
        this.wake = () => { clearTimeout(t); resolve(); };
      });
      this.wake = undefined;
    }
  }

  private async execute(job: Job<C>, ac = new AbortController()): Promise<void> {
    const { queue, handlers, log } = this.opts;
    const handler = handlers[job.name] as JobHandler<C, keyof C>;
    let lost = false;
    const beat = setInterval(() => {
      queue.heartbeat(job, this.opts.leaseMs).then((ok) => {
        if (!ok && !ac.signal.aborted) { lost = true; ac.abort('lost'); }
      }, (err) => log?.warn({ err, jobId: job.id }, 'job heartbeat failed'));
    }, this.opts.heartbeatMs);
    try {
      await handler(job.payload, { job, signal: ac.signal, log });
      if (!(await queue.complete(job))) log?.warn({ jobId: job.id }, 'job finished after its lease was lost');
    } catch (err) {
      if (ac.signal.aborted && ac.signal.reason === 'shutdown' && !lost) {
        await queue.release(job).catch((e) => log?.error({ err: e, jobId: job.id }, 'job release failed'));
      } else if (!lost) {
        const message = err instanceof Error ? err.message : String(err);
        const status = await queue.fail(job, message, this.opts.backoff, err instanceof PermanentJobError);
        log?.warn({ jobId: job.id, name: job.name, attempts: job.attempts, status, error: message }, 'job failed');
      }
    } finally {
      clearInterval(beat);
    }
  }
}
