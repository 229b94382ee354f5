import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { hashPassword } from '../server/auth/password';
import { makeTestDb } from '../tests/helpers/db';

/** The profiles list with 10,000 profiles: GET /api/accounts?page=N latency (target p99 ≤ 20 ms on SQLite). */
export async function accountsBench(): Promise<void> {
  const tdb = await makeTestDb('sqlite');
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: tdb.dataDir, WORKERS: 'off' } as any, {
    panelDir: '/nonexistent',
  });
  const app = await buildApp({ config, db: tdb.db, dbKind: 'sqlite' });
  try {
    const at = new Date().toISOString();
    const mk = async (login: string, role: 'admin' | 'user') =>
      (
        await tdb.db
          .insertInto('users')
          .values({ login, passwordHash: await hashPassword('bench-pass'), role, createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    await mk('benchadmin', 'admin');
    const ownerId = await mk('benchuser', 'user');
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      userId: ownerId,
      createdAt: at,
      comments: `profile ${i}`,
      proxySealed: 's1.x',
      status: 'noactive',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await tdb.db
        .insertInto('accounts')
        .values(rows.slice(i, i + 500) as any)
        .execute();
    for (const who of ['benchadmin', 'benchuser']) {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: who, password: 'bench-pass' },
      });
      const authorization = `Bearer ${login.json().accessToken}`;
      const times: number[] = [];
      for (let n = 0; n < 500; n++) {
        const t = performance.now();
        const r = await app.inject({
          method: 'GET',
          url: `/api/accounts?page=${1 + ((n * 37) % 1000)}`,
          headers: { authorization },
        });
        times.push(performance.now() - t);
        if (r.statusCode !== 200) throw new Error(`GET /api/accounts → ${r.statusCode}`);
      }
      times.sort((a, b) => a - b);
      const q = (p: number) => times[Math.floor(times.length * p)]!.toFixed(2);
      console.log(
        `accounts  GET /api/accounts?page=N, 10,000 profiles, ${who === 'benchadmin' ? 'admin' : 'user '}: p50 ${q(0.5)} ms  p99 ${q(0.99)} ms  (target p99 ≤ 20 ms)`,
      );
    }
  } finally {
    await app.close();
    await tdb.drop();
  }
}
