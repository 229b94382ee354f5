import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database, JobsTable } from '../db/types';
import type { Db, DbKind } from '../db/index';
import { JM } from '../../src/contract/jobs';
import { encodeMessage } from '../../src/contract/stored-message';
import { attemptsOf, exponentialBackoff, type Backoff, type ClaimedJob, type JobSpec } from './job';

export type JobStatus = JobsTable['status'];

/** A claimed job as the queue hands it to the runner: the payload is still the stored JSON text. */
export type StoredJob = ClaimedJob & { payload: string };

/** A successor the stall rule stored dead, with the reason (which names its predecessor). */
export type StalledJob = StoredJob & { lastError: string };

/** A job row for inspection (tests, admin views): status, attempts, the last error of a dead job. */
export type JobRow = {
  id: number;
  name: string;
  key: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  /** Epoch ms (012). */
  runAt: number;
  leaseUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  stalls: number;
  progressMark: string | null;
  /** Epoch ms of the current (or last) claim (022); null before the first. */
  claimedAt: number | null;
};

export type EnqueueOptions = {
  key: string;
  runAt?: Date;
  /**
   * The running job this one succeeds (a chain: the handler queues its own next look). Its run_at, stalls and
   * progress mark decide whether the successor made progress (see JobQueue).
   */
  after?: Pick<ClaimedJob, 'id' | 'runAt' | 'stalls' | 'progressMark'>;
  /**
   * The handler's mark of where its work stands (e.g. a row's state and updated_at); a successor whose mark
   * differs from its predecessor's made progress. Without one only run_at tells.
   */
  progress?: string;
};

/**
 * How the queue treats a chain that makes no progress: `max` stalls in a row and the successor is stored dead;
 * before that each stalled successor waits `backoff(stalls)` past its predecessor's run_at.
 */
export type StallPolicy = { max: number; backoff: Backoff };

export const DEFAULT_STALLS: StallPolicy = { max: 5, backoff: exponentialBackoff(1000) };

type Exec = Transaction<Database> | Kysely<Database>;

/**
 * What one claim may take: due jobs of `names`, `max` at most in all, and at most `perKind[name]` of a kind named
 * there (a runner's free slots for it).
 */
export type ClaimAsk = { names: readonly string[]; max: number; perKind?: Readonly<Record<string, number>> };

/** Jobs one claim takes at most, whatever is asked. */
export const CLAIM_MAX = 100;

/** What a domain service needs to queue work: typed by the job's spec, so only declared jobs with their payloads. */
export type Enqueue = <P>(
  job: JobSpec<string, P>,
  payload: NoInfer<P>,
  opts: EnqueueOptions,
  trx?: Exec,
) => Promise<boolean>;

/** A job stored dead: what its kind and payload were (the stored JSON). */
export type DeadJob = { name: string; payload: string };

/**
 * Told of every job the queue stores dead, in the transaction that stores it (the root records a `job.dead`
 * event): the news commits with the death, or neither does.
 */
export type DeathRecorder = (trx: Exec, job: DeadJob) => Promise<void>;

const iso = (ms: number) => new Date(ms).toISOString();
const MARK_MAX = 200;

/**
 * How a stall-dead successor's last_error (an encoded message whose last parameter is `after`) ends: it names the
 * predecessor, whose runner reads it back by this.
 */
const stalledAfter = (predecessorId: number) => `"after":${predecessorId}}`;

/** A row as the runner handles it. */
const storedJob = (row: JobRow, lockedBy: string): StoredJob => ({
  id: row.id,
  name: row.name,
  key: row.key,
  payload: row.payload,
  attempts: row.attempts,
  maxAttempts: row.maxAttempts,
  lockedBy,
  runAt: row.runAt,
  stalls: row.stalls,
  progressMark: row.progressMark,
});

