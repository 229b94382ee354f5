import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { hashPassword } from '../server/auth/password';
import type { DbKind } from '../server/db/index';
import { PAGE_SIZE } from '../src/contract/pagination';
import { setPlatformStates } from '../tests/helpers/connected-tokens';
import { makeTestDb, postgresAvailable, userByLogin, type TestDb } from '../tests/helpers/db';
import { BENCH_PASSWORD, benchApp } from './bench-app';
import { load, summary } from './http-load';

const PROFILES = 10_000;
const CONCURRENCY = 50;
const DURATION_MS = 3_000; // per side, in ROUNDS alternating rounds
const ROUNDS = 2;

/** A sealed value of about `bytes` characters, shaped like server/crypto/seal.ts output (incompressible). */
const sealed = (bytes: number) => `s1.${randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64url')}`;

/** Each platform's connected flag, from the profile's `account_platforms` row (migration 021). */
const ACTIVE_SQL = (
  [
    ['youtube', 'isActiveYouTube'],
    ['tiktok', 'isActiveTikTok'],
    ['instagram', 'isActiveInstagram'],
  ] as const
)
  .map(
    ([platform, name]) =>
      `coalesce((select ap.active from account_platforms ap where ap.account_id = a.id and ap.platform = '${platform}'), 0) as "${name}"`,
  )
  .join(', ');
/** The list's page as the app asks for it, in plain SQL for the floor (no sealed column is read). */
const PAGE_SQL = `select a.id, a.user_id as "userId", u.login as "ownerLogin", a.comments, a.status, a.id_gpt as "idGpt",
  ${ACTIVE_SQL},
  a.is_active_gpt as "isActiveGpt", a.in_you_tube as "inYouTube",
  a.in_tik_tok as "inTikTok", a.in_instagram as "inInstagram", a.in_gpt as "inGpt", a.title_channel as "titleChannel",
  a.profile_name_instagram as "profileNameInstagram", a.title_tik_tok as "titleTikTok", a.error,
  a.created_at as "createdAt"
  from accounts a join users u on u.id = a.user_id order by a.id desc`;
const COUNT_SQL = 'select count(*) as total from accounts';

/**
 * The profiles list with 10,000 profiles whose sealed columns are filled as a connected profile's are (proxy,
 * passwords, three platforms' OAuth tokens: ~3 KB a row). (1) At 50 concurrent clients, GET /api/accounts?page=1
 * as an admin through the real app over HTTP, next to a floor: the same page and total through the bare driver
 * behind node:http (target: p99 within 2x the floor's), on SQLite and on PostgreSQL. (2) Sequential
 * GET /api/accounts?page=N through app.inject as an admin and as a user (target p99 ≤ 20 ms on SQLite).
 */
export async function accountsBench(): Promise<void> {
  await concurrentCase('sqlite');
  if (await postgresAvailable()) await concurrentCase('postgres');
  else console.log('accounts  PostgreSQL did not answer at 127.0.0.1:5432: its case is skipped');
}

async function seed(tdb: TestDb): Promise<void> {
  const at = new Date().toISOString();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  for (const [login, role] of [
    ['benchadmin', 'admin'],
    ['benchuser', 'user'],
  ] as const)
    await tdb.db.insertInto('users').values({ login, passwordHash, role, createdAt: at, updatedAt: at }).execute();
  const owner = await userByLogin(tdb.db, 'benchuser');
  const rows = Array.from({ length: PROFILES }, (_, i) => ({
    userId: owner.id,
    createdAt: at,
    comments: `profile ${i}`,
    status: 'success',
    proxySealed: sealed(120),
    youTubeAuthClientId: `${i}-client.apps.googleusercontent.com`,
    youTubeAuthClientSecretSealed: sealed(60),
    youTubePasswordSealed: sealed(60),
    instagramPasswordSealed: sealed(60),
    titleChannel: `Channel ${i}`,
    profileNameInstagram: `insta_${i}`,
    titleTikTok: `tiktok_${i}`,
  }));
  for (let i = 0; i < rows.length; i += 250) {
    const added = await tdb.db
      .insertInto('accounts')
      .values(rows.slice(i, i + 250))
      .returning('id')
      .execute();
    await setPlatformStates(
      tdb.db,
      added.flatMap(({ id }) =>
        (['youtube', 'tiktok', 'instagram'] as const).map((platform, n) => ({
          accountId: id,
          platform,
          tokensSealed: sealed([900, 700, 500][n]!),
          active: true,
        })),
      ),
    );
  }
}

