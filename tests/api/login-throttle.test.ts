import type { DbKind } from '../../server/db/index';
import { LoginThrottle } from '../../server/auth/login-throttle';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

const pgOk = await postgresAvailable();
const limits = { maxFailures: 5, lockSec: 600, maxDelayMs: 10_000 };

/** The sign-in throttle keeps its counts in the database: every API process on it counts together. */
for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`login throttle [${kind}]`, () => {
    let tdb: TestDb;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => clock;
    beforeAll(async () => {
      tdb = await makeTestDb(kind);
    });
    afterAll(async () => {
      await tdb?.drop();
    });
    const failed = async (t: LoginThrottle, login: string, address: string) => {
      const wait = await t.reserve({ login, address });
      if (wait === 0) await t.fail({ login, address });
      return wait;
    };

    it('two processes share a pair count; the lock lasts lockSec after the last failure, then counting starts again', async () => {
      const a = new LoginThrottle(tdb.db, limits, now);
      const b = new LoginThrottle(tdb.db, limits, now);
      for (let i = 0; i < 3; i++) expect(await failed(a, 'anna', '203.0.113.9')).toBe(0);
      for (let i = 0; i < 2; i++) expect(await failed(b, 'Anna', '203.0.113.9')).toBe(0);
      expect(await a.reserve({ login: 'anna', address: '203.0.113.9' })).toBe(600);
      // The same login from another address is not locked, only slowed down.
      expect(await b.reserve({ login: 'anna', address: '203.0.113.10' })).toBe(0);
      await b.succeed({ login: 'anna', address: '203.0.113.10' });
      clock += 599_000;
      expect(await a.reserve({ login: 'anna', address: '203.0.113.9' })).toBe(1);
      clock += 1_000;
      expect(await failed(a, 'anna', '203.0.113.9')).toBe(0); // a new window: one failure is not a lock
      expect(await b.reserve({ login: 'anna', address: '203.0.113.9' })).toBe(0);
    });

    it('counts parallel attempts atomically: of 60 at once, only the limit go on', async () => {
      const t = new LoginThrottle(tdb.db, limits, now);
      const waits = await Promise.all(
        Array.from({ length: 60 }, () => t.reserve({ login: 'racer', address: '192.0.2.60' })),
      );
      expect(waits.filter((w) => w === 0)).toHaveLength(5);
      expect(waits.filter((w) => w > 0)).toHaveLength(55);
    });

    it('locks an address after 50 failures across logins; a success there does not clear them', async () => {
      const t = new LoginThrottle(tdb.db, limits, now);
      for (let i = 0; i < 49; i++) expect(await failed(t, `user${i}`, '198.51.100.1')).toBe(0);
      // An attacker's own valid sign-in from that address gives back only its own place.
      expect(await t.reserve({ login: 'mine', address: '198.51.100.1' })).toBe(0);
      await t.succeed({ login: 'mine', address: '198.51.100.1' });
      expect(await failed(t, 'user49', '198.51.100.1')).toBe(0);
      expect(await t.reserve({ login: 'someone-else', address: '198.51.100.1' })).toBe(600);
      expect(await t.reserve({ login: 'someone-else', address: '198.51.100.2' })).toBe(0);
    });

    it('a success clears its own pair only', async () => {
      const t = new LoginThrottle(tdb.db, limits, now);
      for (let i = 0; i < 4; i++) await failed(t, 'pat', '192.0.2.1');
      for (let i = 0; i < 4; i++) await failed(t, 'sam', '192.0.2.1');
      expect(await t.reserve({ login: 'pat', address: '192.0.2.1' })).toBe(0);
      await t.succeed({ login: 'pat', address: '192.0.2.1' });
      for (let i = 0; i < 5; i++) expect(await failed(t, 'pat', '192.0.2.1')).toBe(0);
      expect(await failed(t, 'sam', '192.0.2.1')).toBe(0);
      expect(await t.reserve({ login: 'sam', address: '192.0.2.1' })).toBe(600);
    });

    it('slows a login failing across addresses progressively, up to the cap, without locking it', async () => {
      const t = new LoginThrottle(tdb.db, { ...limits, maxDelayMs: 3_000 }, now);
      const delays: number[] = [];
      for (let i = 0; i < 10; i++) {
        delays.push(await t.delayMs('boss'));
        expect(await failed(t, 'boss', `203.0.113.${100 + i}`)).toBe(0);
      }
      expect(delays).toEqual([0, 0, 0, 0, 0, 500, 1000, 2000, 3000, 3000]);
      expect(await t.delayMs('BOSS')).toBe(3000);
      expect(await t.reserve({ login: 'boss', address: '192.0.2.200' })).toBe(0);
    });
  });
}
