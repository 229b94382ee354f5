import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { startTestApp, TEST_APP_KEY, type TestCtx } from '../helpers/app';
import { createPgDatabase, makeTestDb, postgresAvailable } from '../helpers/db';
import { recordEvents, renderEvent } from '../helpers/events';
import { publicationFixtures } from './publications.fixtures';
import { schedule } from './publish.fixtures';
import { createDb } from '../../server/db/index';
import { DbMoveError, moveDatabase, type DbMoveReport } from '../../server/maintenance/db-move';

const pgOk = await postgresAvailable();
const fileHash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe.skipIf(!pgOk)('db:move: an embedded SQLite installation to PostgreSQL', () => {
  let source: TestCtx;
  let sqliteFile: string;
  let before: string;
  let target: { url: string; drop: () => Promise<void> };
  let report: DbMoveReport;
  let moved: TestCtx;
  /** The ids the seed used, the highest of each table's included (a deleted user's id among them). */
  const seed = { annaId: 0, mainProfile: 0, requestId: 0, publicationId: 0, highestUserId: 0, highestAccountId: 0 };
  const scratch = mkdtempSync(join(tmpdir(), 'kadr-db-move-'));

  beforeAll(async () => {
    source = await startTestApp(await makeTestDb('sqlite', { sqliteFile: 'kadr.sqlite' }));
    sqliteFile = join(source.tdb.dataDir, 'kadr.sqlite');
    const fx = publicationFixtures(source);
    await source.createUser('boss', 'boss-pass', 'admin');
    const { anna, annaId, main } = await fx.annaWithProfiles();
    Object.assign(seed, { annaId, mainProfile: main });
    // A profile with its own secrets (sealed by the API), beside the connected platforms' sealed tokens.
    const withSecrets = await source.call({
      method: 'POST',
      url: '/api/accounts',
      token: anna,
      payload: {
        proxy: 'http://proxy-user:proxy-pass-3b1c@127.0.0.1:3128',
        comments: 'Secrets',
        YouTubePassword: 'yt-pass-61aa',
      },
    });
    expect(withSecrets.status).toBe(201);
    seed.highestAccountId = withSecrets.body.id;
    seed.requestId = (await fx.request(annaId, 3)).id;
    const clip = join(scratch, 'clip.mp4');
    writeFileSync(clip, 'not really a video');
    const scheduled = await schedule(source, {
      userId: annaId,
      accountId: main,
      clip,
      platforms: ['youtube', 'tiktok'],
      date: new Date('2031-05-01T09:00:00Z'),
    });
    seed.publicationId = scheduled.publicationId;
    await recordEvents(source.root, renderEvent(annaId, { id: seed.requestId, status: 'success' }, 'render.finished'));
    // A user made and deleted: SQLite never hands its id out again, nor may PostgreSQL after the move.
    seed.highestUserId = await source.createUser('gone', 'gone-pass');
    await source.tdb.db.deleteFrom('users').where('id', '=', seed.highestUserId).execute();

    await source.app.close();
    await source.tdb.db.destroy(); // the installation is stopped before its move
    before = fileHash(sqliteFile);
    target = await createPgDatabase();
    report = await moveDatabase({ sqliteFile, databaseUrl: target.url, batchRows: 2 });

    const { db } = createDb({ databaseUrl: target.url, sqliteFile: '' });
    const dataDir = mkdtempSync(join(tmpdir(), 'kadr-db-moved-'));
    moved = await startTestApp({
      db,
      kind: 'postgres',
      url: target.url,
      dataDir,
      drop: async () => {
        await db.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    });
  });
  afterAll(async () => {
    await moved?.app.close();
    await moved?.tdb.drop();
    await target?.drop();
    rmSync(source.tdb.dataDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('copies every table with the same row count, and leaves the SQLite file as it was', async () => {
    const sqlite = new SQLite(sqliteFile, { readonly: true });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const count = (table: string) =>
        (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
      for (const { table, rows } of report.tables) {
        expect(rows, table).toBe(count(table));
        const there = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`);
        expect(there.rows[0]!.n, table).toBe(rows);
      }
      const seeded = Object.fromEntries(report.tables.map((t) => [t.table, t.rows]));
      for (const table of [
        'users',
        'accounts',
        'account_platforms',
        'create_video_requests',
        'videos',
        'publications',
        'video_publishes',
        'jobs',
        'events',
        'settings',
      ])
        expect(seeded[table], table).toBeGreaterThan(0);
      expect(report.version).toBe(
        (sqlite.prepare('SELECT max(name) AS v FROM kysely_migration').get() as { v: string }).v,
      );
    } finally {
      sqlite.close();
      await client.end();
    }
    expect(fileHash(sqliteFile)).toBe(before);
  });

  it('the app on PostgreSQL opens the sealed secrets with the same APP_KEY, signs in and lists what was there', async () => {
    const profile = await moved.tdb.db
      .selectFrom('accounts')
      .select(['proxySealed', 'youTubePasswordSealed'])
      .where('id', '=', seed.highestAccountId)
      .executeTakeFirstOrThrow();
    expect(moved.root.sealer.open(profile.proxySealed!)).toBe('http://proxy-user:proxy-pass-3b1c@127.0.0.1:3128');
    expect(moved.root.sealer.open(profile.youTubePasswordSealed!)).toBe('yt-pass-61aa');
    const tokens = await moved.tdb.db
      .selectFrom('accountPlatforms')
      .select('tokensSealed')
      .where('accountId', '=', seed.mainProfile)
      .where('platform', '=', 'youtube')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(moved.root.sealer.open(tokens.tokensSealed!))).toMatchObject({ accessToken: 'a' });

    const anna = (await moved.login('anna', 'anna-pass')).headers;
    const profiles = await moved.call({ method: 'GET', url: '/api/accounts', token: anna });
    expect(profiles.status).toBe(200);
    expect(profiles.body.data.map((p: { comments: string }) => p.comments).sort()).toEqual(['Full', 'Main', 'Secrets']);
    const requests = await moved.call({ method: 'GET', url: '/api/create-video', token: anna });
    expect(requests.body.data.map((r: { id: number }) => r.id)).toContain(seed.requestId);
    const publications = await moved.call({ method: 'GET', url: '/api/upload-video', token: anna });
    expect(publications.body.data.map((p: { id: number }) => p.id)).toContain(seed.publicationId);
    const admin = (await moved.login('boss', 'boss-pass')).headers;
    const jobs = await moved.call({ method: 'GET', url: '/api/jobs', token: admin });
    expect(jobs.status).toBe(200);
    expect(jobs.body.total).toBeGreaterThan(0);
  });

  it('a row added after the move gets a fresh id (the sequences are past every id SQLite used)', async () => {
    expect(await moved.createUser('new', 'new-pass')).toBe(seed.highestUserId + 1);
    const anna = (await moved.login('anna', 'anna-pass')).headers;
    const created = await moved.call({
      method: 'POST',
      url: '/api/accounts',
      token: anna,
      payload: { proxy: 'http://127.0.0.1:3128', comments: 'After' },
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toBe(seed.highestAccountId + 1);
  });

  it('refuses a target that has rows, and changes nothing there', async () => {
    const users = await moved.tdb.db.selectFrom('users').select('id').execute();
    await expect(moveDatabase({ sqliteFile, databaseUrl: target.url })).rejects.toThrow(DbMoveError);
    await expect(moveDatabase({ sqliteFile, databaseUrl: target.url })).rejects.toThrow(/not empty \(rows in .*users/);
    expect(await moved.tdb.db.selectFrom('users').select('id').execute()).toEqual(users);
  });

  it('a move that fails leaves the target without rows and names the table; fixed, it runs again', async () => {
    const broken = await makeTestDb('sqlite', { sqliteFile: 'kadr.sqlite' });
    const empty = await createPgDatabase();
    try {
      const userId = await (async () => {
        const at = new Date().toISOString();
        const r = await broken.db
          .insertInto('users')
          .values({ login: 'olha', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      })();
      // SQLite keeps text in an integer column; PostgreSQL refuses it, after `users` was copied.
      await sql`INSERT INTO user_limits (user_id, kind, count, until_ms) VALUES (${userId}, 'renders', 'many', 1)`.execute(
        broken.db,
      );
      const file = join(broken.dataDir, 'kadr.sqlite');
      await expect(moveDatabase({ sqliteFile: file, databaseUrl: empty.url })).rejects.toThrow(
        /^user_limits: invalid input syntax for type integer/,
      );
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      try {
        const users = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
        expect(users.rows[0]!.n).toBe(0);
        await broken.db.updateTable('userLimits').set({ count: 3 }).execute();
        const again = await moveDatabase({ sqliteFile: file, databaseUrl: empty.url });
        expect(again.tables.find((t) => t.table === 'user_limits')?.rows).toBe(1);
        const limits = await client.query<{ count: number }>('SELECT count FROM user_limits');
        expect(limits.rows).toEqual([{ count: 3 }]);
      } finally {
        await client.end();
      }
    } finally {
      await broken.drop();
      await empty.drop();
    }
  });

  it('npm run db:move: moves to the URL given, never prints its password, and refuses to merge', async () => {
    const empty = await createPgDatabase();
    // The test server trusts local connections: any password is accepted, and must not be shown.
    const withPassword = empty.url.replace(/\/\/([^:/@]+)(:[^@]*)?@/, '//$1:pw-7f3e1c@');
    const command = () =>
      new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/db-move.ts', '--to', withPassword], {
          env: {
            ...process.env,
            DATA_DIR: source.tdb.dataDir,
            DATABASE_URL: '',
            APP_KEY: TEST_APP_KEY,
            JWT_SECRET: 'x'.repeat(40),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.stderr.on('data', (d: Buffer) => (out += d));
        child.once('error', reject);
        child.once('exit', (code) => resolve({ code, out }));
      });
    try {
      const first = await command();
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain('row counts match');
      expect(first.out).toMatch(/DATABASE_URL=postgres:\/\/[^:/@]+:…@/);
      const second = await command();
      expect(second.code, second.out).toBe(1);
      expect(second.out).toMatch(/db:move: the target database is not empty/);
      expect(first.out + second.out).not.toContain('pw-7f3e1c');
    } finally {
      await empty.drop();
    }
  });
});
