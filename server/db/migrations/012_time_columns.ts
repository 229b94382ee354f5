import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 012: every time column that SQL compares or orders by holds epoch milliseconds (integer; PostgreSQL bigint),
 * never ISO text. Text compares as text: '+010000-01-01T00:00:00.000Z' (a valid Date.toISOString() past year
 * 9999) sorts before '2026-…', so a job dated then was due at once, and its handler re-queued it forever.
 * Column names stay; repositories convert at their edge, so API answers keep their ISO strings.
 *
 * Existing values are converted in SQL. A value that does not parse as a date, or lies past 9999-12-31 (where
 * SQLite's date functions end), must not fail the migration; each column says which value it gets then (the
 * `fallback` below), always the side that cannot hide work or keep a session alive:
 * - jobs.run_at → the migration's time: due now, so its handler looks at its own data again and decides (the
 *   queue's stall rule, also added here, bounds a handler that keeps re-queueing it);
 * - jobs.lease_until → 0: expired, so the job is taken over as after a crash;
 * - refresh_tokens.expires_at → 0: expired, the session ends (sign in again);
 * - platform_usage.at → the migration's time: the spent quota still counts in the current window;
 * - events.created_at → the migration's time: pruned with the others after a day;
 * - video_publishes.stats_at → NULL: its stats are read again first.
 *
 * Also the queue's stall rule (server/jobs/queue.ts): jobs.stalls counts successors enqueued without progress
 * along a chain, jobs.progress_mark is the mark of progress the handler gave when it enqueued the job.
 */
type Column = { table: string; column: string; notNull: boolean; fallback: (nowMs: number) => number | null };

export const TIME_COLUMNS: readonly Column[] = [
  { table: 'jobs', column: 'run_at', notNull: true, fallback: (now) => now },
  { table: 'jobs', column: 'lease_until', notNull: false, fallback: () => 0 },
  { table: 'refresh_tokens', column: 'expires_at', notNull: true, fallback: () => 0 },
  { table: 'platform_usage', column: 'at', notNull: true, fallback: (now) => now },
  { table: 'events', column: 'created_at', notNull: true, fallback: (now) => now },
  { table: 'video_publishes', column: 'stats_at', notNull: false, fallback: () => null },
];

/** 9999-12-31T23:59:59.999Z: the last instant SQLite's date functions (and a 4-digit ISO year) can write. */
const MAX_MS = 253402300799999;
const PG_PARSE = 'kadr_012_iso_ms';

const lit = (v: number | null) => (v === null ? sql`NULL` : sql.lit(v));

/** ISO text → epoch ms, or the fallback when unparseable or out of range; NULL stays NULL. */
function toMs(db: Kysely<any>, col: string, fallback: number | null): RawBuilder<unknown> {
  const c = sql.ref(col);
  if (isPostgres(db)) return sql`${sql.raw(PG_PARSE)}(${c}, ${lit(fallback)})`;
  // julianday() is NULL for text it cannot read (including years past 9999 and a leading '+').
  const ms = sql`CAST(ROUND((julianday(${c}) - 2440587.5) * 86400000) AS INTEGER)`;
  return sql`CASE WHEN ${c} IS NULL THEN NULL WHEN julianday(${c}) IS NULL OR ${ms} > ${sql.lit(MAX_MS)} THEN ${lit(fallback)} ELSE ${ms} END`;
}

/** Epoch ms → ISO text as Date.toISOString() writes it (for down). */
function toIso(db: Kysely<any>, col: string): RawBuilder<unknown> {
  const c = sql.ref(col);
  if (isPostgres(db))
    return sql`to_char(to_timestamp(${c} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${c} / 1000.0, 'unixepoch')`;
}

