import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, JobsTable } from '../db/types';
import type { Db, DbKind } from '../db/index';
import { attemptsOf, type Backoff, type ClaimedJob, type JobSpec } from './job';

export type JobStatus = JobsTable['status'];

/** A claimed job as the queue hands it to the runner: the payload is still the stored JSON text. */
export type StoredJob = ClaimedJob & { payload: string };

/** A job row for inspection (tests, admin views): status, attempts, the last error of a dead job. */
export type JobRow = {
  id: number;
  name: string;
  key: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  leaseUntil: string | null;
  lockedBy: string | null;
  lastError: string | null;
};

export type EnqueueOptions = { key: string; runAt?: Date };

type Exec = Transaction<Database> | Kysely<Database>;

/** What a domain service needs to queue work: typed by the job's spec, so only declared jobs with their payloads. */
export type Enqueue = <P>(
  job: JobSpec<string, P>,
  payload: NoInfer<P>,
  opts: EnqueueOptions,
  trx?: Exec,
) => Promise<boolean>;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The durable job queue in the database (ARCHITECTURE.md). Statuses: queued → running → done, or back to
 * queued with a later run_at (retry with backoff), or dead (attempts used up; last_error says why).
 *
 * - enqueue is idempotent by `key` (unique): the same work is queued once, however often it is asked for.
 * - claim hands one due job to one worker and stamps a lease. On PostgreSQL the candidate row is locked with
 *   `FOR UPDATE SKIP LOCKED` inside a transaction, so concurrent workers on many machines never take the same
 *   row; on SQLite one `UPDATE … WHERE id = (SELECT … LIMIT 1) RETURNING` is atomic (one writer at a time).
 * - a running job whose lease expired (its worker died) is due again and is claimed like a queued one.
 * - every state change after claim is conditional on `locked_by` = this worker and status running, so a
 *   worker that lost its lease can no longer complete or fail a job someone else now owns.
 */
export class JobQueue {
  constructor(
    private db: Db,
    private kind: DbKind,
    private now: () => number = Date.now,
  ) {}