/**
 * The durable job queue in the database (ARCHITECTURE.md). Statuses: queued → running → done, or back to
 * queued with a later run_at (retry with backoff), or dead (attempts used up; last_error says why).
 *
 * - enqueue is idempotent by `key` (unique): the same work is queued once, however often it is asked for.
 * - a claim hands due jobs (as many as the runner has free slots for, per kind) to one worker in one statement and
 *   stamps their leases. On PostgreSQL the candidate rows are locked with `FOR UPDATE SKIP LOCKED` in the subquery
 *   of the claiming UPDATE, so concurrent workers on many machines never take the same row; on SQLite one
 *   `UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING` is atomic (one writer at a time).
 * - a running job whose lease expired (its worker died) is due again and is claimed like a queued one.
 * - every state change after claim is conditional on `locked_by` = this worker and status running, so a
 *   worker that lost its lease can no longer complete or fail a job someone else now owns.
 * - no hot loop, whatever a handler does: a successor enqueued `after` a running job whose run_at is not later
 *   than its predecessor's, and whose progress mark is unchanged, made NO PROGRESS. Its `stalls` (carried along
 *   the chain) go up and its run_at is pushed past the predecessor's by a growing backoff; any progress resets
 *   them; at `stalls.max` the successor is stored dead with the reason, which names its predecessor. Its kind's
 *   onDead hook hears of it once the predecessor's handler has returned (or the predecessor went dead without
 *   returning): the runner reads it back from the database (`stalledSuccessors`), so only a committed successor
 *   is told of, and a crash in between loses nothing (the predecessor runs or dies again, and it is read then).
 * - every write that stores a job dead (attempts used up, a lease lost on the last attempt, a stalled successor)
 *   hands it to `recordDeath` in its own transaction, so the news (the root records `job.dead`) is never lost.
 */
export class JobQueue {
  constructor(
    private db: Db,
    private kind: DbKind,
    private now: () => number = Date.now,
    private stalls: StallPolicy = DEFAULT_STALLS,
    private recordDeath?: DeathRecorder,
  ) {}

  /**
   * Queues a job unless one with the same key exists (any status). Returns whether it was inserted. The payload
   * is checked against the job's schema here too, and the attempts its retry policy allows are stored with it.
   */
  enqueue: Enqueue = async (job, payload, opts, trx) => {
    const now = this.now();
    const asked = opts.runAt ? runAtOf(opts.key, opts.runAt) : now;
    const progressMark = opts.progress === undefined ? null : opts.progress.slice(0, MARK_MAX);
    const { runAt, stalls, dead } = this.successor(opts.after, asked, progressMark, now);
    const lastError = dead
      ? encodeMessage(JM.reasonNoProgress, {
          stalls,
          kind: job.name,
          runAt: iso(opts.after!.runAt),
          after: opts.after!.id,
        })
      : null;
    const row = { ...jobRow(job, opts.key, payload, runAt, now), stalls, progressMark, lastError };
    const r = await this.dying(dead, trx, (exec) =>
      exec
        .insertInto('jobs')
        .values(dead ? { ...row, status: 'dead' } : row)
        .onConflict((oc) => oc.column('key').doNothing())
        .returning(['name', 'payload'])
        .executeTakeFirst(),
    );
    return r !== undefined;
  };

  /**
   * enqueue for many first jobs of one kind (no `after`: nothing here succeeds a running job), in batches of one
   * statement each: a key that exists already is left as it is. Returns how many were inserted.
   */
  async enqueueMany<P>(
    job: JobSpec<string, P>,
    items: readonly { payload: NoInfer<P>; key: string; runAt: Date }[],
    trx?: Exec,
  ): Promise<number> {
    const now = this.now();
    let inserted = 0;
    for (let i = 0; i < items.length; i += 500) {
      const values = items
        .slice(i, i + 500)
        .map((it) => jobRow(job, it.key, it.payload, runAtOf(it.key, it.runAt), now));
      const r = await (trx ?? this.db)
        .insertInto('jobs')
        .values(values)
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('id')
        .execute();
      inserted += r.length;
    }
    return inserted;
  }

  /** A write that may store a job dead (`dead`): when it does, the death is recorded in its transaction. */
  private async dying(
    dead: boolean,
    trx: Exec | undefined,
    write: (exec: Exec) => Promise<DeadJob | undefined>,
  ): Promise<DeadJob | undefined> {
    const record = this.recordDeath;
    if (!dead || !record) return write(trx ?? this.db);
    const inTrx = async (exec: Exec) => {
      const died = await write(exec);
      if (died) await record(exec, died);
      return died;
    };
    return trx ? inTrx(trx) : this.db.transaction().execute(inTrx);
  }

