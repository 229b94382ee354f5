import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/index';
import type { Database } from '../db/types';
import { paginate } from '../http/paginate';
import { matchesText, orderOf, sorted, type SortColumns } from '../http/list-query';
import type { JOB_SORTS, JobListParams } from '../../src/contract/list-queries';
import type { JobState } from '../../src/contract/jobs';
import type { Page } from '../../src/contract/pagination';
import type { JobRow } from '../jobs/queue';

const JOB_SORT: SortColumns<(typeof JOB_SORTS)[number]> = {
  id: 'jobs.id',
  kind: 'jobs.name',
  runAt: 'jobs.runAt',
  attempts: 'jobs.attempts',
};

/** The screen's state of a row: a queued job that failed before (it carries the reason) is `retrying`. */
const stateOf = (row: Pick<JobRow, 'status' | 'lastError'>): JobState =>
  row.status === 'queued' && row.lastError !== null ? 'retrying' : row.status;

/** The same rule in SQL (the summary's grouping). */
const stateSql = sql<JobState>`case when status = 'queued' and last_error is not null then 'retrying' else status end`;

/** The rows of one screen state. */
const inState = (state: JobState) => (eb: ExpressionBuilder<Database, 'jobs'>) =>
  state === 'queued'
    ? eb.and([eb('status', '=', 'queued'), eb('lastError', 'is', null)])
    : state === 'retrying'
      ? eb.and([eb('status', '=', 'queued'), eb('lastError', 'is not', null)])
      : eb('status', '=', state);

/** A job row with its screen state. */
export type AdminJobRow = JobRow & { state: JobState };

/** A count of one kind in one state. */
export type JobCount = { kind: string; state: JobState; count: number };

/**
 * The job table as the operator sees and acts on it (the Jobs screen, /metrics). The workers' own reads and
 * writes are the queue's (queue.ts); these are conditional on the state the operator saw, so a worker that
 * claims the job meanwhile keeps it.
 */
export class JobsRepository {
  constructor(
    private db: Db,
    private now: () => number = Date.now,
  ) {}

  list(params: JobListParams): Promise<Page<AdminJobRow>> {
    let base = this.db.selectFrom('jobs');
    if (params.q) base = base.where(matchesText(params.q, ['jobs.key'], { id: 'jobs.id' }));
    if (params.kind) base = base.where('jobs.name', '=', params.kind);
    if (params.state) base = base.where(inState(params.state));
    const order = orderOf(params, JOB_SORT, { sort: 'id', order: 'DESC' }, 'jobs.id');
    return paginate(
      base,
      params.page,
      (q) => sorted(q.selectAll('jobs'), order),
      (row) => withState(row as JobRow),
    );
  }

  async get(id: number): Promise<AdminJobRow | undefined> {
    const row = (await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()) as
      JobRow | undefined;
    return row && withState(row);
  }

  /**
   * Jobs per kind and state, each count served by the index jobs_kinds (status, name) (025): the jobs still in
   * the queue's hands (few) with their last error, which tells `retrying` from `queued`; the done ones (up to
   * JOBS_KEEP_FINISHED's worth) counted from the index alone.
   */
  async counts(): Promise<JobCount[]> {
    const [live, done] = await Promise.all([
      this.db
        .selectFrom('jobs')
        .select((eb) => ['name', stateSql.as('state'), eb.fn.countAll<number | string>().as('count')])
        .where('status', 'in', ['queued', 'running', 'dead'])
        .groupBy(['name', stateSql])
        .execute(),
      this.db
        .selectFrom('jobs')
        .select((eb) => ['name', eb.fn.countAll<number | string>().as('count')])
        .where('status', '=', 'done')
        .groupBy('name')
        .execute(),
    ]);
    return [...live, ...done.map((r) => ({ ...r, state: 'done' as const }))]
      .map((r) => ({ kind: r.name, state: r.state, count: Number(r.count) }))
      .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }

  /** The due time of the oldest queued job that is due and not claimed (epoch ms), or null. */
  async oldestDue(): Promise<number | null> {
    const r = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min<number | null>('runAt').as('runAt'))
      .where('status', '=', 'queued')
      .where('runAt', '<=', this.now())
      .executeTakeFirst();
    return r?.runAt == null ? null : Number(r.runAt);
  }

  /**
   * Runs a dead or retrying job again now: queued and due now; a dead one gets its attempts back (its last error
   * stays until an attempt succeeds, so it shows as retrying). Only from those states; answers whether it moved.
   */
  async retry(id: number): Promise<boolean> {
    const now = this.now();
    const r = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        attempts: eb.case().when('status', '=', 'dead').then(0).else(eb.ref('attempts')).end(),
        stalls: 0,
        runAt: now,
        leaseUntil: null,
        lockedBy: null,
        updatedAt: new Date(now).toISOString(),
      }))
      .where('id', '=', id)
      .where((eb) => eb.or([inState('dead')(eb), inState('retrying')(eb)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Removes a job while it is still queued (waiting or retrying, not claimed); answers whether it did. */
  async cancel(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('jobs').where('id', '=', id).where('status', '=', 'queued').executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}

function withState(row: JobRow): AdminJobRow {
  return { ...row, state: stateOf(row) };
}