  /**
   * Queues a job unless one with the same key exists (any status). Returns whether it was inserted. The payload
   * is checked against the job's schema here too, and the attempts its retry policy allows are stored with it.
   */
  enqueue: Enqueue = async (job, payload, opts, trx) => {
    const at = iso(this.now());
    const r = await (trx ?? this.db)
      .insertInto('jobs')
      .values({
        name: job.name,
        key: opts.key,
        payload: JSON.stringify(job.payload.parse(payload)),
        status: 'queued',
        maxAttempts: attemptsOf(job.retry),
        runAt: opts.runAt ? opts.runAt.toISOString() : at,
        createdAt: at,
        updatedAt: at,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  };

  /**
   * Claims the next due job among `names` for `workerId` with a lease of `leaseMs`; attempts is counted up.
   * A job whose lease expired after its last allowed attempt is marked dead instead (then `onDead` hears of
   * it, since no handler will run again) and the next one tried.
   */
  async claim(
    workerId: string,
    names: readonly string[],
    leaseMs: number,
    onDead?: (job: StoredJob, error: string) => Promise<void>,
  ): Promise<StoredJob | undefined> {
    for (let guard = 0; guard < 100; guard++) {
      const row =
        this.kind === 'postgres'
          ? await this.claimPg(workerId, names, leaseMs)
          : await this.claimSqlite(workerId, names, leaseMs);
      if (!row) return undefined;
      const job: StoredJob = {
        id: row.id,
        name: row.name,
        key: row.key,
        payload: row.payload,
        attempts: row.attempts,
        maxAttempts: row.maxAttempts,
        lockedBy: workerId,
      };
      if (row.attempts > row.maxAttempts) {
        const lastError = row.lastError ?? 'worker lost (lease expired) on the last attempt';
        await this.db
          .updateTable('jobs')
          .set({ status: 'dead', leaseUntil: null, lockedBy: null, updatedAt: iso(this.now()), lastError })
          .where('id', '=', row.id)
          .where('lockedBy', '=', workerId)
          .execute();
        await onDead?.(job, lastError);
        continue;
      }
      return job;
    }
    return undefined;
  }

  private due(names: readonly string[], nowIso: string) {
    return (eb: any) =>
      eb.and([
        eb('name', 'in', names),
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('runAt', '<=', nowIso)]),
          eb.and([eb('status', '=', 'running'), eb('leaseUntil', '<', nowIso)]),
        ]),
      ]);
  }

  private async claimPg(workerId: string, names: readonly string[], leaseMs: number): Promise<JobRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.now();
      const picked = await trx
        .selectFrom('jobs')
        .select('id')
        .where(this.due(names, iso(now)))
        .orderBy('runAt')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!picked) return undefined;
      return trx
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          attempts: eb('attempts', '+', 1),
          leaseUntil: iso(now + leaseMs),
          lockedBy: workerId,
          updatedAt: iso(now),
        }))
        .where('id', '=', picked.id)
        .returningAll()
        .executeTakeFirst() as Promise<JobRow | undefined>;
    });
  }

  private async claimSqlite(workerId: string, names: readonly string[], leaseMs: number): Promise<JobRow | undefined> {
    const now = this.now();
    return this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        leaseUntil: iso(now + leaseMs),
        lockedBy: workerId,
        updatedAt: iso(now),
      }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where(this.due(names, iso(now)))
          .orderBy('runAt')
          .orderBy('id')
          .limit(1),
      )
      .returningAll()
      .executeTakeFirst() as Promise<JobRow | undefined>;
  }

  /** Renews the lease; false when this worker no longer owns the job (expired and taken, cancelled, deleted). */
  async heartbeat(job: Pick<ClaimedJob, 'id' | 'lockedBy'>, leaseMs: number): Promise<boolean> {
    const now = this.now();
    const r = await this.db
      .updateTable('jobs')
      .set({ leaseUntil: iso(now + leaseMs), updatedAt: iso(now) })
      .where('id', '=', job.id)
      .where('lockedBy', '=', job.lockedBy)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Marks the job done (only if this worker still owns it). */
  async complete(job: Pick<ClaimedJob, 'id' | 'lockedBy'>): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ status: 'done', leaseUntil: null, lastError: null, updatedAt: iso(this.now()) })
      .where('id', '=', job.id)
      .where('lockedBy', '=', job.lockedBy)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * A failed attempt: back to queued with run_at = now + backoff(attempts), or dead when the attempts are
   * used up or `permanent` (a failure a retry cannot fix). The error text is kept in last_error.
   */
  async fail(
    job: Pick<ClaimedJob, 'id' | 'lockedBy' | 'attempts' | 'maxAttempts'>,
    error: string,
    backoff: Backoff,
    permanent = false,
  ): Promise<JobStatus | undefined> {
    const now = this.now();
    const dead = permanent || job.attempts >= job.maxAttempts;
    const r = await this.db
      .updateTable('jobs')
      .set({
        status: dead ? 'dead' : 'queued',
        runAt: dead ? (sql`run_at` as any) : iso(now + backoff(job.attempts)),
        leaseUntil: null,
        lockedBy: null,
        lastError: error.slice(0, 2000),
        updatedAt: iso(now),
      })
      .where('id', '=', job.id)
      .where('lockedBy', '=', job.lockedBy)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? (dead ? 'dead' : 'queued') : undefined;
  }

  /** Gives a job back without counting the attempt (graceful shutdown): queued, due now. */
  async release(job: Pick<ClaimedJob, 'id' | 'lockedBy'>): Promise<void> {
    const now = iso(this.now());
    await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        attempts: sql<number>`CASE WHEN ${eb.ref('attempts')} > 0 THEN ${eb.ref('attempts')} - 1 ELSE 0 END`,
        runAt: now,
        leaseUntil: null,
        lockedBy: null,
        updatedAt: now,
      }))
      .where('id', '=', job.id)
      .where('lockedBy', '=', job.lockedBy)
      .where('status', '=', 'running')
      .execute();
  }

  /** Removes a job by key (its work was cancelled); a worker running it loses its lease at the next heartbeat. */
  async cancel(key: string, trx?: Exec): Promise<void> {
    await (trx ?? this.db).deleteFrom('jobs').where('key', '=', key).execute();
  }

  get(idOrKey: number | string): Promise<JobRow | undefined> {
    const q = this.db.selectFrom('jobs').selectAll();
    return (
      typeof idOrKey === 'number' ? q.where('id', '=', idOrKey) : q.where('key', '=', idOrKey)
    ).executeTakeFirst() as Promise<JobRow | undefined>;
  }

  /** Jobs by status (newest first), for inspection. */
  list(status?: JobStatus, limit = 100): Promise<JobRow[]> {
    let q = this.db.selectFrom('jobs').selectAll().orderBy('id', 'desc').limit(limit);
    if (status) q = q.where('status', '=', status);
    return q.execute() as Promise<JobRow[]>;
  }
}
