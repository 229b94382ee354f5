import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { createDb, migrateToLatest } from '../../server/db/index';

/** Issue 9 item 7: the SQLite database and its WAL/SHM files are readable by the owner only, like the key files. */
describe('SQLite files', () => {
  let dir: string;
  let umask: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kadr-dbfiles-'));
    umask = process.umask(0o022); // the usual default, which would make new files 644
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('creates the database, its WAL and its shared-memory file with mode 600', async () => {
    const file = join(dir, 'kadr.sqlite');
    const { db } = createDb({ sqliteFile: file });
    await migrateToLatest(db);
    await db.insertInto('settings').values({ key: 'probe', value: 'x' }).execute();
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    await db.destroy();
  });

  it('narrows an existing database and the WAL/SHM an older start left to mode 600', async () => {
    const file = join(dir, 'old.sqlite');
    const old = new SQLite(file);
    old.pragma('journal_mode = WAL');
    old.exec('create table t (x integer)');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) chmodSync(f, 0o644);
    const { db } = createDb({ sqliteFile: file });
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    await db.destroy();
    old.close();
  });
});
