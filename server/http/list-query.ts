import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { toId } from '../../src/contract/ids';
import type { ListParams, SortOrder } from '../../src/contract/list-queries';

/**
 * Search and sort of the lists (`?q&sort&order`, src/contract/list-queries.ts), the same SQL on SQLite and
 * PostgreSQL. Search is a case-insensitive substring: `lower(column) LIKE '%text%'` (the SQLite connection's
 * lower() folds every script like PostgreSQL's, server/db/index.ts), LIKE's own wildcards in the text escaped.
 * The profile list searches its stored, already lower-cased `search` column instead (migration 011: indexed
 * for 10,000 profiles).
 */

/** `%text%` for LIKE … ESCAPE '\': lower-cased like the columns it meets, `%`, `_` and `\` taken literally. */
export const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The text is in any of `columns` (lower-cased here unless `folded`), or, when it is a number, it is the id. */
export function matchesText(
  q: string,
  columns: readonly string[],
  opts: { id?: string; folded?: boolean } = {},
): Expression<SqlBool> {
  const pattern = containsPattern(q);
  const parts: RawBuilder<SqlBool>[] = columns.map((c) =>
    opts.folded
      ? sql<SqlBool>`${sql.ref(c)} like ${pattern} escape '\\'`
      : sql<SqlBool>`lower(${sql.ref(c)}) like ${pattern} escape '\\'`,
  );
  const id = opts.id && /^#?\d{1,10}$/.test(q) ? toId(q.replace('#', '')) : -1;
  if (opts.id && id > 0) parts.push(sql<SqlBool>`${sql.ref(opts.id)} = ${id}`);
  return parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** What each sort name orders by: a column reference (`table.column`) or an expression. */
export type SortColumns<S extends string> = Record<S, string | Expression<unknown>>;

/**
 * ORDER BY the asked column, then the id in the same direction (a stable order across pages). Without
 * `sort` the list's own default; `sort` without `order` is ascending.
 */
export function orderOf<S extends string>(
  params: Pick<ListParams<S>, 'sort' | 'order'>,
  columns: SortColumns<S>,
  fallback: { sort: S; order: SortOrder },
  idColumn: string,
): Array<[Expression<unknown>, 'asc' | 'desc']> {
  const sort = params.sort ?? fallback.sort;
  const dir = (params.order ?? (params.sort ? 'ASC' : fallback.order)) === 'ASC' ? 'asc' : 'desc';
  const col: string | Expression<unknown> = columns[sort];
  const first: Expression<unknown> = typeof col === 'string' ? sql.ref(col) : col;
  const byId: Expression<unknown> = sql.ref(idColumn);
  return col === idColumn
    ? [[first, dir]]
    : [
        [first, dir],
        [byId, dir],
      ];
}

/**
 * The same order with every term wrapped (`coalesce(x, x)`: same value, but no index matches it): for a
 * filtered key query whose filter is the selective part. SQLite would otherwise walk the table in id order,
 * reading every wide row to test the filter, rather than scan the narrow covering index and sort the matches.
 */
export const unindexed = (order: Array<[Expression<unknown>, 'asc' | 'desc']>) =>
  order.map(([e, d]): [Expression<unknown>, 'asc' | 'desc'] => [sql`coalesce(${e}, ${e})`, d]);

/** Applies `orderOf` to a query builder. */
export function sorted<Q extends { orderBy(e: Expression<unknown>, d: 'asc' | 'desc'): Q }>(
  q: Q,
  order: Array<[Expression<unknown>, 'asc' | 'desc']>,
): Q {
  return order.reduce((acc, [e, d]) => acc.orderBy(e, d), q);
}
