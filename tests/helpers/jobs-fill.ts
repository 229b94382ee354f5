import { sql } from 'kysely';
import type { Db, DbKind } from '../../server/db/index';

/** The statuses a filled row gets by its number: mostly done, with some dead, queued and running ones. */
export type FillMix = 'done' | 'mixed';

/**
 * Inserts `rows` jobs in one statement (PostgreSQL generate_series, SQLite a recursive CTE), spread over five
 * kinds, keys `fill:<prefix>:<n>`, last changed at `updatedAt` (ISO) and due at `runAt` + n. `mixed` makes every
 * hundredth row dead, queued (due) or running (its lease expired at `runAt`); `done` makes them all done.
 */
export async function fillJobs(
  db: Db,
  kind: DbKind,
  opts: { rows: number; mix: FillMix; prefix: string; runAt: number; updatedAt: string },
): Promise<void> {
  const numbers =
    kind === 'postgres'
      ? sql`SELECT generate_series(1, ${opts.rows}) AS i`
      : sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${opts.rows}) SELECT i FROM n`;
  const status =
    opts.mix === 'done'
      ? sql`'done'`
      : sql`CASE i % 100 WHEN 0 THEN 'dead' WHEN 1 THEN 'queued' WHEN 2 THEN 'running' ELSE 'done' END`;
  const lease =
    opts.mix === 'done' ? sql`NULL` : sql`CASE i % 100 WHEN 2 THEN CAST(${opts.runAt} AS bigint) ELSE NULL END`;
  await sql`
    INSERT INTO jobs (name, key, payload, status, attempts, max_attempts, run_at, lease_until, locked_by, last_error,
                      stalls, created_at, updated_at)
    SELECT CASE i % 5 WHEN 0 THEN 'video.render' WHEN 1 THEN 'publication.publish' WHEN 2 THEN 'publication.stats'
                      WHEN 3 THEN 'accounts.keep-alive' ELSE 'ai.video.generate' END,
           CAST(${`fill:${opts.prefix}:`} AS text) || CAST(i AS text), '{}', ${status}, 1, 3,
           CAST(${opts.runAt} AS bigint) + i, ${lease},
           NULL, NULL, 0, ${opts.updatedAt}, ${opts.updatedAt}
    FROM (${numbers}) AS numbers`.execute(db);
  await sql`ANALYZE jobs`.execute(db);
}
