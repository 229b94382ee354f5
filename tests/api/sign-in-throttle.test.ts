import { describeEachDb } from '../helpers/app';

/** Issue 9 item 2: sign-in throttling an attacker cannot race past nor turn against the owner of a login. */
describeEachDb(
  'sign-in throttling',
  (ctx) => {
    const from = (remoteAddress: string, login: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { login, password } });

    it('of 60 wrong passwords sent at once from one address, only the limit are checked', async () => {
      await ctx.createUser('racer', 'racer-pass');
      const res = await Promise.all(Array.from({ length: 60 }, (_, i) => from('203.0.113.60', 'racer', `wrong-${i}`)));
      const codes = res.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(55);
      expect(codes.some((c) => c >= 500)).toBe(false);
    });

    it('failures from other addresses do not lock the owner out of their own address (an admin too)', async () => {
      await ctx.createUser('chief', 'chief-pass', 'admin');
      for (let i = 0; i < 12; i++) {
        // Strangers, several addresses, each over its own pair limit.
        for (let k = 0; k < 2; k++) await from(`198.51.100.${i}`, 'chief', `guess-${i}-${k}`);
      }
      const owner = await from('192.0.2.10', 'chief', 'chief-pass');
      expect(owner.statusCode).toBe(200);
      // A stranger's address that used up its pair stays locked for that login.
      for (let k = 0; k < 3; k++) await from('198.51.100.0', 'chief', `more-${k}`);
      expect((await from('198.51.100.0', 'chief', 'chief-pass')).statusCode).toBe(429);
    });

    it("a success clears only its own pair, not its address's count of failures for other logins", async () => {
      await ctx.createUser('insider', 'insider-pass');
      for (let i = 0; i < 49; i++)
        expect((await from('203.0.113.77', `guess-${i}`, 'wrong-pass')).statusCode).toBe(401);
      expect((await from('203.0.113.77', 'insider', 'insider-pass')).statusCode).toBe(200);
      expect((await from('203.0.113.77', 'guess-49', 'wrong-pass')).statusCode).toBe(401);
      // 50 failures from the address: locked, for the insider too, whatever they signed in before.
      expect((await from('203.0.113.77', 'insider', 'insider-pass')).statusCode).toBe(429);
      expect((await from('203.0.113.78', 'insider', 'insider-pass')).statusCode).toBe(200);
    });
  },
  { loginThrottle: { maxFailures: 5, lockSec: 900, maxDelayMs: 20 } },
);
