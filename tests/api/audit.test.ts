import { sql } from 'kysely';
import { record } from '../../server/audit/audit';
import { describeEachDb } from '../helpers/app';

/** Issue 23 item 2: the append-only audit log, written in the transaction of the change it records. */
describeEachDb('audit log', (ctx) => {
  let admin: { authorization: string };
  let user: { authorization: string };

  beforeAll(async () => {
    await ctx.createUser('auditor', 'auditor-pass', 'admin');
    await ctx.createUser('plain', 'plain-pass');
    admin = (await ctx.login('auditor', 'auditor-pass')).headers;
    user = (await ctx.login('plain', 'plain-pass')).headers;
  });

  const entries = (q = '') => ctx.call({ method: 'GET', url: `/api/audit?${q}`, token: admin });

  it('records sign-ins and failures with the address', async () => {
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.5',
      payload: { login: 'plain', password: 'wrong-pass' },
    });
    const failed = await entries('action=auth.sign_in_failed&actor=plain');
    expect(failed.status).toBe(200);
    expect(failed.body.data[0]).toMatchObject({ actorLogin: 'plain', ip: '198.51.100.5', objectType: 'user' });
    const ok = await entries('action=auth.sign_in&actor=AUDITOR');
    expect(ok.body.total).toBeGreaterThanOrEqual(1);
  });

  it('records user changes; a deleted user keeps their history and login', async () => {
    const created = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'temp', password: 'temp-pass', repeatPassword: 'temp-pass', role: 'user' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await ctx.call({
      method: 'PATCH',
      url: `/api/users/${id}`,
      token: admin,
      payload: { login: 'temp', role: 'admin', password: 'other-pass', repeatPassword: 'other-pass' },
    });
    expect((await ctx.call({ method: 'DELETE', url: `/api/users/${id}`, token: admin })).status).toBe(200);
    const trail = await entries(`objectType=user&objectId=${id}`);
    expect(trail.body.data.map((e: any) => e.action).sort()).toEqual(
      ['user.created', 'user.deleted', 'user.password_changed', 'user.role_changed'].sort(),
    );
    const role = trail.body.data.find((e: any) => e.action === 'user.role_changed');
    expect(role).toMatchObject({ actorLogin: 'auditor', detail: { from: 'user', to: 'admin' } });
    expect(JSON.stringify(trail.body)).not.toContain('other-pass');
    expect(trail.body.data.find((e: any) => e.action === 'user.deleted').detail).toMatchObject({ login: 'temp' });
  });

  it('records API keys made and revoked and webhooks added, changed and deleted, never the key or the secret', async () => {
    const key = await ctx.call({
      method: 'POST',
      url: '/api/api-keys',
      token: user,
      payload: { name: 'Таблиця', access: 'read' },
    });
    expect(key.status).toBe(201);
    const id = key.body.key.id;
    expect((await ctx.call({ method: 'DELETE', url: `/api/api-keys/${id}`, token: user })).status).toBe(200);
    const keyTrail = await entries(`objectType=api_key&objectId=${id}`);
    expect(keyTrail.body.data.map((e: any) => e.action).sort()).toEqual(['api_key.created', 'api_key.revoked']);
    expect(keyTrail.body.data[0]).toMatchObject({ actorLogin: 'plain' });
    expect(JSON.stringify(keyTrail.body)).not.toContain(key.body.token);

    const hook = await ctx.call({
      method: 'POST',
      url: '/api/webhooks',
      token: admin,
      payload: { url: 'https://hooks.example.com/kadr', events: ['post.failed'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const hookId = hook.body.webhook.id;
    await ctx.call({ method: 'PATCH', url: `/api/webhooks/${hookId}`, token: admin, payload: { enabled: false } });
    await ctx.call({ method: 'DELETE', url: `/api/webhooks/${hookId}`, token: admin });
    const hookTrail = await entries(`objectType=webhook&objectId=${hookId}`);
    expect(hookTrail.body.data.map((e: any) => e.action).sort()).toEqual([
      'webhook.created',
      'webhook.deleted',
      'webhook.updated',
    ]);
    expect(JSON.stringify(hookTrail.body)).not.toContain(hook.body.secret);
  });

  it("records a profile's secrets changed by field name, never their values", async () => {
    const p = await ctx.call({
      method: 'POST',
      url: '/api/accounts',
      token: user,
      payload: {
        proxy: 'http://127.0.0.1:3128',
        ipVersion: 'ipv4',
        YouTubeLogin: 'yt',
        YouTubePassword: 'very-secret-1',
      },
    });
    expect(p.status).toBe(201);
    await ctx.call({
      method: 'PATCH',
      url: `/api/accounts/${p.body.id}`,
      token: user,
      payload: { InstagramPassword: 'very-secret-2', comments: 'x' },
    });
    const r = await entries(`action=profile.secrets_changed&objectId=${p.body.id}`);
    expect(r.body.data.map((e: any) => e.detail.fields)).toEqual([['InstagramPassword'], ['proxy', 'YouTubePassword']]);
    expect(JSON.stringify(r.body)).not.toContain('very-secret');
  });

  it('an entry is written in the transaction of its change: a change that fails leaves none', async () => {
    const before = (await entries('action=test.rolled_back')).body.total;
    await expect(
      ctx.tdb.db.transaction().execute(async (trx) => {
        await record(trx, { actorId: 1, actorLogin: 'x', action: 'test.rolled_back' });
        await trx
          .insertInto('users')
          .values({ login: 'auditor', passwordHash: 'x', role: 'user', createdAt: '', updatedAt: '' })
          .execute();
      }),
    ).rejects.toThrow();
    expect((await entries('action=test.rolled_back')).body.total).toBe(before);
    // Through the API: creating a user whose login is taken fails and records nothing.
    const n = (await entries('action=user.created')).body.total;
    const dup = await ctx.call({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { login: 'plain', password: 'plain-pass', repeatPassword: 'plain-pass' },
    });
    expect(dup.status).toBe(409);
    expect((await entries('action=user.created')).body.total).toBe(n);
  });

  it('the database refuses to update or delete an entry', async () => {
    await record(ctx.tdb.db, { actorId: null, actorLogin: null, action: 'test.kept' });
    await expect(sql`UPDATE audit_log SET action = 'x'`.execute(ctx.tdb.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(ctx.tdb.db)).rejects.toThrow(/append-only/);
    if (ctx.tdb.kind === 'postgres')
      await expect(sql`TRUNCATE audit_log`.execute(ctx.tdb.db)).rejects.toThrow(/append-only/);
    expect((await entries('action=test.kept')).body.total).toBe(1);
  });

  it('filters by date range; a user gets 403, a stranger 401; bad filters are a 400 naming the field', async () => {
    const future = await entries(`from=${encodeURIComponent('2099-01-01T00:00:00Z')}`);
    expect(future.body.total).toBe(0);
    const past = await entries(`to=${encodeURIComponent('2000-01-01T00:00:00Z')}`);
    expect(past.body.total).toBe(0);
    const all = await entries(`from=${encodeURIComponent('2000-01-01T00:00:00Z')}`);
    expect(all.body.total).toBeGreaterThan(3);
    for (const url of ['/api/audit', '/api/audit/export']) {
      expect((await ctx.call({ method: 'GET', url, token: user })).status).toBe(403);
      expect((await ctx.call({ method: 'GET', url })).status).toBe(401);
    }
    const bad = await entries('from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('from');
  });

  it('exports the filtered log as CSV', async () => {
    await record(ctx.tdb.db, {
      actorId: 5,
      actorLogin: '=cmd()',
      action: 'test.csv',
      objectType: 'thing',
      objectId: 9,
      ip: '192.0.2.7',
      detail: { note: 'a, "quoted"\nline' },
    });
    const r = await ctx.call({ method: 'GET', url: '/api/audit/export?action=test.csv', token: admin });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(/attachment; filename="audit-.*\.csv"/);
    const text = r.body as string;
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,at,actorId,actorLogin,action,objectType,objectId,ip,detail');
    expect(lines[1]).toMatch(
      /^\d+,\d{4}-.*Z,5,'=cmd\(\),test\.csv,thing,9,192\.0\.2\.7,"\{""note"":""a, \\""quoted\\""\\nline""\}"$/,
    );
    expect(lines).toHaveLength(3);
  });
});
