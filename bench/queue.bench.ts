import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../server/db/index';
import { fillJobs } from '../tests/helpers/jobs-fill';
import { makeTestDb, postgresAvailable, type TestDb } from '../tests/helpers/db';
import { noopJob } from './queue-noop';

/**
 * The queue's own ceiling (issue 20, targets): no-op jobs claimed and finished by 1, 2 and 4 worker processes (real
 * child processes, bench/queue-worker.process.ts, each running up to CONCURRENCY at once) on PostgreSQL, on an
 * empty queue table and on one holding 1,000,000 finished jobs, runs interleaved (every count on both tables in
 * each round), medians printed as jobs/s. Every job must have run exactly once: the ids the workers report are
 * checked for duplicates and gaps.
 */
const JOBS = Number(process.env.BENCH_QUEUE_JOBS ?? 2000);
const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 3);
const FINISHED = Number(process.env.BENCH_QUEUE_FINISHED ?? 1_000_000);
const CONCURRENCY = 8;
const PROCESSES = [1, 2, 4];

type Worker = { child: ChildProcess; ran: Promise<number[]> };

/** Starts a worker process on `url`; resolves once it polls. */
function startWorker(url: string): Promise<Worker> {
  const child = fork(resolve('bench/queue-worker.process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: url, CONCURRENCY: String(CONCURRENCY) },
  });
  const ran = new Promise<number[]>((ok, fail) => {
    child.on('message', (m) => {
      if (typeof m === 'object' && m !== null && 'ran' in m) ok((m as { ran: number[] }).ran);
    });
    child.on('exit', (code) => fail(new Error(`queue worker exited (${code}) before reporting`)));
  });
  ran.catch(() => {}); // read by the caller; a worker that exits early fails that read
  return new Promise((ok, fail) => {
    child.once('message', (m) => (m === 'ready' ? ok({ child, ran }) : fail(new Error(String(m)))));
    child.once('error', fail);
  });
}

/** Queues `n` no-op jobs due now in one statement; answers their ids. */
async function enqueue(db: Db, run: string, n: number): Promise<number[]> {
  const at = new Date().toISOString();
  const r = await sql<{ id: number }>`
    INSERT INTO jobs (name, key, payload, status, attempts, max_attempts, run_at, stalls, created_at, updated_at)
    SELECT ${noopJob.name}, CAST(${`bench:${run}:`} AS text) || CAST(i AS text), '{}', 'queued', 0, 1,
           CAST(${Date.now()} AS bigint), 0, ${at}, ${at}
    FROM generate_series(1, ${n}) AS i
    RETURNING id`.execute(db);
  return r.rows.map((row) => Number(row.id));
}

/** Jobs still queued or running (the index jobs_kinds serves this). */
async function left(db: Db): Promise<number> {
  const r = await sql<{ n: string }>`
    SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running') AND name = ${noopJob.name}`.execute(db);
  return Number(r.rows[0]!.n);
}

/** One run: `processes` workers take JOBS jobs; jobs/s from the enqueue to the last one done, and the check. */
async function run(tdb: TestDb, label: string, processes: number): Promise<number> {
  const workers = await Promise.all(Array.from({ length: processes }, () => startWorker(tdb.url!)));
  const started = performance.now();
  const ids = await enqueue(tdb.db, label, JOBS);
  while ((await left(tdb.db)) > 0) await new Promise((r) => setTimeout(r, 10));
  const seconds = (performance.now() - started) / 1000;
  for (const w of workers) w.child.send('stop');
  const ran = (await Promise.all(workers.map((w) => w.ran))).flat();
  const twice = ran.length - new Set(ran).size;
  const missing = ids.filter((id) => !ran.includes(id)).length;
  if (twice || missing || ran.length !== JOBS)
    throw new Error(`${label}: ${twice} jobs ran twice, ${missing} never ran (${ran.length} runs of ${JOBS} jobs)`);
  await sql`DELETE FROM jobs WHERE status = 'done' AND name = ${noopJob.name}`.execute(tdb.db);
  return JOBS / seconds;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function queueBench(): Promise<void> {
  if (!(await postgresAvailable())) {
    console.log('queue: PostgreSQL did not answer at 127.0.0.1:5432, skipped');
    return;
  }
  const empty = await makeTestDb('postgres');
  const full = await makeTestDb('postgres');
  try {
    const t0 = performance.now();
    await fillJobs(full.db, 'postgres', {
      rows: FINISHED,
      mix: 'done',
      prefix: 'finished',
      runAt: Date.now() - 86_400_000,
      updatedAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    await sql`VACUUM ANALYZE jobs`.execute(full.db);
    console.log(
      `queue: ${FINISHED.toLocaleString('en')} finished jobs inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
        `${JOBS} no-op jobs per run, ${CONCURRENCY} at once per worker process, ${ROUNDS} interleaved rounds`,
    );
    const tables = [
      { name: 'empty table', tdb: empty },
      { name: `${FINISHED.toLocaleString('en')} finished`, tdb: full },
    ];
    const rates = new Map<string, number[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const processes of PROCESSES) {
        for (const table of tables) {
          const key = `${processes}|${table.name}`;
          const rate = await run(table.tdb, `r${round}p${processes}${table.tdb === full ? 'f' : 'e'}`, processes);
          rates.set(key, [...(rates.get(key) ?? []), rate]);
        }
      }
    }
    console.log(`| worker processes | empty table, jobs/s | with ${tables[1]!.name}, jobs/s | ratio |`);
    console.log('| ---------------- | ------------------- | ------------------------ | ----- |');
    for (const processes of PROCESSES) {
      const e = median(rates.get(`${processes}|${tables[0]!.name}`)!);
      const f = median(rates.get(`${processes}|${tables[1]!.name}`)!);
      console.log(`| ${processes} | ${e.toFixed(0)} | ${f.toFixed(0)} | ${(f / e).toFixed(2)} |`);
    }
    console.log(
      `queue: every job ran exactly once in all ${ROUNDS * PROCESSES.length * 2} runs (medians of ${ROUNDS}).`,
    );
  } finally {
    await empty.drop();
    await full.drop();
  }
}
