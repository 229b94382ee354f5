import { JM, RETRYABLE_STATES, type JobRecord, type JobSummary } from '../../src/contract/jobs';
import type { JobListParams } from '../../src/contract/list-queries';
import type { Page } from '../../src/contract/pagination';
import { AppError, notFound } from '../http/errors';
import type { CancelPolicy, JobSpec } from '../jobs/job';
import type { AdminJobRow, JobsRepository } from './jobs.repository';

const CANCELLABLE_STATES = ['queued', 'retrying'];

/**
 * The operator's view of the queue (admin-only; the routes enforce the role): the jobs with their state, owner,
 * reason and claim lag, counts per kind and state, and the two actions. Retry runs a dead or retrying job again
 * now (its handler reads its row's state as on any attempt). Cancel removes a queued job, only of a kind whose
 * JobSpec.cancel says nothing waits on it; any other answers 409 with the kind's reason.
 */
export class JobsService {
  private readonly kinds: Map<string, JobSpec<string, unknown>>;

  constructor(
    private repo: JobsRepository,
    catalogue: readonly JobSpec<string, unknown>[],
    private now: () => number = Date.now,
  ) {
    this.kinds = new Map(catalogue.map((j) => [j.name, j]));
  }

  async list(params: JobListParams): Promise<Page<JobRecord>> {
    const page = await this.repo.list(params);
    const now = this.now();
    return { ...page, data: page.data.map((row) => this.record(row, now)) };
  }

  async summary(): Promise<JobSummary> {
    const [counts, oldestDue] = await Promise.all([this.repo.counts(), this.repo.oldestDue()]);
    return {
      kinds: [...new Set([...this.kinds.keys(), ...counts.map((c) => c.kind)])].sort(),
      counts,
      oldestDueLagMs: oldestDue === null ? null : Math.max(0, this.now() - oldestDue),
    };
  }

  async retry(id: number): Promise<JobRecord> {
    const job = await this.get(id);
    if (!RETRYABLE_STATES.includes(job.state) || !(await this.repo.retry(id)))
      throw new AppError(409, JM.notRetryable, undefined, { state: job.state });
    return this.record(await this.get(id), this.now());
  }

  async cancel(id: number): Promise<JobRecord> {
    const job = await this.get(id);
    const policy = this.cancelPolicy(job.name);
    if (!policy.safe) throw new AppError(409, policy.reason, undefined, { kind: job.name });
    if (!CANCELLABLE_STATES.includes(job.state) || !(await this.repo.cancel(id)))
      throw new AppError(409, JM.notCancellable, undefined, { state: job.state });
    return this.record(job, this.now());
  }

  private async get(id: number): Promise<AdminJobRow> {
    const job = await this.repo.get(id);
    if (!job) throw notFound();
    return job;
  }

  /** A kind the catalogue no longer has (an old deploy's job) declares nothing: not cancelled. */
  private cancelPolicy(kind: string): CancelPolicy {
    return this.kinds.get(kind)?.cancel ?? { safe: false, reason: JM.cancelUndeclared };
  }

  private record(row: AdminJobRow, now: number): JobRecord {
    const waiting = row.status === 'queued';
    const lagMs = waiting
      ? row.runAt <= now
        ? now - row.runAt
        : null
      : row.claimedAt === null
        ? null
        : Math.max(0, row.claimedAt - row.runAt);
    return {
      id: row.id,
      kind: row.name,
      key: row.key,
      state: row.state,
      attempts: row.attempts,
      maxAttempts: row.maxAttempts,
      owner: row.status === 'running' ? row.lockedBy : null,
      progress: row.progressMark,
      reason: row.lastError,
      runAt: row.runAt,
      claimedAt: row.claimedAt,
      lagMs,
      canRetry: RETRYABLE_STATES.includes(row.state),
      canCancel: waiting && this.cancelPolicy(row.name).safe,
    };
  }
}
