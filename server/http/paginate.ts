import type { SelectQueryBuilder } from 'kysely';
import { PAGE_SIZE, type Page } from '../../src/contract/pagination';

/** Kysely's output type of a query that selects nothing yet. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Kysely's own type for "no columns"
type NoColumns = {};

/**
 * Runs a list query as one page plus a count. `base` carries the FROM/WHERE; `select` adds the columns
 * and ORDER BY. Counting the base (not the selected query) keeps the count cheap.
 */
export async function paginate<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, NoColumns>,
  page: number,
  select: (q: SelectQueryBuilder<DB, TB, NoColumns>) => SelectQueryBuilder<DB, TB, O>,
  map: (row: O) => R,
  pageSize = PAGE_SIZE,
): Promise<Page<R>> {
  const [rows, countRow] = await Promise.all([
    select(base)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const total = Number((countRow as { total: number | string }).total);
  return { data: rows.map(map), page, totalPages: Math.ceil(total / pageSize), total };
}
