import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { Container, ContainerOverrides } from '../../server/container';
import type { DbKind } from '../../server/db/index';
import type { Role } from '../../src/contract/roles';
// The app's decorations (its route list, the JWT signer) as the server's own modules declare them.
import type {} from '../../server/http/openapi';
import type {} from '@fastify/jwt';
import { insertUser, makeTestDb, postgresAvailable, type TestDb } from './db';

export type TestCtx = {
  app: FastifyInstance;
  /** The app's composition root (server/container.ts): services, repositories, the job queue and runners. */
  root: Container;
  tdb: TestDb;
  /** Creates a user straight in the database and returns its id. */
  createUser: (login: string, password: string, role?: Role) => Promise<number>;
  /** Signs in through the API and returns the bearer header plus tokens. */
  login: (
    login: string,
    password: string,
  ) => Promise<{ headers: { authorization: string }; accessToken: string; refreshToken: string; userId: number }>;
  /** app.inject with a JSON body and optional bearer token; returns status and parsed body. */
  call: (
    opts: InjectOptions & { token?: { authorization: string } },
  ) => Promise<{ status: number; body: any; headers: Record<string, any> }>;
};

/**
 * Runs `fn` once per database kind (SQLite, and PostgreSQL when it answers) with a fresh app on a fresh
 * database for the whole describe block.
 */
const pgOk = await postgresAvailable();

/** The APP_KEY every test app seals its secrets with. */
export const TEST_APP_KEY = 'test-app-key-0123456789abcdefghijkl';

export function describeEachDb(
  name: string,
  fn: (ctx: TestCtx) => void,
  /** Config overrides, or a function giving each database's run its own (e.g. its own simulators). */
  configOverrides: Partial<Config> | ((kind: DbKind) => Promise<Partial<Config>>) = {},
  rootOverrides: ContainerOverrides = {},
) {
  for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
    describe.skipIf(kind === 'postgres' && !pgOk)(`${name} [${kind}]`, () => {
      const ctx = {} as TestCtx;
      beforeAll(async () => {
        const overrides = typeof configOverrides === 'function' ? await configOverrides(kind) : configOverrides;
        ctx.tdb = await makeTestDb(kind);
        Object.assign(ctx, await startTestApp(ctx.tdb, overrides, rootOverrides));
      });
      afterAll(async () => {
        await ctx.app?.close();
        await ctx.tdb?.drop();
      });
      fn(ctx);
    });
  }
}

/**
 * The app on the database `tdb` (made by makeTestDb, or one a test prepared itself), with the tests' fixed
 * secrets and no workers; the caller closes `app` and drops `tdb`.
 */
export async function startTestApp(
  tdb: TestDb,
  configOverrides: Partial<Config> = {},
  rootOverrides: ContainerOverrides = {},
): Promise<TestCtx> {
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'x'.repeat(40),
      APP_KEY: TEST_APP_KEY,
      DATA_DIR: tdb.dataDir,
      WORKERS: 'off',
      // Tests schedule at fixed dates years ahead (exact UTC conversions to assert): a horizon wide enough
      // for them. tests/api/publications-dates.test.ts sets the horizon it checks.
      PUBLISH_HORIZON_DAYS: '36500',
    } as any,
    {
      panelDir: '/nonexistent',
      databaseUrl: tdb.url,
      ...configOverrides,
    },
  );
  const app = await buildApp({ config, db: tdb.db, dbKind: tdb.kind }, rootOverrides);
  const call: TestCtx['call'] = async ({ token, ...opts }) => {
    const res = await app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ?? {}) } });
    let body: any = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
  return {
    app,
    root: app.root,
    tdb,
    call,
    createUser: (login, password, role) => insertUser(tdb.db, login, password, role),
    async login(login, password) {
      const r = await call({ method: 'POST', url: '/api/auth/login', payload: { login, password } });
      if (r.status !== 200) throw new Error(`login ${login} failed: ${r.status} ${JSON.stringify(r.body)}`);
      return {
        headers: { authorization: `Bearer ${r.body.accessToken}` },
        accessToken: r.body.accessToken,
        refreshToken: r.body.refreshToken,
        userId: r.body.user.id,
      };
    },
  };
}
