import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { ensureFirstAdmin } from '../../server/users/first-admin';
import type { DbKind } from '../../server/db/index';
import { makeTestDb, type TestDb } from './db';
import { freePort } from './free-port';

export type TestServer = { url: string; app: FastifyInstance; tdb: TestDb; config: Config; close: () => Promise<void> };

/**
 * The real server (built panel + API) on a random port over a fresh database (SQLite unless `kind` says
 * PostgreSQL), with the first admin `admin` / `admin-pass`. `npm test` builds the panel first.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  kind: DbKind = 'sqlite',
): Promise<TestServer> {
  const panelDir = resolve('dist');
  if (!existsSync(resolve(panelDir, 'index.html')))
    throw new Error('The panel is not built: run `npm run build` (npm test does it).');
  const tdb = await makeTestDb(kind);
  // The port is picked first: the configuration (frozen once loaded) names the server's own address.
  const port = overrides.port || (await freePort());
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      DATA_DIR: tdb.dataDir,
      ADMIN_LOGIN: 'admin',
      ADMIN_PASSWORD: 'admin-pass',
      WORKERS: 'off',
      // Given, as PostgreSQL requires (every process sharing the database uses the same keys).
      JWT_SECRET: 'x'.repeat(40),
      APP_KEY: 'test-app-key-0123456789abcdefghijkl',
      ...env,
    } as any,
    { panelDir, port, publicUrl: `http://127.0.0.1:${port}`, databaseUrl: tdb.url, ...overrides },
  );
  await ensureFirstAdmin(tdb.db, config.admin);
  const app = await buildApp({ config, db: tdb.db, dbKind: kind });
  await app.listen({ host: '127.0.0.1', port: config.port });
  const url = `http://127.0.0.1:${config.port}`;
  return {
    url,
    app,
    tdb,
    config,
    close: async () => {
      await app.close();
      await tdb.drop();
    },
  };
}
