import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/** Helpers that make one migration produce the same schema on SQLite and PostgreSQL. */
export const isPostgres = <DB>(db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** An auto-incrementing integer primary key named `id`. */
export function withId<DB, T extends string>(db: Kysely<DB>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** ISO-8601 text timestamps sort and compare the same on both databases. */
export const nowIso = () => new Date().toISOString();
export const isoDefault = sql`CURRENT_TIMESTAMP`;
