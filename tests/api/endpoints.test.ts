import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type {} from '../../server/http/openapi';
import { AI_ACTIONS } from '../../src/contract/ai';
import { API } from '../../src/contract/endpoints';
import { PLATFORMS } from '../../src/contract/platforms';
import { POST_ACTIONS } from '../../src/contract/publications';
import { makeTestDb, type TestDb } from '../helpers/db';

/**
 * The panel builds every URL from src/contract/endpoints.ts: each path there is one the server serves, so a route
 * moved on one side only fails here, not in a browser.
 */
let app: FastifyInstance;
let tdb: TestDb;

beforeAll(async () => {
  tdb = await makeTestDb('sqlite');
  const env = { LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(40), APP_KEY: 'k'.repeat(40), DATA_DIR: tdb.dataDir };
  app = await buildApp({
    config: loadConfig({ ...env, WORKERS: 'off' } as any, { panelDir: '/nonexistent' }),
    db: tdb.db,
    dbKind: 'sqlite',
  });
});

afterAll(async () => {
  await app.close();
  await tdb.drop();
});

/** Every path of the table; `:action` is written out, as the server registers one route per action. */
function contractPaths(node: unknown): string[] {
  if (typeof node !== 'string') return Object.values(node as object).flatMap(contractPaths);
  if (node === API.ai.action) return Object.keys(AI_ACTIONS).map((a) => node.replace(':action', a));
  if (node === API.accounts.connect)
    return PLATFORMS.filter((p) => p !== 'youtube').map((p) => node.replace(':platform', p));
  if (node === API.publications.post) return POST_ACTIONS.map((a) => node.replace(':action', a));
  return [node];
}

it('serves every path of the contract', () => {
  const served = new Set(app.apiRoutes.map((r) => r.url));
  const paths = contractPaths(API);
  expect(paths).toContain('/api/ai/setting/login-deepseek');
  expect(paths).toContain('/api/upload-video/video/:videoId/:platform/stats');
  expect(paths.filter((p) => !served.has(p))).toEqual([]);
});
