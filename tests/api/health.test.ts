// GET /health/live and GET /health/ready (issue 20 item 3): without authentication on the API's port; ready is
// 503 naming what failed when the database is closed or the storage (local disk or S3) does not answer.
import { rmSync, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildHealthApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { DbKind } from '../../server/db/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';

const pgOk = await postgresAvailable();
let s3: S3TestServer | undefined;
afterAll(async () => {
  await s3?.stop();
});

/** An app on a fresh database of `kind` with the given environment on top of the tests' usual one. */
async function appOn(kind: DbKind, env: Record<string, string> = {}) {
  const tdb = await makeTestDb(kind);
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'x'.repeat(40),
      APP_KEY: 'test-app-key-0123456789abcdefghijkl',
      DATA_DIR: tdb.dataDir,
      PROCESS_ROLE: 'api',
      ...env,
    },
    { panelDir: '/nonexistent', databaseUrl: tdb.url },
  );
  const app = await buildApp({ config, db: tdb.db, dbKind: kind });
  return { app, tdb };
}

const get = async (app: FastifyInstance, url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as unknown };
};

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`health endpoints [${kind}]`, () => {
    let app: FastifyInstance;
    let tdb: TestDb;
    beforeAll(async () => {
      ({ app, tdb } = await appOn(kind));
    });
    afterAll(async () => {
      await app?.close();
      await tdb?.drop();
    });

    it('answers live and ready without a token', async () => {
      expect(await get(app, '/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await get(app, '/health/ready')).toEqual({ status: 200, body: { status: 'ok', failed: [] } });
    });

    it("a worker's health app serves the same two paths and nothing else", async () => {
      const health = await buildHealthApp(app.root);
      try {
        expect(await get(health, '/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
        expect(await get(health, '/health/ready')).toEqual({ status: 200, body: { status: 'ok', failed: [] } });
        expect((await get(health, '/api/auth/me')).status).toBe(404);
        expect((await get(health, '/api/openapi.json')).status).toBe(404);
      } finally {
        await health.close();
      }
    });

    it('ready is 503 naming the database once the database is closed; live stays 200', async () => {
      const own = await appOn(kind);
      try {
        await own.tdb.db.destroy();
        expect(await get(own.app, '/health/ready')).toEqual({
          status: 503,
          body: { status: 'unavailable', failed: ['database'] },
        });
        expect(await get(own.app, '/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
      } finally {
        await own.app.close();
        await own.tdb.drop();
      }
    });

    it('ready is 503 naming the storage when the local media folder cannot be read', async () => {
      const own = await appOn(kind);
      try {
        // The media folder replaced by a file under the running app: every read of it fails.
        rmSync(own.app.config.mediaDir, { recursive: true, force: true });
        writeFileSync(own.app.config.mediaDir, 'not a folder');
        expect(await get(own.app, '/health/ready')).toEqual({
          status: 503,
          body: { status: 'unavailable', failed: ['storage'] },
        });
      } finally {
        await own.app.close();
        await own.tdb.drop();
      }
    });

    it('on S3: ready while the bucket answers, 503 naming the storage when it does not, never the error', async () => {
      s3 ??= await startS3Server();
      const bucket = `health-${kind}`;
      await s3.createBucket(bucket);
      const env = (b: string) => ({
        STORAGE: 's3',
        S3_ENDPOINT: s3!.endpoint,
        S3_BUCKET: b,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'kadr-test',
        S3_SECRET_ACCESS_KEY: 'kadr-test-secret',
      });
      const good = await appOn(kind, env(bucket));
      const missing = await appOn(kind, env(`${bucket}-never-made`));
      try {
        expect(await get(good.app, '/health/ready')).toEqual({ status: 200, body: { status: 'ok', failed: [] } });
        const res = await missing.app.inject({ method: 'GET', url: '/health/ready' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ status: 'unavailable', failed: ['storage'] });
        expect(res.body).not.toMatch(/kadr-test-secret|never-made|127\.0\.0\.1/);
      } finally {
        await Promise.all([good.app.close(), missing.app.close()]);
        await Promise.all([good.tdb.drop(), missing.tdb.drop()]);
      }
    });
  });
}
