import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import type { Database } from './types.js';
import { migrations } from './migrations/index.js';

export type Db = Kysely<Database>;
export type DbKind = 'sqlite' | 'postgres';

// PostgreSQL returns BIGINT (count(*)) as text by default; the numbers we count fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * `onPoolError` hears errors of idle PostgreSQL connections (server restart, terminated backend): without a
 * listener pg's pool would crash the process; the pool drops the broken client and opens a new one on demand.
 */
export function createDb(
  opts: { databaseUrl?: string; sqliteFile: string },
  onPoolError: (err: Error) => void = (err) =>
    process.stderr.write(`PostgreSQL idle connection error: ${err.message}\n`),
): { db: Db; kind: DbKind } {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    pool.on('error', onPoolError);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] }),
      kind: 'postgres',
    };
  }
  ownerOnly(opts.sqliteFile);
  const sqlite = new SQLite(opts.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  // SQLite creates the WAL and shared-memory files with the database file's mode; ones left by an older start
  // keep theirs.
  for (const side of ['-wal', '-shm']) if (existsSync(opts.sqliteFile + side)) chmodSync(opts.sqliteFile + side, 0o600);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's lower() folds ASCII only; PostgreSQL's folds every script. Same SQL, same answers ('Київ' → 'київ').
  sqlite.function('lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
  return {
    db: new Kysely<Database>({
      dialect: new SqliteDialect({ database: cacheStatements(sqlite) }),
      plugins: [new CamelCasePlugin()],
    }),
    kind: 'sqlite',
  };
}

/**
 * The database holds password hashes, sealed secrets and session hashes: like the key files, readable by the
 * owner only (mode 600). A new file is created so; an existing one is narrowed to it.
 */
function ownerOnly(file: string): void {
  if (!file || file === ':memory:') return;
  if (existsSync(file)) chmodSync(file, 0o600);
  else closeSync(openSync(file, 'a', 0o600));
}

/**
 * Kysely's SQLite driver prepares every statement on every call; preparing costs about as much as running
 * a small query. Reuse prepared statements by SQL text (Kysely runs one query at a time on the connection,
 * so a cached statement is never busy). Bounded, oldest dropped first.
 */
function cacheStatements(sqlite: SQLite.Database, max = 1000): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
    }
    return stmt;
  }) as typeof sqlite.prepare;
  return sqlite;
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`);
  }
}
