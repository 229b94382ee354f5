import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import type { DbKind } from '../server/db/index';
import type { TestDb } from '../tests/helpers/db';

/** The password every benchmark's seeded users sign in with. */
export const BENCH_PASSWORD = 'bench-pass';

/** The APP_KEY of benchApp's server (a seed seals platform tokens with it). */
export const BENCH_APP_KEY = 'bench-app-key-0123456789abcdefghijkl';

export type BenchApp = {
  app: FastifyInstance;
  /** Refreshes the query planner's statistics once the seed is in (`vacuum analyze` / `analyze`). */
  analyze: () => Promise<unknown>;
  /** The `Authorization` value of `login` signed in with BENCH_PASSWORD. */
  bearer: (login: string) => Promise<string>;
};

/**
 * The API (no panel, no workers) over a benchmark's own database, as the read benchmarks measure it through
 * app.inject. On PostgreSQL the keys must be given (every process sharing the database uses the same ones).
 */
export async function benchApp(tdb: TestDb, kind: DbKind): Promise<BenchApp> {
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      DATA_DIR: tdb.dataDir,
      WORKERS: 'off',
      JWT_SECRET: 'x'.repeat(40),
      APP_KEY: BENCH_APP_KEY,
      ...(tdb.url ? { DATABASE_URL: tdb.url } : {}),
    } as any,
    { panelDir: '/nonexistent' },
  );
  const app = await buildApp({ config, db: tdb.db, dbKind: kind });
  return {
    app,
    analyze: () =>
      tdb.db.executeQuery({
        sql: kind === 'postgres' ? 'vacuum analyze' : 'analyze',
        parameters: [],
        query: null,
      } as any),
    bearer: async (login) => {
      const r = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login, password: BENCH_PASSWORD },
      });
      return `Bearer ${JSON.parse(r.body).accessToken}`;
    },
  };
}
