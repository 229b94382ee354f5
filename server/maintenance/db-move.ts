import SQLite from 'better-sqlite3';
import { Migrator, type Migration } from 'kysely';
import pg from 'pg';
import { createDb } from '../db/index';
import { migrations } from '../db/migrations/index';

/** Kysely's own bookkeeping: the target gets its rows from its own migration run. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMS = 65_535;

export type DbMoveReport = {
  /** The last migration both databases are at. */
  version: string;
  /** Rows per table, in the order they were copied (equal on both sides: the move checks it). */
  tables: { table: string; rows: number }[];
};

export class DbMoveError extends Error {}

/**
 * Moves an embedded installation's rows from its SQLite file to an empty PostgreSQL database
 * (`npm run db:move`): the target is migrated to the source's version, every table is copied in foreign-key
 * order (parents first) in batches, the id sequences are set past the highest id each table has used, and the
 * row count of every table is compared; all of it in one transaction on the target, so a failed move leaves it
 * without rows. The source is opened read-only and read from one snapshot; it is never written.
 */
export async function moveDatabase(opts: {
  sqliteFile: string;
  databaseUrl: string;
  /** Rows per INSERT (at most what fits PostgreSQL's parameter limit). */
  batchRows?: number;
  log?: (line: string) => void;
}): Promise<DbMoveReport> {
  const log = opts.log ?? (() => {});
  const source = new SQLite(opts.sqliteFile, { readonly: true, fileMustExist: true });
  try {
    source.exec('BEGIN'); // one read snapshot for every table and count
    const version = sourceVersion(source);
    await refuseNonEmpty(opts.databaseUrl);
    await migrateTarget(opts.databaseUrl, version);
    log(`target migrated to ${version}`);

    const client = new pg.Client({ connectionString: opts.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      const tables = await copyOrder(client, source);
      const report: DbMoveReport = { version, tables: [] };
      for (const table of tables) {
        const rows = await copyTable(client, source, table, opts.batchRows ?? 1000);
        const there = await countOf(client, table);
        if (there !== rows) throw new DbMoveError(`${table}: ${rows} rows read, ${there} in the target`);
        report.tables.push({ table, rows });
        log(`${table}: ${rows} rows`);
      }
      await resetSequences(client, source);
      await client.query('COMMIT');
      return report;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      await client.end();
    }
  } finally {
    source.close();
  }
}

/** The source's last migration; every migration it ran must be this build's, in this build's order. */
function sourceVersion(source: SQLite.Database): string {
  const ran = (source.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
    (r) => r.name,
  );
  const known = Object.keys(migrations).sort();
  if (!ran.length) throw new DbMoveError('the source database has no migrations: is it a Kadr database?');
  const unknown = ran.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new DbMoveError(`the source has migrations this build does not know (${unknown.join(', ')}): update Kadr`);
  const expected = known.slice(0, known.indexOf(ran[ran.length - 1]!) + 1);
  if (expected.join() !== ran.join())
    throw new DbMoveError(`the source's migrations have gaps (${expected.filter((n) => !ran.includes(n)).join(', ')})`);
  return ran[ran.length - 1]!;
}

/** Tables of the target's schema (without Kysely's own). */
async function targetTables(client: pg.Client): Promise<string[]> {
  const r = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return r.rows.map((t) => t.name).filter((t) => !MIGRATION_TABLES.has(t));
}

/** The target may have a schema (an earlier, failed move leaves one) but no row in any table. */
async function refuseNonEmpty(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const filled: string[] = [];
    for (const table of await targetTables(client)) {
      const r = await client.query(`SELECT 1 FROM ${client.escapeIdentifier(table)} LIMIT 1`);
      if (r.rowCount) filled.push(table);
    }
    if (filled.length)
      throw new DbMoveError(
        `the target database is not empty (rows in ${filled.join(', ')}): give an empty database, the move never merges`,
      );
  } finally {
    await client.end();
  }
}

/** Runs this build's migrations on the target up to `version` (the app's own migrator and connection setup). */
async function migrateTarget(databaseUrl: string, version: string): Promise<void> {
  const { db } = createDb({ databaseUrl, sqliteFile: '' });
  try {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    const done = (await migrator.getMigrations()).filter((m) => m.executedAt).map((m) => m.name);
    if (done.some((n) => n > version))
      throw new DbMoveError(
        `the target is migrated past the source (${done[done.length - 1]}): give an empty database`,
      );
    const { error, results } = await migrator.migrateTo(version);
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed)
      throw new DbMoveError(`migrating the target failed at ${failed?.migrationName ?? '?'}: ${String(error)}`);
  } finally {
    await db.destroy();
  }
}

