import { CompiledQuery, sql } from 'kysely';
import type { Db, DbKind } from '../../server/db/index';

/**
 * The plan the database chooses for a compiled query, as text (PostgreSQL's EXPLAIN, SQLite's EXPLAIN QUERY PLAN).
 * On PostgreSQL sequential scans are priced out for the one statement: a test's tables are small enough to be read
 * whole as cheaply, so a plan that still reads one whole has no index to use.
 */
export async function planOf(db: Db, kind: DbKind, query: { compile(): CompiledQuery }): Promise<string> {
  const compiled = query.compile();
  return db.transaction().execute(async (trx) => {
    if (kind === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
    const explain = kind === 'postgres' ? 'explain ' : 'explain query plan ';
    const rows = await trx.executeQuery(CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]));
    return JSON.stringify(rows.rows);
  });
}
