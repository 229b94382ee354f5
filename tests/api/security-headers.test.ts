import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { makeTestDb, type TestDb } from '../helpers/db';
import { AVATAR_HOSTS } from '../../server/http/security-headers';

/** Security headers and caching of the panel and the API (issue 9, item 6). */
const panelDir = mkdtempSync(join(tmpdir(), 'kadr-panel-'));
mkdirSync(join(panelDir, 'assets'));
writeFileSync(join(panelDir, 'index.html'), '<!doctype html><title>Kadr panel</title>');
const ASSET = 'console.log(1)';
writeFileSync(join(panelDir, 'assets', 'index-abc123.js'), ASSET);
// What the build writes next to each text file (scripts/vite/precompress.ts).
writeFileSync(join(panelDir, 'assets', 'index-abc123.js.br'), brotliCompressSync(ASSET));
writeFileSync(join(panelDir, 'assets', 'index-abc123.js.gz'), gzipSync(ASSET));

let app: FastifyInstance;
let tdb: TestDb;

beforeAll(async () => {
  tdb = await makeTestDb('sqlite');
  const env = {
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(40),
    APP_KEY: 'k'.repeat(40),
    DATA_DIR: tdb.dataDir,
    WORKERS: 'off',
  };
  app = await buildApp({ config: loadConfig(env as any, { panelDir }), db: tdb.db, dbKind: 'sqlite' });
});

afterAll(async () => {
  await app.close();
  await tdb.drop();
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Record<string, string> {
  expect(typeof header).toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]),
  );
}

describe('security headers', () => {
  it.each([
    ['the panel', '/'],
    ['a deep link (SPA fallback)', '/users/5'],
    ['a hashed asset', '/assets/index-abc123.js'],
    ['an API answer', '/api/auth/me'],
    ['an API 404', '/api/nothing-here'],
  ])('%s carries the CSP, nosniff, a referrer policy and no framing', async (_what, url) => {
    const res = await app.inject({ method: 'GET', url });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['script-src']).toBe("'self'");
    expect(csp['default-src']).toBe("'self'");
    expect(csp['img-src']).toBe(`'self' data: blob: ${AVATAR_HOSTS.join(' ')}`);
    expect(AVATAR_HOSTS.every((h) => h.startsWith('https://'))).toBe(true);
    expect(csp['media-src']).toBe("'self' blob:");
    expect(csp['connect-src']).toBe("'self'");
    expect(csp['frame-ancestors']).toBe("'none'");
    expect(csp['object-src']).toBe("'none'");
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('the API docs page keeps a policy Swagger UI works under, and is not framed either', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['script-src']).toMatch(/^'self'/);
    expect(csp['frame-ancestors']).toBe("'none'");
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('caching of the panel', () => {
  it('hashed assets are cached for a year, immutable', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ])(
    'a browser that accepts %s gets the file the build compressed, with the same headers',
    async (encoding, decode) => {
      const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const res = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': `${encoding}, identity` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.rawPayload).toString()).toBe(ASSET);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-type']).toBe(plain.headers['content-type']);
    },
  );

  it('a chunk that is not there is a 404, not the page (a browser would refuse HTML as a script)', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-gone.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Kadr panel');
  });

  it('a panel rebuilt under the running server serves its new chunks', async () => {
    writeFileSync(join(panelDir, 'assets', 'index-rebuilt.js'), 'export const rebuilt = 1;');
    const res = await app.inject({ method: 'GET', url: '/assets/index-rebuilt.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('export const rebuilt = 1;');
  });

  it.each(['/', '/index.html', '/accounts/12'])('%s is revalidated every time (no-cache)', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Kadr panel');
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});