/**
 * The tables to copy, parents before the tables whose foreign keys point at them (a self-reference is
 * satisfied by copying rows in their insertion order). Both databases must have the same tables.
 */
async function copyOrder(client: pg.Client, source: SQLite.Database): Promise<string[]> {
  const tables = await targetTables(client);
  const inSource = (
    source.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .filter((t) => !MIGRATION_TABLES.has(t));
  const odd = [...inSource.filter((t) => !tables.includes(t)), ...tables.filter((t) => !inSource.includes(t))];
  if (odd.length) throw new DbMoveError(`the databases' tables differ at the same version: ${odd.join(', ')}`);

  const fks = await client.query<{ child: string; parent: string }>(
    `SELECT DISTINCT tc.table_name AS child, ccu.table_name AS parent
       FROM information_schema.table_constraints tc
       JOIN information_schema.constraint_column_usage ccu
         ON ccu.constraint_name = tc.constraint_name AND ccu.constraint_schema = tc.constraint_schema
      WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of fks.rows) if (child !== parent) parents.get(child)?.add(parent);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!ready.length)
      throw new DbMoveError(`foreign keys form a cycle among ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    for (const t of ready) {
      order.push(t);
      placed.add(t);
    }
  }
  return order;
}

/**
 * Copies one table's rows in rowid order, `batchRows` per INSERT. The columns are the target's writable
 * ones: a column PostgreSQL generates itself (011's search columns) is left to it.
 */
async function copyTable(client: pg.Client, source: SQLite.Database, table: string, batchRows: number) {
  const cols = (
    await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
        ORDER BY ordinal_position`,
      [table],
    )
  ).rows.map((c) => c.name);
  const sourceCols = new Set(
    (source.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name),
  );
  const absent = cols.filter((c) => !sourceCols.has(c));
  if (absent.length) throw new DbMoveError(`${table}: the source has no column ${absent.join(', ')}`);

  const q = (id: string) => `"${id.replaceAll('"', '""')}"`;
  const rows = source
    .prepare(`SELECT ${cols.map(q).join(', ')} FROM ${q(table)} ORDER BY rowid`)
    .raw(true)
    .iterate() as IterableIterator<unknown[]>;
  const perInsert = Math.max(1, Math.min(batchRows, Math.floor(MAX_PARAMS / cols.length)));
  const head = `INSERT INTO ${client.escapeIdentifier(table)} (${cols.map((c) => client.escapeIdentifier(c)).join(', ')}) VALUES `;
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    const values = batch.map((_, r) => `(${cols.map((_c, i) => `$${r * cols.length + i + 1}`).join(', ')})`);
    try {
      await client.query(head + values.join(', '), batch.flat());
    } catch (err) {
      // A value SQLite kept that PostgreSQL's column refuses (SQLite's types are only affinities).
      throw new DbMoveError(`${table}: ${(err as Error).message}`, { cause: err });
    }
    copied += batch.length;
    batch = [];
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= perInsert) await flush();
  }
  if (batch.length) await flush();
  const read = (source.prepare(`SELECT count(*) AS n FROM ${q(table)}`).get() as { n: number }).n;
  if (read !== copied) throw new DbMoveError(`${table}: ${read} rows in the source, ${copied} copied`);
  return copied;
}

async function countOf(client: pg.Client, table: string): Promise<number> {
  const r = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${client.escapeIdentifier(table)}`);
  return Number(r.rows[0]!.n);
}

/**
 * Sets each id sequence past the highest id its table has used: the highest row, or SQLite's AUTOINCREMENT
 * record when that is higher (ids of deleted rows are not handed out again, as on SQLite).
 */
async function resetSequences(client: pg.Client, source: SQLite.Database): Promise<void> {
  const serials = await client.query<{ table: string; column: string; seq: string }>(
    `SELECT table_name AS table, column_name AS column,
            pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
  );
  const hasSequenceTable = !!source.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`).get();
  for (const { table, column, seq } of serials.rows) {
    if (!seq || MIGRATION_TABLES.has(table)) continue;
    const used = hasSequenceTable
      ? ((source.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as { seq: number } | undefined)
          ?.seq ?? 0)
      : 0;
    await client.query(
      `SELECT setval($1, GREATEST(COALESCE((SELECT max(${client.escapeIdentifier(column)}) FROM ${client.escapeIdentifier(table)}), 0), $2::bigint) + 1, false)`,
      [seq, used],
    );
  }
}
