import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobWorker } from '../jobs/job';
import type { JobsRepository } from '../operations/jobs.repository';

/** Seconds of waiting and running, from a few milliseconds to an hour (renders and publishing can take that). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600];

/**
 * What `GET /metrics` reports (Prometheus text format through prom-client), in a registry of this process:
 * - `kadr_jobs{kind,state}`: the queue's depth per kind and state, read from the database at each scrape (the same
 *   on every process sharing it), and `kadr_jobs_oldest_due_seconds`: how long the oldest due job not yet claimed
 *   has waited.
 * - `kadr_job_claim_lag_seconds{kind}` (histogram): due time to claim of each job this process ran, and
 *   `kadr_job_duration_seconds{kind,outcome}` (histogram): how long its handler ran, `done` or `failed`.
 * - `kadr_http_request_duration_seconds{method,route,status}` (histogram): by route pattern (`/api/users/:id`),
 *   never the raw URL, so the series stay few; an unrouted request is `unmatched`.
 * - prom-client's default metrics: process memory, CPU, event-loop lag, heap, handles.
 * Built only when METRICS_TOKEN is set: otherwise nothing is measured.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly claimLag: Histogram<'kind'>;
  private readonly duration: Histogram<'kind' | 'outcome'>;

  constructor(jobs: JobsRepository, now: () => number = Date.now) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'kadr_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.claimLag = new Histogram({
      name: 'kadr_job_claim_lag_seconds',
      help: "Time from a job's due time to its claim, by kind (jobs this process ran)",
      labelNames: ['kind'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.duration = new Histogram({
      name: 'kadr_job_duration_seconds',
      help: "How long a job's handler ran, by kind and outcome (jobs this process ran)",
      labelNames: ['kind', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'kadr_jobs',
      help: 'Jobs in the queue by kind and state (queued, running, retrying, dead, done)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const c of await jobs.counts()) this.set({ kind: c.kind, state: c.state }, c.count);
      },
    });
    new Gauge({
      name: 'kadr_jobs_oldest_due_seconds',
      help: 'How long the oldest due job not yet claimed has waited (0: none waits)',
      registers,
      async collect() {
        const due = await jobs.oldestDue();
        this.set(due === null ? 0 : Math.max(0, now() - due) / 1000);
      },
    });
  }

  /** One answered request (`route`: the matched pattern, or undefined when none matched). */
  observeHttp(method: string, route: string | undefined, status: number, seconds: number): void {
    this.http.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
  }

  /** The workers with their claim lag and handler time measured. */
  timed(workers: readonly JobWorker[]): JobWorker[] {
    return workers.map((w) => ({
      ...w,
      handle: async (payload, ctx) => {
        const started = Date.now();
        this.claimLag.observe({ kind: w.job.name }, Math.max(0, started - ctx.job.runAt) / 1000);
        let outcome = 'failed';
        try {
          await w.handle(payload, ctx);
          outcome = 'done';
        } finally {
          this.duration.observe({ kind: w.job.name, outcome }, (Date.now() - started) / 1000);
        }
      },
    }));
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
