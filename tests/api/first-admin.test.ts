import { ensureFirstAdmin } from '../../server/users/first-admin';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';
import type { DbKind } from '../../server/db/index';

const pgOk = await postgresAvailable();

/** The first admin when several processes start together on a new database (issue 20: processes on many machines). */
for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`first admin [${kind}]`, () => {
    let tdb: TestDb;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => {
      await tdb?.drop();
    });

    it('is created once when processes starting together all find no user, and none of them fails', async () => {
      const results = await Promise.all(Array.from({ length: 4 }, () => ensureFirstAdmin(tdb.db, { login: 'admin' })));
      const created = results.filter((r) => r !== null);
      expect(created).toHaveLength(1);
      expect(created[0]!.generatedPassword).toEqual(expect.any(String));
      const users = await tdb.db.selectFrom('users').select(['login', 'role']).execute();
      expect(users).toEqual([{ login: 'admin', role: 'admin' }]);
      expect(await ensureFirstAdmin(tdb.db, { login: 'admin' })).toBeNull();
    });
  });
}