  /** The stall rule for a successor of `after` asked for at `asked` (see the class comment). */
  private successor(after: EnqueueOptions['after'], asked: number, mark: string | null, now: number) {
    if (!after) return { runAt: asked, stalls: 0, dead: false };
    const progressed = asked > after.runAt || (mark !== null && mark !== after.progressMark);
    if (progressed) return { runAt: asked, stalls: 0, dead: false };
    const stalls = after.stalls + 1;
    const runAt = Math.max(after.runAt, asked, now) + Math.max(1, this.stalls.backoff(stalls));
    return { runAt, stalls, dead: stalls >= this.stalls.max };
  }

  /** The successors of `predecessor` that the stall rule stored dead (stalledSuccessorsOf for one). */
  async stalledSuccessors(predecessor: Pick<ClaimedJob, 'id' | 'runAt'>): Promise<StalledJob[]> {
    return (await this.stalledSuccessorsOf([predecessor])).get(predecessor.id) ?? [];
  }

  /**
   * The successors of each of `predecessors` that the stall rule stored dead, as the database has them (their
   * last_error names the predecessor), for their kinds' onDead hooks, in one statement: predecessor id to its
   * successors. Read each time it is asked: a predecessor that runs again is told of them again, so a hook must be
   * idempotent (as every onDead hook is: a job can die after its hook ran).
   */
  async stalledSuccessorsOf(
    predecessors: readonly Pick<ClaimedJob, 'id' | 'runAt'>[],
  ): Promise<Map<number, StalledJob[]>> {
    const found = new Map<number, StalledJob[]>();
    if (!predecessors.length) return found;
    const rows = (await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('status', '=', 'dead')
      .where('runAt', '>', Math.min(...predecessors.map((p) => p.runAt)))
      .where((eb) => eb.or(predecessors.map((p) => eb('lastError', 'like', `%${stalledAfter(p.id)}`))))
      .orderBy('id')
      .execute()) as JobRow[];
    for (const p of predecessors) {
      const of = rows.filter((row) => row.runAt > p.runAt && row.lastError!.endsWith(stalledAfter(p.id)));
      if (of.length)
        found.set(
          p.id,
          of.map((row) => ({ ...storedJob(row, ''), lastError: row.lastError! })),
        );
    }
    return found;
  }

  /** Claims the next due job among `names` (claimMany for one job). */
  async claim(
    workerId: string,
    names: readonly string[],
    leaseMs: number,
    onDead?: (job: StoredJob, error: string) => Promise<void>,
  ): Promise<StoredJob | undefined> {
    return (await this.claimMany(workerId, { names, max: 1 }, leaseMs, onDead))[0];
  }

  /**
   * Claims up to `ask.max` due jobs among `ask.names` (at most `ask.perKind[name]` of a kind named there) for
   * `workerId` with a lease of `leaseMs`, in one statement; attempts is counted up on each. They come oldest due
   * first. A job whose lease expired after its last allowed attempt is marked dead instead (then `onDead` hears of
   * it, since no handler will run again); when every job a claim took was such a one, the claim is made again.
   */
  async claimMany(
    workerId: string,
    ask: ClaimAsk,
    leaseMs: number,
    onDead?: (job: StoredJob, error: string) => Promise<void>,
  ): Promise<StoredJob[]> {
    for (let guard = 0; guard < 100; guard++) {
      const now = this.now();
      const rows = (await this.db
        .updateTable('jobs')
        .set(this.taken(workerId, leaseMs, now))
        .where((eb) => this.dueIds(eb, ask, now))
        .returningAll()
        .execute()) as JobRow[];
      if (!rows.length) return [];
      rows.sort((a, b) => a.runAt - b.runAt || a.id - b.id);
      const live: StoredJob[] = [];
      for (const row of rows) {
        const job = storedJob(row, workerId);
        if (row.attempts <= row.maxAttempts) {
          live.push(job);
          continue;
        }
        const lastError = row.lastError ?? encodeMessage(JM.reasonWorkerLost);
        await this.dying(true, undefined, (exec) =>
          exec
            .updateTable('jobs')
            .set({ status: 'dead', leaseUntil: null, lockedBy: null, updatedAt: iso(this.now()), lastError })
            .where('id', '=', row.id)
            .where('lockedBy', '=', workerId)
            .returning(['name', 'payload'])
            .executeTakeFirst(),
        );
        await onDead?.(job, lastError);
      }
      if (live.length) return live;
    }
    return [];
  }

