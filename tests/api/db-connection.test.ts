import { sql } from 'kysely';
import { createDb } from '../../server/db/index';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

describe.skipIf(!pgOk)('PostgreSQL connection loss', () => {
  let tdb: TestDb;
  beforeAll(async () => {
    tdb = await makeTestDb('postgres');
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('an idle connection killed by the server is reported, not fatal, and the next query reconnects', async () => {
    const errors: Error[] = [];
    const { db } = createDb({ databaseUrl: tdb.url!, sqliteFile: '' }, (err) => errors.push(err));
    try {
      const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const victim = pid.rows[0]!.pid;
      await sql`select pg_terminate_backend(${victim})`.execute(tdb.db);
      await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5000 });
      expect(errors[0]!.message).toMatch(/terminat/i);
      const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      expect(again.rows[0]!.pid).not.toBe(victim);
    } finally {
      await db.destroy();
    }
  });
});
