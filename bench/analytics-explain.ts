import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { AnalyticsRepository } from '../server/analytics/analytics.repository';
import { AnalyticsService } from '../server/analytics/analytics.service';
import type { DbKind } from '../server/db/index';
import type { Database } from '../server/db/types';
import type { AnalyticsPeriod } from '../src/contract/analytics';
import type { AuthUser } from '../src/contract/auth';
import type { TestDb } from '../tests/helpers/db';

/**
 * The dashboard's queries as `AnalyticsService.dashboard` makes them for `user` over `days`, each with its plan
 * (PostgreSQL: `EXPLAIN (ANALYZE, BUFFERS)`; SQLite: `EXPLAIN QUERY PLAN`) and its median time over 20 runs, so a
 * slow figure names its query (ANALYTICS_BENCH_EXPLAIN=1 prints this after the seed).
 */
export async function explainDashboard(tdb: TestDb, kind: DbKind, user: AuthUser, days: AnalyticsPeriod) {
  const queries: CompiledQuery[] = [];
  const log = (e: { query: CompiledQuery }) => void queries.push(e.query);
  const sqlite = kind === 'sqlite' ? new SQLite(join(tdb.dataDir, 'test.sqlite'), { readonly: true }) : undefined;
  const pool = kind === 'postgres' ? new pg.Pool({ connectionString: tdb.url, max: 2 }) : undefined;
  const db = new Kysely<Database>({
    dialect: sqlite ? new SqliteDialect({ database: sqlite }) : new PostgresDialect({ pool: pool! }),
    plugins: [new CamelCasePlugin()],
    log,
  });
  try {
    await new AnalyticsService(new AnalyticsRepository(db)).dashboard(user, days);
    const seen = [...queries];
    console.log(`analytics  EXPLAIN ${kind} ${user.role} ${days} days: ${seen.length} queries`);
    for (const [i, q] of seen.entries()) {
      const times: number[] = [];
      for (let r = 0; r < 20; r++) {
        const t = performance.now();
        if (sqlite) sqlite.prepare(q.sql).all(...(q.parameters as unknown[]));
        else await pool!.query(q.sql, q.parameters as unknown[]);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(
        `-- query ${i + 1}: median ${times[10]!.toFixed(2)} ms\n${q.sql}\n   ${JSON.stringify(q.parameters)}`,
      );
      if (sqlite) {
        const plan = sqlite.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as {
          detail: string;
        }[];
        console.log(plan.map((p) => `   ${p.detail}`).join('\n'));
      } else {
        const plan = await pool!.query(`explain (analyze, buffers) ${q.sql}`, q.parameters as unknown[]);
        console.log(plan.rows.map((r) => `   ${r['QUERY PLAN']}`).join('\n'));
      }
    }
  } finally {
    await db.destroy();
  }
}