/** A bare node:http server answering the same page envelope from the same two statements, run by the driver. */
async function floorServer(tdb: TestDb) {
  const page = `${PAGE_SQL} limit ${PAGE_SIZE} offset `;
  let run: (offset: number) => Promise<{ data: unknown[]; total: number }>;
  let close: () => Promise<void>;
  if (tdb.kind === 'sqlite') {
    const raw = new SQLite(`${tdb.dataDir}/test.sqlite`, { readonly: true });
    const pageStmt = raw.prepare(`${page}?`);
    const countStmt = raw.prepare(COUNT_SQL);
    run = async (offset) => ({ data: pageStmt.all(offset), total: (countStmt.get() as { total: number }).total });
    close = async () => void raw.close();
  } else {
    const pool = new pg.Pool({ connectionString: tdb.url, max: 10 });
    pool.on('error', () => {}); // an idle connection ended by the database's drop
    run = async (offset) => {
      const [rows, count] = await Promise.all([
        pool.query({ name: 'page', text: `${page}$1`, values: [offset] }),
        pool.query({ name: 'count', text: COUNT_SQL }),
      ]);
      return { data: rows.rows, total: Number(count.rows[0].total) };
    };
    close = () => pool.end();
  }
  const server = createServer((req, res) => {
    const n = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? 1);
    run((n - 1) * PAGE_SIZE).then(
      ({ data, total }) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data, page: n, totalPages: Math.ceil(total / PAGE_SIZE), total }));
      },
      (err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.close();
      await close();
    },
  };
}

async function concurrentCase(kind: DbKind): Promise<void> {
  const tdb = await makeTestDb(kind);
  const { app, analyze, bearer } = await benchApp(tdb, kind);
  let floor: Awaited<ReturnType<typeof floorServer>> | undefined;
  try {
    await seed(tdb);
    if (kind === 'postgres') await analyze();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    floor = await floorServer(tdb);
    const tokens: Record<string, string> = {};
    for (const who of ['benchadmin', 'benchuser']) tokens[who] = await bearer(who);
    const auth = { authorization: tokens.benchadmin! };
    const opts = (durationMs: number) => ({ concurrency: CONCURRENCY, durationMs });
    await load(appUrl, '/api/accounts?page=', 1, auth, opts(1_000)); // warm-up (JIT, statement caches)
    await load(floor.url, '/?page=', 1, {}, opts(1_000));
    const oursTimes: number[] = [];
    const baseTimes: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      oursTimes.push(...(await load(appUrl, '/api/accounts?page=', 1, auth, opts(DURATION_MS / ROUNDS))));
      baseTimes.push(...(await load(floor.url, '/?page=', 1, {}, opts(DURATION_MS / ROUNDS))));
    }
    const ours = summary(oursTimes, DURATION_MS);
    const base = summary(baseTimes, DURATION_MS);
    const f = (x: number) => x.toFixed(2).padStart(7);
    const db = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    console.log(
      `accounts  GET /api/accounts?page=1, ${PROFILES} profiles, admin, ${db}, ${CONCURRENCY} clients, ${DURATION_MS / 1000} s each`,
    );
    console.log(
      `accounts  Kadr:  ${ours.rps.toFixed(0).padStart(6)} req/s  p50 ${f(ours.p50)} ms  p99 ${f(ours.p99)} ms`,
    );
    console.log(
      `accounts  floor: ${base.rps.toFixed(0).padStart(6)} req/s  p50 ${f(base.p50)} ms  p99 ${f(base.p99)} ms  (bare driver + node:http)`,
    );
    const ratio = ours.p99 / base.p99;
    console.log(
      `accounts  p99 ${ratio.toFixed(2)}x the floor's (target ≤ 2x: ${ratio <= 2 ? 'ok' : 'MISSED'}), throughput ${((100 * ours.rps) / base.rps).toFixed(0)}% of the floor`,
    );
    if (kind === 'sqlite') {
      for (const who of ['benchadmin', 'benchuser']) {
        const times: number[] = [];
        for (let n = 0; n < 300; n++) {
          const t = performance.now();
          const r = await app.inject({
            method: 'GET',
            url: `/api/accounts?page=${1 + ((n * 37) % (PROFILES / PAGE_SIZE))}`,
            headers: { authorization: tokens[who]! },
          });
          times.push(performance.now() - t);
          if (r.statusCode !== 200) throw new Error(`GET /api/accounts → ${r.statusCode}`);
        }
        const s = summary(times, 1);
        console.log(
          `accounts  sequential GET /api/accounts?page=N, SQLite, ${who === 'benchadmin' ? 'admin' : 'user '}: p50 ${s.p50.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  (target p99 ≤ 20 ms)`,
        );
      }
    }
  } finally {
    await floor?.close();
    await app.close();
    await tdb.drop();
  }
}
