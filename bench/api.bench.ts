import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { hashPassword } from '../server/auth/password';
import { PAGE_SIZE } from '../src/contract/pagination';
import { makeTestDb } from '../tests/helpers/db';
import { load as loadWith, summary } from './http-load';

const USERS = 10_000;
const CONCURRENCY = 10;
const DURATION_MS = 5_000;
const ROUNDS = 4; // Kadr and the floor alternate, so a busy moment on the machine hits both alike

const load = (origin: string, path: string, pages: number, headers: Record<string, string>, durationMs = DURATION_MS) =>
  loadWith(origin, path, pages, headers, { concurrency: CONCURRENCY, durationMs });

/** GET /api/users?page=N with 10,000 users on SQLite, next to a floor: the same query through bare node:http. */
export async function apiBench(): Promise<void> {
  const tdb = await makeTestDb('sqlite');
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: tdb.dataDir, WORKERS: 'off' } as any, {
    panelDir: '/nonexistent',
  });
  const app = await buildApp({ config, db: tdb.db, dbKind: 'sqlite' });
  const at = new Date().toISOString();
  const hash = await hashPassword('bench-pass');
  const rows = Array.from({ length: USERS }, (_, i) => ({
    login: i === 0 ? 'benchadmin' : `u${i}`,
    passwordHash: hash,
    role: (i === 0 ? 'admin' : 'user') as 'admin' | 'user',
    createdAt: at,
    updatedAt: at,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await tdb.db
      .insertInto('users')
      .values(rows.slice(i, i + 500))
      .execute();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const token = (
    await (
      await fetch(`${appUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'benchadmin', password: 'bench-pass' }),
      })
    ).json()
  ).accessToken;
  const pages = Math.ceil(USERS / PAGE_SIZE);

  // The floor: the same page + counts + total through better-sqlite3, serialised by a bare node:http server.
  const raw = new SQLite(`${tdb.dataDir}/test.sqlite`, { readonly: true });
  const pageStmt = raw.prepare(`select u.id, u.login, u.role, u.created_at as createdAt,
    (select count(*) from videos v where v.user_id = u.id) as videosCount,
    (select count(*) from accounts a where a.user_id = u.id) as accountsCount
    from users u order by u.id limit ? offset ?`);
  const countStmt = raw.prepare('select count(*) as total from users');
  const floor = createServer((req, res) => {
    const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? 1);
    const data = pageStmt.all(PAGE_SIZE, (page - 1) * PAGE_SIZE);
    const total = (countStmt.get() as { total: number }).total;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data, page, totalPages: Math.ceil(total / PAGE_SIZE), total }));
  });
  await new Promise<void>((r) => floor.listen(0, '127.0.0.1', r));
  const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;

  try {
    const auth = { authorization: `Bearer ${token}` };
    await load(appUrl, '/api/users?page=', pages, auth, 1_500); // warm-up (JIT, statement caches)
    await load(floorUrl, '/?page=', pages, {}, 1_500);
    const oursTimes: number[] = [];
    const baseTimes: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      oursTimes.push(...(await load(appUrl, '/api/users?page=', pages, auth, DURATION_MS / ROUNDS)));
      baseTimes.push(...(await load(floorUrl, '/?page=', pages, {}, DURATION_MS / ROUNDS)));
    }
    const ours = summary(oursTimes, DURATION_MS);
    const base = summary(baseTimes, DURATION_MS);
    const f = (x: number) => x.toFixed(2).padStart(7);
    console.log(
      `api       GET /api/users?page=N, ${USERS} users, SQLite, ${CONCURRENCY} clients, ${DURATION_MS / 1000} s each in ${ROUNDS} alternating rounds`,
    );
    console.log(
      `api       Kadr:  ${ours.rps.toFixed(0).padStart(6)} req/s  p50 ${f(ours.p50)} ms  p99 ${f(ours.p99)} ms`,
    );
    console.log(
      `api       floor: ${base.rps.toFixed(0).padStart(6)} req/s  p50 ${f(base.p50)} ms  p99 ${f(base.p99)} ms  (better-sqlite3 + bare node:http)`,
    );
    const ratio = ours.rps / base.rps;
    console.log(
      `api       throughput ${(100 * ratio).toFixed(0)}% of the floor (target ≥ 70%: ${ratio >= 0.7 ? 'ok' : 'MISSED'}), p99 ${ours.p99.toFixed(1)} ms (target ≤ 20 ms: ${ours.p99 <= 20 ? 'ok' : 'MISSED'})`,
    );
    console.log(
      `api       (logging off in both; load from a worker thread over ${CONCURRENCY} keep-alive connections; random pages)`,
    );
  } finally {
    floor.close();
    raw.close();
    await app.close();
    await tdb.drop();
  }
}
