import type { DbKind } from '../../server/db/index';
import { postgresAvailable } from './db';

const pgOk = await postgresAvailable();

/**
 * Browser flows that write run once per database: on SQLite and on PostgreSQL (the same server over the other
 * SQL dialect). Where no PostgreSQL answers, its run is skipped with a message; under CI=true that is a failure
 * (postgresAvailable). Read-only flows stay on SQLite, so the browser suite's time grows only by the writing flows.
 */
export function describeOnEachDb(name: string, fn: (kind: DbKind) => void) {
  for (const kind of ['sqlite', 'postgres'] as const) {
    describe.skipIf(kind === 'postgres' && !pgOk)(`${name} [${kind}]`, () => fn(kind));
  }
}
