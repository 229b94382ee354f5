import type { DbKind } from '../../server/db/index';
import { LoginThrottle } from '../../server/auth/login-throttle';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();

/** The sign-in lock keeps its counts in the database: every API process on it counts together. */
for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`login throttle [${kind}]`, () => {
    let tdb: TestDb;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => clock;
    beforeAll(async () => { tdb = await makeTestDb(kind); });
    afterAll(async () => { await tdb?.drop(); });

    it('two processes share the count; the lock lasts lockSec after the last failure, then counting starts again', async () => {
      const a = new LoginThrottle(tdb.db, 5, 600, now);
      const b = new LoginThrottle(tdb.db, 5, 600, now);
      const keys = ['login:anna', 'ip:203.0.113.9'];
      for (let i = 0; i < 3; i++) await a.fail(keys);
      for (let i = 0; i < 2; i++) await b.fail(keys);
      expect(await a.retryAfter(['login:anna'])).toBe(600);
      expect(await b.retryAfter(keys)).toBe(600);
      expect(await b.retryAfter(['ip:203.0.113.9'])).toBe(0); // an address gets ten times the room
      clock += 599_000;
      expect(await a.retryAfter(keys)).toBe(1);
      clock += 1_000;
      expect(await a.retryAfter(keys)).toBe(0);
      await a.fail(keys); // a new window: one failure is not a lock
      expect(await b.retryAfter(keys)).toBe(0);
    });

    it('an address is locked after 50 failures across logins; success clears only its own keys', async () => {
      const t = new LoginThrottle(tdb.db, 5, 60, now);
      for (let i = 0; i < 50; i++) await t.fail([`login:user${i}`, 'ip:198.51.100.1']);
      expect(await t.retryAfter(['login:someone-else', 'ip:198.51.100.1'])).toBe(60);
      expect(await t.retryAfter(['login:someone-else', 'ip:198.51.100.2'])).toBe(0);
      await t.succeed(['login:user1', 'ip:198.51.100.1']);
      expect(await t.retryAfter(['ip:198.51.100.1'])).toBe(0);
    });
  });
}