export async function up(db: Kysely<any>): Promise<void> {
  const now = Date.now();
  if (isPostgres(db)) {
    // A cast that fails raises; this function answers the fallback instead. Dropped again below.
    await sql
      .raw(
        `CREATE FUNCTION ${PG_PARSE}(t text, fallback bigint) RETURNS bigint AS $$
         DECLARE ms bigint;
         BEGIN
           IF t IS NULL THEN RETURN NULL; END IF;
           ms := round(extract(epoch FROM t::timestamptz) * 1000)::bigint;
           IF ms > ${MAX_MS} THEN RETURN fallback; END IF;
           RETURN ms;
         EXCEPTION WHEN others THEN RETURN fallback;
         END $$ LANGUAGE plpgsql`,
      )
      .execute(db);
    for (const c of TIME_COLUMNS)
      await sql`ALTER TABLE ${sql.table(c.table)} ALTER COLUMN ${sql.ref(c.column)} TYPE bigint USING ${toMs(db, c.column, c.fallback(now))}`.execute(
        db,
      );
    await sql.raw(`DROP FUNCTION ${PG_PARSE}(text, bigint)`).execute(db);
  } else {
    for (const table of new Set(TIME_COLUMNS.map((c) => c.table))) {
      const cols = TIME_COLUMNS.filter((c) => c.table === table);
      await rebuildSqlite(
        db,
        table,
        cols.map((c) => ({ column: c.column, from: 'text', to: 'integer', notNull: c.notNull })),
        Object.fromEntries(cols.map((c) => [c.column, toMs(db, c.column, c.fallback(now))])),
      );
    }
  }
  await db.schema
    .alterTable('jobs')
    .addColumn('stalls', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('jobs').addColumn('progress_mark', 'varchar(200)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('progress_mark').execute();
  await db.schema.alterTable('jobs').dropColumn('stalls').execute();
  if (isPostgres(db)) {
    for (const c of TIME_COLUMNS)
      await sql`ALTER TABLE ${sql.table(c.table)} ALTER COLUMN ${sql.ref(c.column)} TYPE text USING ${toIso(db, c.column)}`.execute(
        db,
      );
    return;
  }
  for (const table of new Set(TIME_COLUMNS.map((c) => c.table))) {
    const cols = TIME_COLUMNS.filter((c) => c.table === table);
    await rebuildSqlite(
      db,
      table,
      cols.map((c) => ({ column: c.column, from: 'integer', to: 'text', notNull: c.notNull })),
      Object.fromEntries(cols.map((c) => [c.column, toIso(db, c.column)])),
    );
  }
}

/**
 * SQLite cannot change a column's type: the table is rebuilt from its own CREATE statement with the columns'
 * types replaced, the rows copied through `convert`, and its indexes created again (as 009 does). Foreign keys
 * are off meanwhile (the migrator runs SQLite migrations outside a transaction) and checked afterwards.
 */
async function rebuildSqlite(
  db: Kysely<any>,
  table: string,
  changes: { column: string; from: string; to: string; notNull: boolean }[],
  convert: Record<string, RawBuilder<unknown>>,
): Promise<void> {
  const created = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db);
  const indexes = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL`.execute(db);
  const info = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db);
  const temp = `${table}_012`;
  let create = created.rows[0]!.sql;
  for (const ch of changes) {
    const nn = ch.notNull ? ' not null' : '';
    const from = new RegExp(`"${ch.column}" ${ch.from}${nn}(?=[,)])`, 'i');
    if (!from.test(create)) throw new Error(`${table}.${ch.column}: unexpected definition`);
    create = create.replace(from, `"${ch.column}" ${ch.to}${nn}`);
  }
  create = create.replace(new RegExp(`^CREATE TABLE "?${table}"?`, 'i'), `CREATE TABLE "${temp}"`);
  const names = info.rows.map((r) => r.name);
  const select = sql.join(names.map((n) => convert[n] ?? sql.ref(n)));
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql.raw(create).execute(db);
    await sql`INSERT INTO ${sql.table(temp)} (${sql.join(names.map((n) => sql.ref(n)))}) SELECT ${select} FROM ${sql.table(table)}`.execute(
      db,
    );
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(temp)} RENAME TO ${sql.table(table)}`.execute(db);
    for (const i of indexes.rows) await sql.raw(i.sql).execute(db);
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length) throw new Error(`${table} rebuild broke a foreign key`);
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
