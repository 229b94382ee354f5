import { describeEachDb } from '../helpers/app';

type Headers = { authorization: string };
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

describeEachDb(
  'API keys',
  (ctx) => {
    let boss: Headers;
    let anna: Headers;
    let ivan: Headers;
    let annaId: number;

    beforeAll(async () => {
      await ctx.createUser('boss', 'boss-pass', 'admin');
      annaId = await ctx.createUser('anna', 'anna-pass');
      await ctx.createUser('ivan', 'ivan-pass');
      boss = (await ctx.login('boss', 'boss-pass')).headers;
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    });

    const makeKey = async (who: Headers, access: 'read' | 'write', extra: Record<string, unknown> = {}) => {
      const r = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: who,
        payload: { name: `${access} key`, access, ...extra },
      });
      expect(r.status).toBe(201);
      return r.body as { key: { id: number; prefix: string }; token: string };
    };

    it('is made from a session, shown once and stored hashed', async () => {
      const { key, token } = await makeKey(anna, 'read');
      expect(token).toMatch(/^kadr_[A-Za-z0-9_-]{43}$/);
      expect(token.startsWith(key.prefix)).toBe(true);
      const list = await ctx.call({ method: 'GET', url: '/api/api-keys', token: anna });
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain(token);
      expect(list.body.find((k: { id: number }) => k.id === key.id)).toMatchObject({
        name: 'read key',
        access: 'read',
        lastUsedAt: null,
        revokedAt: null,
      });
      const row = await ctx.tdb.db.selectFrom('apiKeys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(token);
      // Another user's list does not show it.
      const other = await ctx.call({ method: 'GET', url: '/api/api-keys', token: ivan });
      expect(other.body.map((k: { id: number }) => k.id)).not.toContain(key.id);
    });

    it('checks its input: 400 naming the field', async () => {
      let r = await ctx.call({ method: 'POST', url: '/api/api-keys', token: anna, payload: {} });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors).sort()).toEqual(['access', 'name']);
      r = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: anna,
        payload: { name: 'x', access: 'read', expiresAt: '2001-01-01T00:00:00Z' },
      });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual({ expiresAt: 'Строк дії має бути в майбутньому' });
      r = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: anna,
        payload: { name: 'x', access: 'read', expiresAt: 'tomorrow' },
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['expiresAt']);
    });

    it('a read key reads as its owner and stamps its last use; it cannot write', async () => {
      const { key, token } = await makeKey(anna, 'read');
      const tags = await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(token) });
      expect(tags.status).toBe(200);
      const me = await ctx.call({ method: 'GET', url: '/api/auth/me', token: bearer(token) });
      expect(me.body).toEqual({ id: annaId, login: 'anna', role: 'user' });
      const write = await ctx.call({
        method: 'POST',
        url: '/api/tags',
        token: bearer(token),
        payload: { name: 'n', tags: ['a'] },
      });
      expect(write.status).toBe(403);
      expect(write.body.message).toBe('Ключ лише для читання');
      const listed = (await ctx.call({ method: 'GET', url: '/api/api-keys', token: anna })).body.find(
        (k: { id: number }) => k.id === key.id,
      );
      expect(listed.lastUsedAt).not.toBeNull();
    });

    it('a write key writes as its owner: the row is theirs', async () => {
      const { token } = await makeKey(anna, 'write');
      const r = await ctx.call({
        method: 'POST',
        url: '/api/tags',
        token: bearer(token),
        payload: { name: 'via key', tags: ['k'] },
      });
      expect(r.status).toBe(201);
      expect(r.body.user).toEqual({ id: annaId, login: 'anna' });
    });

    it("acts with its owner's role, never more, and follows a change of role at once", async () => {
      const annaKey = (await makeKey(anna, 'write')).token;
      expect((await ctx.call({ method: 'GET', url: '/api/users', token: bearer(annaKey) })).status).toBe(403);
      const bossId = await ctx.createUser('boss2', 'boss2-pass', 'admin');
      const boss2 = (await ctx.login('boss2', 'boss2-pass')).headers;
      const adminKey = (await makeKey(boss2, 'read')).token;
      expect((await ctx.call({ method: 'GET', url: '/api/users', token: bearer(adminKey) })).status).toBe(200);
      const demote = await ctx.call({
        method: 'PATCH',
        url: `/api/users/${bossId}`,
        token: boss,
        payload: { login: 'boss2', role: 'user' },
      });
      expect(demote.status).toBe(200);
      expect((await ctx.call({ method: 'GET', url: '/api/users', token: bearer(adminKey) })).status).toBe(403);
    });

    it('never manages keys, webhooks, passwords, two-factor or users, whatever its access and role', async () => {
      const own = await makeKey(boss, 'write');
      const k = bearer(own.token);
      const refused = [
        { method: 'GET', url: '/api/api-keys' },
        { method: 'POST', url: '/api/api-keys', payload: { name: 'more', access: 'write' } },
        { method: 'DELETE', url: `/api/api-keys/${own.key.id}` },
        { method: 'GET', url: '/api/webhooks' },
        { method: 'POST', url: '/api/webhooks', payload: { url: 'https://example.com/h', events: ['post.failed'] } },
        {
          method: 'POST',
          url: '/api/auth/password',
          payload: { currentPassword: 'boss-pass', newPassword: 'x'.repeat(12) },
        },
        { method: 'POST', url: '/api/users', payload: { login: 'mallory', password: 'x'.repeat(12), role: 'admin' } },
        { method: 'PATCH', url: `/api/users/${annaId}`, payload: { password: 'y'.repeat(12) } },
      ] as const;
      for (const req of refused) {
        const r = await ctx.call({ ...req, token: k });
        expect(r.status, `${req.method} ${req.url}`).toBe(403);
        expect(r.body.message).toBe('API-ключ не має доступу до цієї дії');
      }
      // Nothing changed: boss still signs in with the old password, no key was added.
      await ctx.login('boss', 'boss-pass');
      const keys = (await ctx.call({ method: 'GET', url: '/api/api-keys', token: boss })).body;
      expect(keys.filter((x: { revokedAt: string | null }) => !x.revokedAt)).toHaveLength(1);
    });

    it('is refused once revoked, at once; only its owner revokes it', async () => {
      const { key, token } = await makeKey(anna, 'read');
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(token) })).status).toBe(200);
      expect((await ctx.call({ method: 'DELETE', url: `/api/api-keys/${key.id}`, token: ivan })).status).toBe(404);
      const r = await ctx.call({ method: 'DELETE', url: `/api/api-keys/${key.id}`, token: anna });
      expect(r.status).toBe(200);
      expect(r.body.revokedAt).not.toBeNull();
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(token) })).status).toBe(401);
    });

    it("an admin lists and revokes another user's keys, audited with who did it; a user cannot", async () => {
      const { key, token } = await makeKey(anna, 'write');
      // A user lists only their own: naming another user is a 403, a bad id a 400 naming the field.
      const ivanId = (await ctx.call({ method: 'GET', url: '/api/auth/me', token: ivan })).body.id;
      expect((await ctx.call({ method: 'GET', url: `/api/api-keys?userId=${annaId}`, token: ivan })).status).toBe(403);
      expect((await ctx.call({ method: 'GET', url: `/api/api-keys?userId=${ivanId}`, token: ivan })).status).toBe(200);
      const bad = await ctx.call({ method: 'GET', url: '/api/api-keys?userId=abc', token: boss });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toEqual(['userId']);
      // The admin sees Anna's keys (never the key itself), not their own in that list.
      const listed = await ctx.call({ method: 'GET', url: `/api/api-keys?userId=${annaId}`, token: boss });
      expect(listed.status).toBe(200);
      expect(listed.body.find((k: { id: number }) => k.id === key.id)).toMatchObject({ name: 'write key' });
      expect(JSON.stringify(listed.body)).not.toContain(token);
      // …and revokes it: refused at once.
      const r = await ctx.call({ method: 'DELETE', url: `/api/api-keys/${key.id}`, token: boss });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: key.id, name: 'write key' });
      expect(r.body.revokedAt).not.toBeNull();
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(token) })).status).toBe(401);
      expect((await ctx.call({ method: 'DELETE', url: '/api/api-keys/999999', token: boss })).status).toBe(404);
      // The audit log names the admin as the one who did it, and whose key it was.
      const revocations = () =>
        ctx.call({ method: 'GET', url: `/api/audit?action=api_key.revoked&objectId=${key.id}`, token: boss });
      const audit = await revocations();
      expect(audit.body.data).toHaveLength(1);
      expect(audit.body.data[0]).toMatchObject({
        actorLogin: 'boss',
        action: 'api_key.revoked',
        objectType: 'api_key',
        detail: { name: 'write key', ownerId: annaId, ownerLogin: 'anna' },
      });
      // Revoking it again changes nothing and records nothing more.
      expect((await ctx.call({ method: 'DELETE', url: `/api/api-keys/${key.id}`, token: boss })).status).toBe(200);
      expect((await revocations()).body.data).toHaveLength(1);
    });

    it('is refused once expired', async () => {
      const { key, token } = await makeKey(anna, 'read', { expiresAt: '2999-01-01T00:00:00+02:00' });
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(token) })).status).toBe(200);
      // Its expiry comes: set in the past (no waiting on the clock).
      await ctx.tdb.db.updateTable('apiKeys').set({ expiresAt: 1 }).where('id', '=', key.id).execute();
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(token) })).status).toBe(401);
    });

    it('an unknown key is a 401', async () => {
      const r = await ctx.call({ method: 'GET', url: '/api/tags', token: bearer(`kadr_${'A'.repeat(43)}`) });
      expect(r.status).toBe(401);
    });

    it('is limited in rate per key (API_KEY_RATE_LIMIT a minute), with Retry-After', async () => {
      const first = bearer((await makeKey(anna, 'read')).token);
      const second = bearer((await makeKey(anna, 'read')).token);
      for (let i = 0; i < 7; i++)
        expect((await ctx.call({ method: 'GET', url: '/api/tags', token: first })).status).toBe(200);
      const over = await ctx.call({ method: 'GET', url: '/api/tags', token: first });
      expect(over.status).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Another key of the same user has its own window; the session is not limited by the key's.
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: second })).status).toBe(200);
      expect((await ctx.call({ method: 'GET', url: '/api/tags', token: anna })).status).toBe(200);
    });
  },
  { apiKeyRateLimit: 7 },
);
