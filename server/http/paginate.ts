import type { SelectQueryBuilder } from 'kysely';
import { PAGE_SIZE, type Page } from '../../src/contract/pagination';

/** Kysely's output type of a query that selects nothing yet. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Kysely's own type for "no columns"
type NoColumns = {};

/** The column the page's rows carry the list's total in; taken off before `map` sees a row. */
const TOTAL = 'paginateTotal';

/**
 * Runs a list query as one page plus its total, in ONE statement: the count of `base` (FROM/WHERE only, no
 * joins or columns, so the database counts through its narrowest index) is an uncorrelated scalar subquery
 * of the page query, which both databases evaluate once. One statement instead of two keeps a request to one
 * pool connection and one round trip (PostgreSQL) and one turn of the single connection (SQLite), which is
 * what decides latency under concurrent load; a window `count(*) over ()` would instead make the database
 * build the whole joined, sorted list before it could return the first row. `select` adds the columns and
 * ORDER BY. A page past the end has no row to carry the total, so only then the count runs on its own.
 */
export async function paginate<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, NoColumns>,
  page: number,
  select: (q: SelectQueryBuilder<DB, TB, NoColumns>) => SelectQueryBuilder<DB, TB, O>,
  map: (row: O) => R,
  pageSize = PAGE_SIZE,
  /** false when `select` already narrows to the page's rows (a deferred join, see paginateByKeys). */
  offsetRows = true,
): Promise<Page<R>> {
  const count = () => base.select((eb) => eb.fn.countAll<number>().as('total'));
  const paged = select(base)
    .select(() => count().as(TOTAL))
    .limit(pageSize);
  const rows = (await (offsetRows ? paged.offset((page - 1) * pageSize) : paged).execute()) as Array<
    O & { [TOTAL]: number | string }
  >;
  const total = Number(
    rows.length
      ? rows[0]![TOTAL]
      : page === 1
        ? 0
        : ((await count().executeTakeFirstOrThrow()) as { total: number | string }).total,
  );
  const data = rows.map(({ [TOTAL]: _total, ...row }) => map(row as O));
  return { data, page, totalPages: Math.ceil(total / pageSize), total };
}

/**
 * A deferred join for big tables with wide rows: the page's keys are picked from `base` alone (its filter
 * and `keyOrder`, so the database can answer from a narrow covering index), and only those rows are then read
 * in full, joined and ordered by `select`. Same envelope as paginate(); `select` must re-apply the order.
 */
export function paginateByKeys<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, NoColumns>,
  page: number,
  keys: (q: SelectQueryBuilder<DB, TB, NoColumns>) => SelectQueryBuilder<DB, TB, { key: number }>,
  select: (
    q: SelectQueryBuilder<DB, TB, NoColumns>,
    pageKeys: SelectQueryBuilder<DB, TB, { key: number }>,
  ) => SelectQueryBuilder<DB, TB, O>,
  map: (row: O) => R,
  pageSize = PAGE_SIZE,
): Promise<Page<R>> {
  const pageKeys = keys(base)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return paginate(base, page, (q) => select(q, pageKeys), map, pageSize, false);
}
