import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hashPassword } from '../server/auth/password';
import type { DbKind } from '../server/db/index';
import { setPlatformStates } from '../tests/helpers/connected-tokens';
import { makeTestDb, postgresAvailable, type TestDb } from '../tests/helpers/db';
import { benchApp, BENCH_PASSWORD } from './bench-app';
import { load, summary } from './http-load';

const PROFILES = 10_000;
const SEQUENTIAL = 300; // requests per case
const CONCURRENCY = 10;
const DURATION_MS = 2_000;
const CITIES = ['Київ', 'Львів', 'Одеса', 'Харків', 'Дніпро', 'Запоріжжя', 'Вінниця', 'Полтава', 'Чернігів', 'Суми'];

/** A sealed value of about `bytes` characters (the profile rows are ~3 KB, as connected profiles are). */
const sealed = (bytes: number) => `s1.${randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64url')}`;

/**
 * Issue 11's target: search among 10,000 profiles, p99 ≤ 20 ms. GET /api/accounts?q=… through the real app
 * (app.inject, sequential: the per-request time), as an admin (all 10,000) and as a user (their 5,000), on
 * SQLite and PostgreSQL, for: a rare word (one profile), a common one (1,000 profiles), two letters (too
 * short for a trigram index), a miss, and the name sort (`?sort=name&order=ASC&page=N`). Then the common
 * search at 10 concurrent clients over HTTP. Figures are printed, never asserted.
 */
export async function searchBench(): Promise<void> {
  await benchOn('sqlite');
  if (await postgresAvailable()) await benchOn('postgres');
  else console.log('search  PostgreSQL did not answer at 127.0.0.1:5432: its case is skipped');
}

async function seed(tdb: TestDb): Promise<void> {
  const at = new Date().toISOString();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const ids: number[] = [];
  for (const [login, role] of [
    ['benchadmin', 'admin'],
    ['benchuser', 'user'],
    ['otheruser', 'user'],
  ] as const)
    ids.push(
      (
        await tdb.db
          .insertInto('users')
          .values({ login, passwordHash, role, createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const rows = Array.from({ length: PROFILES }, (_, i) => ({
    userId: ids[1 + (i % 2)]!,
    createdAt: at,
    comments: `Профіль ${i} ${CITIES[i % CITIES.length]} ${i === 4242 ? 'Унікальний' : ''}`.trim(),
    status: 'success',
    proxySealed: sealed(120),
    youTubePasswordSealed: sealed(60),
    titleChannel: i % 3 ? `Канал ${i}` : null,
    profileNameInstagram: `insta_${i}`,
  }));
  for (let i = 0; i < rows.length; i += 250) {
    const added = await tdb.db
      .insertInto('accounts')
      .values(rows.slice(i, i + 250))
      .returning('id')
      .execute();
    // Three platforms' grants, YouTube connected.
    await setPlatformStates(
      tdb.db,
      added.flatMap(({ id }) => [
        { accountId: id, platform: 'youtube' as const, tokensSealed: sealed(900), active: true },
        { accountId: id, platform: 'tiktok' as const, tokensSealed: sealed(700), active: false },
        { accountId: id, platform: 'instagram' as const, tokensSealed: sealed(500), active: false },
      ]),
    );
  }
}

async function benchOn(kind: DbKind): Promise<void> {
  const tdb = await makeTestDb(kind);
  const { app, analyze, bearer: token } = await benchApp(tdb, kind);
  const db = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    await seed(tdb);
    await analyze();
    const who = { admin: await token('benchadmin'), user: await token('benchuser') };
    const cases: Array<[name: string, url: (n: number) => string]> = [
      ['rare word', () => `/api/accounts?q=${encodeURIComponent('унікальний')}`],
      ['common word', () => `/api/accounts?q=${encodeURIComponent('КИЇВ')}`],
      ['two letters', () => `/api/accounts?q=${encodeURIComponent('ів')}`],
      ['no match', () => `/api/accounts?q=${encodeURIComponent('жодного')}`],
      ['sort by name', (n) => `/api/accounts?sort=name&order=ASC&page=${1 + ((n * 37) % 500)}`],
    ];
    console.log(`search  GET /api/accounts, ${PROFILES} profiles (~3 KB rows), ${db}, sequential app.inject`);
    for (const [role, auth] of Object.entries(who)) {
      for (const [name, url] of cases) {
        const times: number[] = [];
        let total = 0;
        for (let n = 0; n < SEQUENTIAL + 20; n++) {
          const t = performance.now();
          const r = await app.inject({ method: 'GET', url: url(n), headers: { authorization: auth } });
          if (n >= 20) times.push(performance.now() - t); // the first 20 warm the statement caches
          if (r.statusCode !== 200) throw new Error(`${url(n)} → ${r.statusCode} ${r.body}`);
          total = JSON.parse(r.body).total;
        }
        const s = summary(times, 1);
        const ok = s.p99 <= 20 ? 'ok' : 'MISSED';
        console.log(
          `search  ${role.padEnd(5)} ${name.padEnd(13)} ${String(total).padStart(5)} found  p50 ${s.p50.toFixed(2).padStart(6)} ms  p99 ${s.p99.toFixed(2).padStart(6)} ms  (target p99 ≤ 20 ms: ${ok})`,
        );
      }
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const path = `/api/accounts?q=${encodeURIComponent('київ')}&page=`;
    const opts = { concurrency: CONCURRENCY, durationMs: DURATION_MS };
    await load(base, path, 100, { authorization: who.admin }, { ...opts, durationMs: 500 });
    const s = summary(await load(base, path, 100, { authorization: who.admin }, opts), DURATION_MS);
    console.log(
      `search  admin common word pages 1-100, ${CONCURRENCY} clients over HTTP, ${db}: ${s.rps.toFixed(0)} req/s  p50 ${s.p50.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms`,
    );
  } finally {
    await app.close();
    await tdb.drop();
  }
}
