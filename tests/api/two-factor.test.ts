import { generate } from 'otplib';
import { describeEachDb } from '../helpers/app';

/** Issue 23 item 1: two-factor sign-in with TOTP codes and one-time recovery codes. */
describeEachDb(
  'two-factor sign-in',
  (ctx) => {
    const nowSec = () => Math.floor(Date.now() / 1000);
    /** The code of the step `ahead` steps after now (a code already accepted is never accepted again). */
    const codeOf = (secret: string, ahead = 0) => generate({ secret, epoch: nowSec() + ahead * 30 });
    const signIn = (login: string, password: string, remoteAddress = '192.0.2.1') =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { login, password } });
    const withCode = (challenge: string, code: string, remoteAddress = '192.0.2.1') =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login/code', remoteAddress, payload: { challenge, code } });

    /** Enrols `login` and answers its secret and recovery codes. */
    async function enrol(login: string, password: string) {
      const { headers } = await ctx.login(login, password);
      const setup = await ctx.call({ method: 'POST', url: '/api/auth/two-factor/setup', token: headers });
      expect(setup.status).toBe(200);
      const { secret, uri, qr } = setup.body;
      expect(uri).toBe(`otpauth://totp/Kadr:${login}?secret=${secret}&issuer=Kadr`);
      expect(qr).toMatch(/^data:image\/png;base64,/);
      const wrong = await ctx.call({
        method: 'POST',
        url: '/api/auth/two-factor/enable',
        token: headers,
        payload: { code: '000000' === (await codeOf(secret)) ? '111111' : '000000' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors).toHaveProperty('code');
      const on = await ctx.call({
        method: 'POST',
        url: '/api/auth/two-factor/enable',
        token: headers,
        payload: { code: await codeOf(secret) },
      });
      expect(on.status).toBe(200);
      expect(on.body.recoveryCodes).toHaveLength(10);
      return { secret, recoveryCodes: on.body.recoveryCodes as string[], headers };
    }

    it('enrols with a QR code and a code; the secret is sealed at rest and the recovery codes stored hashed', async () => {
      const id = await ctx.createUser('otto', 'otto-pass');
      const { secret, recoveryCodes, headers } = await enrol('otto', 'otto-pass');
      const row = await ctx.tdb.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.totpSecretSealed).toMatch(/^s1\./);
      expect(row.totpSecretSealed).not.toContain(secret);
      expect(row.totpPendingSealed).toBeNull();
      const stored = await ctx.tdb.db.selectFrom('recoveryCodes').select('codeHash').where('userId', '=', id).execute();
      expect(stored).toHaveLength(10);
      for (const c of recoveryCodes) expect(stored.map((s) => s.codeHash)).not.toContain(c);
      const status = await ctx.call({ method: 'GET', url: '/api/auth/two-factor', token: headers });
      expect(status.body).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
      // Enrolling again while on is refused.
      expect((await ctx.call({ method: 'POST', url: '/api/auth/two-factor/setup', token: headers })).status).toBe(409);
    });

    it('asks for the code after the password; a wrong code fails, a right one signs in, and is not accepted twice', async () => {
      await ctx.createUser('cody', 'cody-pass');
      const { secret } = await enrol('cody', 'cody-pass');
      const first = await signIn('cody', 'cody-pass');
      expect(first.statusCode).toBe(200);
      const { challenge, accessToken } = first.json();
      expect(accessToken).toBeUndefined();
      expect(challenge).toBeTruthy();
      const wrong = await withCode(challenge, '12345x');
      expect(wrong.statusCode).toBe(401);
      const code = await codeOf(secret, 1);
      const ok = await withCode(challenge, code);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ user: { login: 'cody' } });
      // The refresh token rotates as before.
      const refreshed = await ctx.call({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: ok.json().refreshToken },
      });
      expect(refreshed.status).toBe(200);
      // The same code again (replay): refused.
      expect((await withCode(challenge, code)).statusCode).toBe(401);
      // A forged or expired challenge: refused.
      expect(
        (
          await withCode(
            challenge.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')),
            code,
          )
        ).statusCode,
      ).toBe(401);
      expect((await withCode('1.1.' + 'a'.repeat(43), code)).statusCode).toBe(401);
    });

    it('a recovery code works once', async () => {
      await ctx.createUser('rita', 'rita-pass');
      const { recoveryCodes } = await enrol('rita', 'rita-pass');
      const { challenge } = (await signIn('rita', 'rita-pass')).json();
      const once = await withCode(challenge, recoveryCodes[0]!.toUpperCase());
      expect(once.statusCode).toBe(200);
      const twice = await withCode((await signIn('rita', 'rita-pass')).json().challenge, recoveryCodes[0]!);
      expect(twice.statusCode).toBe(401);
      const token = { authorization: `Bearer ${once.json().accessToken}` };
      expect((await ctx.call({ method: 'GET', url: '/api/auth/two-factor', token })).body.recoveryCodesLeft).toBe(9);
    });

    it('wrong codes are throttled like passwords', async () => {
      await ctx.createUser('tess', 'tess-pass');
      await enrol('tess', 'tess-pass');
      const { challenge } = (await signIn('tess', 'tess-pass', '203.0.113.9')).json();
      const codes: number[] = [];
      for (let i = 0; i < 7; i++) codes.push((await withCode(challenge, 'zzzzz-zzzzz', '203.0.113.9')).statusCode);
      expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(codes.slice(5)).toEqual([429, 429]);
    });

    it('turning it off asks for the password; an admin requires it of everyone and resets a user', async () => {
      const adminId = await ctx.createUser('boss', 'boss-pass', 'admin');
      const userId = await ctx.createUser('dora', 'dora-pass');
      const admin = (await ctx.login('boss', 'boss-pass')).headers;
      const { headers } = await enrol('dora', 'dora-pass');
      const bad = await ctx.call({
        method: 'POST',
        url: '/api/auth/two-factor/disable',
        token: headers,
        payload: { password: 'nope-nope' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('password');

      // Policy: admin only.
      const policy = { method: 'PUT', url: '/api/two-factor/policy', payload: { required: true } } as const;
      expect((await ctx.call({ ...policy, token: headers })).status).toBe(403);
      expect((await ctx.call({ ...policy, token: admin })).body).toEqual({ required: true });
      // Required: the user cannot turn it off; a user without it is told to enrol after signing in.
      const off = await ctx.call({
        method: 'POST',
        url: '/api/auth/two-factor/disable',
        token: headers,
        payload: { password: 'dora-pass' },
      });
      expect(off.status).toBe(409);
      const unenrolled = await signIn('boss', 'boss-pass');
      expect(unenrolled.json()).toMatchObject({ user: { id: adminId }, enrolTwoFactor: true });
      // The admin too reaches only enrolment until they turn it on (the next test covers the gate).
      expect((await ctx.call({ method: 'GET', url: '/api/users', token: admin })).status).toBe(403);
      await enrol('boss', 'boss-pass');

      // Reset: admin only; the user signs in with the password alone afterwards.
      const reset = { method: 'DELETE', url: `/api/users/${userId}/two-factor` } as const;
      expect((await ctx.call({ ...reset, token: headers })).status).toBe(403);
      expect((await ctx.call({ ...reset, token: admin })).status).toBe(204);
      expect((await ctx.call({ method: 'DELETE', url: '/api/users/999999/two-factor', token: admin })).status).toBe(
        404,
      );
      const after = await signIn('dora', 'dora-pass');
      expect(after.json()).toMatchObject({ user: { id: userId }, enrolTwoFactor: true });
      const list = await ctx.call({ method: 'GET', url: `/api/users/${userId}`, token: admin });
      expect(list.body.twoFactor).toBe(false);
      await ctx.call({ ...policy, payload: { required: false }, token: admin });
    });

    it('while an admin requires it, a user without it reaches only enrolment, by session and by API key', async () => {
      await ctx.createUser('chief', 'chief-pass', 'admin');
      const { headers: chief } = await enrol('chief', 'chief-pass');
      await ctx.createUser('nina', 'nina-pass');
      const nina = (await ctx.login('nina', 'nina-pass')).headers;
      const made = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: nina,
        payload: { name: 'script', access: 'write' },
      });
      const key = { authorization: `Bearer ${made.body.token}` };
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: key })).status).toBe(200);
      const policy = (required: boolean) =>
        ctx.call({ method: 'PUT', url: '/api/two-factor/policy', payload: { required }, token: chief });
      expect((await policy(true)).status).toBe(200);

      const refused = {
        statusCode: 403,
        code: 'two_factor_enrolment_required',
        message: 'Адміністратор вимагає двофакторний вхід: спершу увімкніть його в налаштуваннях',
      };
      const closed = [
        ['GET', '/api/tags'],
        ['GET', '/api/upload-video'],
        ['POST', '/api/tags'],
        ['GET', '/api/api-keys'],
        ['POST', '/api/api-keys'],
        ['GET', '/api/webhooks'],
        ['POST', '/api/auth/password'],
        ['POST', '/api/auth/two-factor/disable'],
        ['POST', '/api/live/ticket'],
        ['GET', '/api/ai/info'],
      ] as const;
      for (const [method, url] of closed) {
        const r = await ctx.call({ method, url, token: nina });
        expect([method, url, r.status, r.body]).toEqual([method, url, 403, refused]);
      }
      // Her keys are refused the same way (a write key too), in English when asked.
      for (const [method, url] of [
        ['GET', '/api/tags'],
        ['POST', '/api/tags'],
      ] as const) {
        const r = await ctx.call({ method, url, token: key, headers: { 'accept-language': 'en' } });
        expect(r.status).toBe(403);
        expect(r.body.code).toBe('two_factor_enrolment_required');
        expect(r.body.message).toBe('An administrator requires two-factor sign-in: turn it on in Settings first');
      }
      // Who she is and her 2FA state stay open; an enrolled user and admin are not gated.
      expect((await ctx.call({ method: 'GET', url: '/api/auth/me', token: nina })).body).toMatchObject({
        login: 'nina',
      });
      expect((await ctx.call({ method: 'GET', url: '/api/auth/two-factor', token: nina })).body).toEqual({
        enabled: false,
        required: true,
        recoveryCodesLeft: 0,
      });
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: chief })).status).toBe(200);
      // Signing out takes no bearer: it stays open.
      const other = await ctx.login('nina', 'nina-pass');
      const out = await ctx.call({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: other.refreshToken },
      });
      expect(out.status).toBe(204);

      // Enrolment is open (setup, enable); once on, the same session and key reach the API again.
      await enrol('nina', 'nina-pass');
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: nina })).status).toBe(200);
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: key })).status).toBe(200);
      expect((await policy(false)).status).toBe(200);
    });

    it('bad input is a 400 naming the field', async () => {
      const r = await ctx.call({ method: 'POST', url: '/api/auth/login/code', payload: { challenge: 'x' } });
      expect(r.status).toBe(400);
      expect(r.body.errors).toHaveProperty('code');
    });
  },
  { loginThrottle: { maxFailures: 5, lockSec: 900, maxDelayMs: 20 } },
);