  /**
   * `id` among the ids `ids` selects. On PostgreSQL as an array, so the outer statement looks each one up by its
   * key (an IN over a locking subquery is planned as a join that may read the whole primary key).
   */
  private byIds<D, T extends keyof D>(
    eb: ExpressionBuilder<Database, 'jobs'>,
    ids: SelectQueryBuilder<D, T, { id: number }>,
  ) {
    return this.kind === 'postgres' ? eb('id', '=', sql<number>`ANY(ARRAY(${ids}))`) : eb('id', 'in', ids);
  }

  /**
   * `id` among the ids a claim takes: the oldest due jobs of the asked kinds, `ask.max` at most. A kind with a
   * smaller limit of its own (`perKind`) is picked by a subquery of its own with that limit, the other kinds by one
   * shared one, and the oldest `ask.max` of all they picked are taken. On PostgreSQL every candidate is locked with
   * `FOR UPDATE SKIP LOCKED`, so concurrent claims on many machines pass over each other's rows and never take
   * the same one; on SQLite the claiming statement is atomic (one writer at a time).
   */
  private dueIds(eb: ExpressionBuilder<Database, 'jobs'>, ask: ClaimAsk, now: number) {
    const max = Math.max(1, Math.min(ask.max, CLAIM_MAX));
    const limitOf = (n: string) => Math.max(0, Math.min(ask.perKind?.[n] ?? max, max));
    const own = ask.names.filter((n) => limitOf(n) < max);
    const shared = ask.names.filter((n) => limitOf(n) === max);
    const picks = [
      ...own.map((n) => this.oldestDue([n], limitOf(n), now)),
      ...(shared.length ? [this.oldestDue(shared, max, now)] : []),
    ];
    if (picks.length === 1) return this.byIds(eb, picks[0]!.select('id'));
    const members = picks.map((p) => this.db.selectFrom(p.select(['id', 'runAt']).as('k')).select(['k.id', 'k.runAt']));
    const all = members.slice(1).reduce((u, m) => u.unionAll(m), members[0]!);
    return this.byIds(eb, this.db.selectFrom(all.as('c')).select('c.id').orderBy('c.runAt').orderBy('c.id').limit(max));
  }

  /** The `limit` oldest due jobs among `names`, locked on PostgreSQL (rows another claim holds are skipped). */
  private oldestDue(names: readonly string[], limit: number, now: number) {
    const q = this.db.selectFrom('jobs').where(this.due(names, now)).orderBy('runAt').orderBy('id').limit(limit);
    return this.kind === 'postgres' ? q.forUpdate().skipLocked() : q;
  }

