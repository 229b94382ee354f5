import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Insertable, Kysely } from 'kysely';
import { hashPassword } from '../../server/auth/password';
import type { Role } from '../../src/contract/roles';
import { createDb, migrateToLatest, type Db, type DbKind } from '../../server/db/index';
import type { CreateVideoRequestsTable } from '../../server/db/types';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let pgAvailable: Promise<boolean> | undefined;
/** Whether a PostgreSQL answers. In CI its absence is an error, never a silent skip. */
export function postgresAvailable(): Promise<boolean> {
  return (pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (err) {
      if (process.env.CI)
        throw new Error(
          `PostgreSQL is required in CI but did not answer at ${PG_ADMIN_URL}: ${(err as Error).message}`,
          { cause: err },
        );
      console.warn(`[tests] PostgreSQL did not answer at ${PG_ADMIN_URL}: its tests are skipped on this machine`);
      return false;
    }
  })());
}

export type TestDb = { db: Db; kind: DbKind; url?: string; dataDir: string; drop: () => Promise<void> };

/**
 * A fresh database of the given kind, plus a temp data dir; `drop` removes both. `sqliteFile` names the SQLite
 * file in the data dir (`kadr.sqlite` for a test that starts Kadr's own commands on it). Migrated unless
 * `migrate` is false (PostgreSQL only: processes started on it migrate it themselves, as in production).
 */
export async function makeTestDb(kind: DbKind, opts: { sqliteFile?: string; migrate?: boolean } = {}): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kadr-test-'));
  if (kind === 'sqlite') {
    const { db } = createDb({ sqliteFile: join(dataDir, opts.sqliteFile ?? 'test.sqlite') });
    await migrateToLatest(db);
    return {
      db,
      kind,
      dataDir,
      drop: async () => {
        await db.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const pgdb = await createPgDatabase();
  const { db } = createDb({ databaseUrl: pgdb.url, sqliteFile: '' });
  if (opts.migrate !== false) await migrateToLatest(db);
  return {
    db,
    kind,
    url: pgdb.url,
    dataDir,
    drop: async () => {
      await db.destroy();
      await pgdb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty PostgreSQL database (no schema); `drop` removes it, ending what connections are left. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kadr_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      // A pg pool ends its connections without waiting for them to close: give them a moment, so that the
      // forced drop terminates only a connection someone left open (its pool then reports it).
      for (let i = 0; i < 40; i++) {
        const open = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (open.rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The user signed in as `login` (seeded by the test or the bench): their row's id. */
export const userByLogin = (db: Db, login: string): Promise<{ id: number }> =>
  db.selectFrom('users').select('id').where('login', '=', login).executeTakeFirstOrThrow();

/**
 * A post published at `at`: video `videoId` on `platform` through profile `accountId` (stats tests read it). Typed
 * loosely so that a migration test can insert it into an older schema too.
 */
export async function insertPublishedPost(
  db: Db | Kysely<any>,
  p: { videoId: number; accountId: number; platform: string; at: string },
): Promise<number> {
  const row = await (db as Kysely<any>)
    .insertInto('videoPublishes')
    .values({
      videoId: p.videoId,
      platform: p.platform,
      accountId: p.accountId,
      state: 'published',
      dueAt: p.at,
      publishedAt: p.at,
      videoVersion: 1,
      createdAt: p.at,
      updatedAt: p.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as number;
}

/**
 * A finished create-video request of `userId` (no render runs; its clip at `clips/<idUpload>.mp4`), straight in the
 * database; `fields` overrides any column. Typed loosely so that a migration test can insert it into an older schema.
 */
export async function insertRequest(
  db: Db | Kysely<any>,
  userId: number,
  idUpload: string,
  fields: Partial<Insertable<CreateVideoRequestsTable>> = {},
): Promise<number> {
  const at = new Date().toISOString();
  const row = await (db as Kysely<any>)
    .insertInto('createVideoRequests')
    .values({
      userId,
      idUpload,
      status: 'success',
      count: 1,
      isVideo: 0,
      isPhoto: 0,
      isGenerator: 0,
      folders: '[]',
      clipKey: `clips/${idUpload}.mp4`,
      clipName: 'clip.mp4',
      error: null,
      createdAt: at,
      updatedAt: at,
      ...fields,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as number;
}

/** A user inserted as the first-admin setup or an admin would make one (password hashed); its id. */
export async function insertUser(db: Db, login: string, password: string, role: Role = 'user'): Promise<number> {
  const at = new Date().toISOString();
  const row = await db
    .insertInto('users')
    .values({ login, passwordHash: await hashPassword(password), role, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
