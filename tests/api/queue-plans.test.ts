// Every query the job runner runs in a loop (claim, batch claim, lease renewal, completion and failure, the
// stalled-successor lookup, the prune), the Jobs screen's summary and a post's next-step lookup (the publishing
// chain's step and its job) is served by an index on both databases (issue 20 item 4):
// the real queries, captured as the queue and the Jobs repository send them, are EXPLAINed on a table of 20,000
// jobs; a full scan of `jobs` (or of `video_publishes`) fails the test. docs/operations.md shows these plans.
import { CompiledQuery, Migrator, sql, type KyselyPlugin, type Migration } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import type { Db, DbKind } from '../../server/db/index';
import { JobQueue, defineJob } from '../../server/jobs/index';
import { JobsRepository } from '../../server/operations/jobs.repository';
import { PublishingRepository } from '../../server/publishing/publishing.repository';
import { VideosRepository } from '../../server/videos/videos.repository';
import { migrations } from '../../server/db/migrations/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { fillJobs } from '../helpers/jobs-fill';

const pgOk = await postgresAvailable();
const render = defineJob({ name: 'video.render', payload: z.object({}) });
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** The statements `db` sends while `work` runs, as compiled (SQL and parameters). */
async function captured(db: Db, work: (spy: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  const seen: CompiledQuery[] = [];
  const spy: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      seen.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await work(db.withPlugin(spy));
  return seen;
}

/** A plan's lines, and whether one of them reads the whole jobs table (or walks a whole index of it). */
type Plan = { lines: string[]; fullScan: boolean };

/** The tables a plan must never read whole. */
const TABLES = ['jobs', 'video_publishes'];

async function sqlitePlan(db: Db, q: CompiledQuery): Promise<Plan> {
  const r = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
  );
  const lines = r.rows.map((row) => row.detail);
  return { lines, fullScan: lines.some((l) => /^SCAN (jobs|video_publishes)\b/.test(l)) };
}

type PgNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgNode[];
};

async function postgresPlan(client: pg.Client, q: CompiledQuery): Promise<Plan> {
  const r = await client.query(`EXPLAIN (FORMAT JSON) ${q.sql}`, [...q.parameters]);
  const lines: string[] = [];
  let fullScan = false;
  const walk = (n: PgNode, depth: number) => {
    const on = n['Index Name'] ? ` using ${n['Index Name']}` : n['Relation Name'] ? ` on ${n['Relation Name']}` : '';
    lines.push(`${'  '.repeat(depth)}${n['Node Type']}${on}${n['Index Cond'] ? ` (${n['Index Cond']})` : ''}`);
    const onJobs = TABLES.includes(n['Relation Name'] ?? '') || n['Node Type'] === 'Bitmap Index Scan';
    if (onJobs && n['Node Type'] === 'Seq Scan') fullScan = true;
    if (onJobs && /Index/.test(n['Node Type']) && n['Node Type'] !== 'Bitmap Heap Scan' && !n['Index Cond'])
      fullScan = true;
    for (const c of n.Plans ?? []) walk(c, depth + 1);
  };
  walk((r.rows[0]['QUERY PLAN'] as { Plan: PgNode }[])[0]!.Plan, 0);
  return { lines, fullScan };
}

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`the queue's loop queries use indexes [${kind}]`, () => {
    let tdb: TestDb;
    let client: pg.Client | undefined;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
      await fillJobs(tdb.db, kind, {
        rows: 20_000,
        mix: 'mixed',
        prefix: 'plans',
        runAt: NOW - 3_600_000,
        updatedAt: new Date(NOW - 30 * 86_400_000).toISOString(),
      });
      if (kind === 'postgres') {
        client = new pg.Client({ connectionString: tdb.url });
        await client.connect();
        // A table this small could be read whole as cheaply: with sequential scans priced out, a plan that still
        // reads it whole has no index to use.
        await client.query('SET enable_seqscan = off');
      }
    });
    afterAll(async () => {
      await client?.end();
      await tdb?.drop();
    });

    it('claim, batch claim, lease renewal, completion, failure, release, the stalled lookup, the prune, the summary, the next step', async () => {
      let clock = NOW;
      const queries = await captured(tdb.db, async (spy) => {
        const queue = new JobQueue(spy, kind, () => clock);
        const view = new JobsRepository(spy, () => clock);
        await queue.enqueue(render, {}, { key: 'plans:new' });
        const job = (await queue.claim('w1', ['video.render', 'publication.publish'], 60_000))!;
        await queue.heartbeat(job, 60_000);
        await queue.stalledSuccessors(job);
        await queue.complete(job);
        const batch = await queue.claimMany(
          'w1',
          {
            names: ['video.render', 'publication.publish', 'publication.stats'],
            max: 8,
            perKind: { 'video.render': 2 },
          },
          60_000,
        );
        await queue.completeMany(
          'w1',
          batch.map((j) => j.id),
        );
        const again = (await queue.claim('w1', ['video.render'], 60_000))!;
        await queue.fail(again, 'boom', () => 1000);
        const third = (await queue.claim('w1', ['publication.stats'], 60_000))!;
        await queue.release(third);
        clock += 1;
        await queue.prune('done', NOW - 7 * 86_400_000, 500);
        await queue.prune('dead', NOW - 7 * 86_400_000, 500);
        await view.counts();
        await view.oldestDue();
        await new PublishingRepository(spy, new VideosRepository(spy)).stepJob(1);
      });
      const report: string[] = [];
      const scans: string[] = [];
      for (const q of queries) {
        const plan = kind === 'postgres' ? await postgresPlan(client!, q) : await sqlitePlan(tdb.db, q);
        report.push(q.sql, ...plan.lines.map((l) => `  ${l}`));
        if (plan.fullScan) scans.push(`${q.sql}\n  ${plan.lines.join('\n  ')}`);
      }
      if (process.env.PRINT_PLANS) console.log(`[${kind}]\n${report.join('\n')}`);
      expect(queries.length).toBeGreaterThanOrEqual(17);
      expect(scans, `full scans of jobs:\n${scans.join('\n')}`).toEqual([]);
    });
  });
}

const OURS = ['jobs_finished', 'jobs_kinds', 'jobs_leases'];

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`migration 025 [${kind}]`, () => {
    let tdb: TestDb;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => {
      await tdb?.drop();
    });

    const indexes = async () => {
      const r =
        kind === 'postgres'
          ? await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'jobs'`.execute(
              tdb.db,
            )
          : await sql<{
              name: string;
            }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs'`.execute(tdb.db);
      return r.rows
        .map((row) => row.name)
        .filter((n) => OURS.includes(n))
        .sort();
    };

    it('down removes the job indexes, up adds them back', async () => {
      const names = Object.keys(migrations);
      const before = names[names.indexOf('025_job_indexes') - 1]!;
      const migrator = new Migrator({
        db: tdb.db,
        provider: { getMigrations: async () => migrations as Record<string, Migration> },
      });
      expect(await indexes()).toEqual(OURS);
      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      expect(await indexes()).toEqual([]);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await indexes()).toEqual(OURS);
    });
  });
}