  private due(names: readonly string[], now: number) {
    return (eb: ExpressionBuilder<Database, 'jobs'>) =>
      eb.and([
        eb('name', 'in', names),
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('runAt', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('leaseUntil', '<', now)]),
        ]),
      ]);
  }

  /** What claiming writes on the picked row: running, one more attempt, leased to `workerId`. */
  private taken(workerId: string, leaseMs: number, now: number) {
    return (eb: ExpressionBuilder<Database, 'jobs'>) => ({
      status: 'running' as const,
      attempts: eb('attempts', '+', 1),
      leaseUntil: now + leaseMs,
      lockedBy: workerId,
      claimedAt: now,
      updatedAt: iso(now),
    });
  }

  /** Renews the lease; false when this worker no longer owns the job (expired and taken, cancelled, deleted). */
  async heartbeat(job: Pick<ClaimedJob, 'id' | 'lockedBy'>, leaseMs: number): Promise<boolean> {
    const now = this.now();
    const r = await this.db
      .updateTable('jobs')
      .set({ leaseUntil: now + leaseMs, updatedAt: iso(now) })
      .where('id', '=', job.id)
      .where('lockedBy', '=', job.lockedBy)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Marks the job done (only if this worker still owns it). */
  async complete(job: Pick<ClaimedJob, 'id' | 'lockedBy'>): Promise<boolean> {
    return (await this.completeMany(job.lockedBy, [job.id])).has(job.id);
  }

  /**
   * Marks done, in one statement, those of the jobs `ids` that `lockedBy` still owns (running under its lease);
   * answers their ids. A job that was taken over, cancelled or deleted meanwhile is left as it is.
   */
  async completeMany(lockedBy: string, ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const r = await this.db
      .updateTable('jobs')
      .set({ status: 'done', leaseUntil: null, lastError: null, updatedAt: iso(this.now()) })
      .where('id', 'in', ids)
      .where('lockedBy', '=', lockedBy)
      .where('status', '=', 'running')
      .returning('id')
      .execute();
    return new Set(r.map((row) => row.id));
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
    const r = await this.dying(dead, undefined, (exec) =>
      exec
        .updateTable('jobs')
        .set({
          status: dead ? 'dead' : 'queued',
          runAt: dead ? sql<number>`run_at` : now + backoff(job.attempts),
          leaseUntil: null,
          lockedBy: null,
          lastError: error.slice(0, 2000),
          updatedAt: iso(now),
        })
        .where('id', '=', job.id)
        .where('lockedBy', '=', job.lockedBy)
        .where('status', '=', 'running')
        .returning(['name', 'payload'])
        .executeTakeFirst(),
    );
    return r ? (dead ? 'dead' : 'queued') : undefined;
  }

  /** Gives a job back without counting the attempt (graceful shutdown): queued, due now. */
  async release(job: Pick<ClaimedJob, 'id' | 'lockedBy'>): Promise<void> {
    const now = this.now();
    await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        attempts: sql<number>`CASE WHEN ${eb.ref('attempts')} > 0 THEN ${eb.ref('attempts')} - 1 ELSE 0 END`,
        runAt: now,
        leaseUntil: null,
        lockedBy: null,
        updatedAt: iso(now),
      }))
      .where('id', '=', job.id)
      .where('lockedBy', '=', job.lockedBy)
      .where('status', '=', 'running')
      .execute();
  }

  /**
   * Moves a queued job's run_at to now (an operator's "retry now"), only while it is still queued: a job a
   * worker has claimed meanwhile is left to it (compare-and-set on status). Answers whether it was moved.
   */
  async runNow(key: string, trx?: Exec): Promise<boolean> {
    const now = this.now();
    const r = await (trx ?? this.db)
      .updateTable('jobs')
      .set({
        runAt: sql<number>`CASE WHEN run_at > ${sql.lit(now)} THEN ${sql.lit(now)} ELSE run_at END`,
        updatedAt: iso(now),
      })
      .where('key', '=', key)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Removes a job by key (its work was cancelled); a worker running it loses its lease at the next heartbeat. */
  async cancel(key: string, trx?: Exec): Promise<void> {
    await (trx ?? this.db).deleteFrom('jobs').where('key', '=', key).execute();
  }

  /**
   * Removes up to `batch` jobs of `status` (done or dead) last changed before `before` (epoch ms), in one short
   * statement of its own so no worker ever waits long on it; answers how many. Served by the index jobs_finished
   * (status, updated_at). On PostgreSQL rows another transaction holds are skipped, so concurrent prunes (one per
   * worker process) never queue behind each other.
   */
  async prune(status: 'done' | 'dead', before: number, batch: number): Promise<number> {
    const ids = this.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', status)
      .where('updatedAt', '<', iso(before))
      .limit(batch);
    const r = await this.db
      .deleteFrom('jobs')
      .where((eb) => this.byIds(eb, this.kind === 'postgres' ? ids.forUpdate().skipLocked() : ids))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
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

/** A job's run_at (epoch ms), refused when it is not a date. */
function runAtOf(key: string, at: Date): number {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`job ${key}: run_at is not a date`);
  return ms;
}

/** A queued job's row: its payload checked against the job's schema, the attempts its retry policy allows. */
function jobRow<P>(job: JobSpec<string, P>, key: string, payload: P, runAt: number, now: number) {
  return {
    name: job.name,
    key,
    payload: JSON.stringify(job.payload.parse(payload)),
    status: 'queued' as 'queued' | 'dead',
    maxAttempts: attemptsOf(job.retry),
    runAt,
    stalls: 0,
    progressMark: null as string | null,
    lastError: null as string | null,
    createdAt: iso(now),
    updatedAt: iso(now),
  };
}
