import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { createDb } from '../../server/db/index';
import { describeEachDb } from '../helpers/app';
import { postEvent, recordEvents, renderEvent } from '../helpers/events';
import { openSse } from '../helpers/sse';

/** How long a poll waits for a state (a busy 2-core machine); a state, never a duration, is asserted. */
const settles = { timeout: 10_000 };

describeEachDb('live updates and notifications API', (ctx) => {
  let admin: { authorization: string };
  let anna: { authorization: string };
  let ivan: { authorization: string };
  let annaId: number;
  let ivanId: number;
  let base: string;
  const streams: Array<{ close: () => void }> = [];

  const ticketOf = async (token: { authorization: string }) => {
    const r = await ctx.call({ method: 'POST', url: '/api/live/ticket', token });
    expect(r.status).toBe(200);
    return r.body.ticket as string;
  };
  const stream = async (token: { authorization: string }, lastEventId?: number, at = base) => {
    const s = openSse(`${at}/api/live/events?ticket=${encodeURIComponent(await ticketOf(token))}`, lastEventId);
    streams.push(s);
    await s.opened;
    return s;
  };

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    annaId = await ctx.createUser('anna', 'anna-pass');
    ivanId = await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = ctx.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => streams.forEach((s) => s.close()));

  /** Another API process on the same PostgreSQL database, listening on its own port. */
  const secondInstance = async () => {
    const { db } = createDb({ databaseUrl: ctx.tdb.url, sqliteFile: '' });
    const app = await buildApp({ config: ctx.app.config, db, dbKind: 'postgres' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    return {
      app,
      at: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
      close: async () => {
        await app.close();
        await db.destroy();
      },
    };
  };

  it('needs a signed-in user for a ticket and a valid ticket for the stream', async () => {
    expect((await ctx.call({ method: 'POST', url: '/api/live/ticket' })).status).toBe(401);
    let r = await ctx.call({ method: 'GET', url: '/api/live/events' });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Потрібна авторизація');
    const ticket = await ticketOf(anna);
    r = await ctx.call({ method: 'GET', url: `/api/live/events?ticket=${ticket.replace(/.$/, '_')}x` });
    expect(r.status).toBe(401);
    // A ticket is not an access token.
    r = await ctx.call({ method: 'GET', url: '/api/notifications', headers: { authorization: `Bearer ${ticket}` } });
    expect(r.status).toBe(401);
    // An expired ticket.
    const old = ctx.root.live.service.ticket(annaId, 'x', Date.now() - 120_000).ticket;
    expect((await ctx.call({ method: 'GET', url: `/api/live/events?ticket=${old}` })).status).toBe(401);
  });

  it('streams each user only their own events, admins everybody’s but others’ notifications', async () => {
    const a = await stream(anna);
    const i = await stream(ivan);
    const b = await stream(admin);
    expect(a.state.status).toBe(200);
    expect(a.state.contentType).toContain('text/event-stream');
    await recordEvents(ctx.root, renderEvent(annaId, { id: 1, status: 'loading', progress: 10 }));
    await recordEvents(ctx.root, renderEvent(ivanId, { id: 2, status: 'loading', progress: 20 }));
    // A finished render: its state, then the bell's notification (written by the bell's subscriber).
    await recordEvents(ctx.root, renderEvent(annaId, { id: 1, idUpload: 'x', count: 3 }, 'render.finished'));
    await expect.poll(() => a.messages.map((m) => m.kind), settles).toEqual(['request', 'request', 'notification']);
    expect(a.messages[0]!.payload).toEqual({ id: 1, status: 'loading', progress: 10 });
    expect(a.messages[2]!.payload).toMatchObject({ link: '/video/request/x' });
    expect(a.messages[2]!.payload).toMatchObject({ kind: 'render_done', params: { id: 1, count: 3 }, readAt: null });
    await expect.poll(() => i.messages.map((m) => m.payload.id), settles).toEqual([2]);
    // The admin sees everybody's renders, not Anna's notification.
    await expect
      .poll(() => b.messages.map((m) => `${m.kind}:${m.payload.id}`), settles)
      .toEqual(['request:1', 'request:2', 'request:1']);
    // Ids go up, so a reconnect can resume after the last one.
    expect(a.messages[2]!.id!).toBeGreaterThan(a.messages[1]!.id!);
    expect(a.messages[1]!.id!).toBeGreaterThan(a.messages[0]!.id!);
    [a, i, b].forEach((s) => s.close());
  });

  it('resumes after Last-Event-ID with what happened while away, only the user’s own', async () => {
    const first = await stream(anna);
    await recordEvents(ctx.root, renderEvent(annaId, { id: 10, progress: 1 }));
    await expect.poll(() => first.messages.length, settles).toBe(1);
    const lastSeen = first.messages[0]!.id!;
    first.close();
    await expect.poll(() => ctx.root.live.hub.size, settles).toBe(0);
    // While the panel is away: two of Anna's events and one of Ivan's.
    await recordEvents(ctx.root, renderEvent(annaId, { id: 10, progress: 50 }));
    await recordEvents(ctx.root, renderEvent(ivanId, { id: 11, progress: 5 }));
    await recordEvents(ctx.root, renderEvent(annaId, { id: 10, progress: 90 }));
    const again = await stream(anna, lastSeen);
    await expect.poll(() => again.messages.map((m) => m.payload.progress), settles).toEqual([50, 90]);
    // Resuming through the query (a fresh ticket after a long break) works the same.
    const viaQuery = openSse(
      `${base}/api/live/events?ticket=${encodeURIComponent(await ticketOf(anna))}&lastEventId=${lastSeen}`,
    );
    streams.push(viaQuery);
    await expect.poll(() => viaQuery.messages.map((m) => m.payload.progress), settles).toEqual([50, 90]);
    // And live events keep coming after the backlog.
    await recordEvents(ctx.root, renderEvent(annaId, { id: 10, progress: 99 }));
    await expect.poll(() => again.messages.map((m) => m.payload.progress), settles).toEqual([50, 90, 99]);
    again.close();
    viaQuery.close();
  });

  it('a ticket of a session that was logged out opens no stream', async () => {
    const who = await ctx.login('ivan', 'ivan-pass');
    const ticket = await ticketOf(who.headers);
    await ctx.call({
      method: 'POST',
      url: '/api/auth/logout',
      token: who.headers,
      payload: { refreshToken: who.refreshToken },
    });
    const r = await ctx.call({ method: 'GET', url: `/api/live/events?ticket=${encodeURIComponent(ticket)}` });
    expect(r.status).toBe(401);
  });

  describe('notifications', () => {
    let annaNotes: number[] = [];
    beforeAll(async () => {
      await ctx.tdb.db.deleteFrom('notifications').execute();
      // The events the bell's subscriber turns into notifications, delivered in order.
      await recordEvents(ctx.root, renderEvent(annaId, { id: 5, idUpload: 'abc', count: 2 }, 'render.finished'));
      await recordEvents(
        ctx.root,
        postEvent(annaId, { videoId: 9, platform: 'youtube', idUpload: 'abc', error: 'x' }, 'post.failed'),
      );
      await recordEvents(ctx.root, {
        name: 'grant.lost',
        userId: annaId,
        payload: { accountId: 3, platform: 'tiktok' },
      });
      await recordEvents(
        ctx.root,
        renderEvent(ivanId, { id: 6, error: 'kadr.videos.errors.render_failed' }, 'render.failed'),
      );
      await ctx.root.events.drain();
      const r = await ctx.call({ method: 'GET', url: '/api/notifications', token: anna });
      annaNotes = r.body.data.map((n: { id: number }) => n.id);
    });

    it('lists the caller’s own, newest first, with the unread count', async () => {
      expect((await ctx.call({ method: 'GET', url: '/api/notifications' })).status).toBe(401);
      const r = await ctx.call({ method: 'GET', url: '/api/notifications', token: anna });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ page: 1, totalPages: 1, total: 3, unread: 3 });
      expect(r.body.data.map((n: { kind: string }) => n.kind)).toEqual(['reconnect', 'publish_failed', 'render_done']);
      expect(r.body.data[0]).toMatchObject({
        params: { id: 3, platform: 'tiktok' },
        link: '/accounts/3',
        readAt: null,
      });
      expect(r.body.data[1]).toMatchObject({
        params: { videoId: 9, platform: 'youtube', error: 'x' },
        link: '/video/youtube/abc',
      });
      expect(r.body.data[2]).toMatchObject({ params: { id: 5, count: 2 }, link: '/video/request/abc' });
      const i = await ctx.call({ method: 'GET', url: '/api/notifications', token: ivan });
      expect(i.body).toMatchObject({ total: 1, unread: 1 });
      // An admin's bell is their own inbox too.
      expect((await ctx.call({ method: 'GET', url: '/api/notifications', token: admin })).body.total).toBe(0);
      expect((await ctx.call({ method: 'GET', url: '/api/notifications?page=x', token: anna })).status).toBe(400);
    });

    it('marks one read; another user’s is a 404', async () => {
      const id = annaNotes[0]!;
      expect((await ctx.call({ method: 'POST', url: `/api/notifications/${id}/read`, token: ivan })).status).toBe(404);
      expect((await ctx.call({ method: 'POST', url: `/api/notifications/${id}/read`, token: admin })).status).toBe(404);
      expect((await ctx.call({ method: 'POST', url: `/api/notifications/abc/read`, token: anna })).status).toBe(400);
      const r = await ctx.call({ method: 'POST', url: `/api/notifications/${id}/read`, token: anna });
      expect(r.status).toBe(200);
      expect(r.body.readAt).toEqual(expect.any(String));
      const again = await ctx.call({ method: 'POST', url: `/api/notifications/${id}/read`, token: anna });
      expect(again.body.readAt).toBe(r.body.readAt);
      expect((await ctx.call({ method: 'GET', url: '/api/notifications', token: anna })).body.unread).toBe(2);
    });

    it('marks all read and deletes one, only the caller’s', async () => {
      const r = await ctx.call({ method: 'POST', url: '/api/notifications/read', token: anna });
      expect(r.body).toEqual({ updated: 2 });
      expect((await ctx.call({ method: 'GET', url: '/api/notifications', token: anna })).body.unread).toBe(0);
      expect((await ctx.call({ method: 'GET', url: '/api/notifications', token: ivan })).body.unread).toBe(1);
      const id = annaNotes[1]!;
      expect((await ctx.call({ method: 'DELETE', url: `/api/notifications/${id}`, token: ivan })).status).toBe(404);
      expect((await ctx.call({ method: 'DELETE', url: `/api/notifications/${id}`, token: anna })).status).toBe(204);
      expect((await ctx.call({ method: 'GET', url: '/api/notifications', token: anna })).body.total).toBe(2);
    });
  });

  describe('tickets', () => {
    const open = (ticket: string, headers: Record<string, string> = {}, at = base) => {
      const s = openSse(`${at}/api/live/events?ticket=${encodeURIComponent(ticket)}`, undefined, headers);
      streams.push(s);
      return s;
    };

    it('a ticket opens one stream, once', async () => {
      const ticket = await ticketOf(anna);
      const first = open(ticket);
      await first.opened;
      expect(first.state.status).toBe(200);
      const again = await ctx.call({ method: 'GET', url: `/api/live/events?ticket=${encodeURIComponent(ticket)}` });
      expect(again.status).toBe(401);
      expect(again.body.message).toBe('Потрібна авторизація');
      // Still once while the first stream is closed, and with the owner's own bearer.
      first.close();
      const owner = open(ticket, anna);
      await owner.opened;
      expect(owner.state.status).toBe(401);
    });

    it('only for its own user: another user’s bearer is a 401, and the ticket is spent', async () => {
      const ticket = await ticketOf(anna);
      const r = await ctx.call({
        method: 'GET',
        url: `/api/live/events?ticket=${encodeURIComponent(ticket)}`,
        headers: ivan,
      });
      expect(r.status).toBe(401);
      const later = open(ticket);
      await later.opened;
      expect(later.state.status).toBe(401);
      // A broken bearer is refused too; the owner's own bearer (or none) opens a fresh ticket's stream.
      const bad = open(await ticketOf(anna), { authorization: 'Bearer nonsense' });
      await bad.opened;
      expect(bad.state.status).toBe(401);
      const withOwn = open(await ticketOf(anna), anna);
      await withOwn.opened;
      expect(withOwn.state.status).toBe(200);
      await recordEvents(ctx.root, renderEvent(annaId, { id: 30 }));
      await expect.poll(() => withOwn.messages.map((m) => m.payload.id), settles).toEqual([30]);
      withOwn.close();
    });

    it('redemptions are kept until the ticket expires, then pruned', async () => {
      const repo = ctx.root.live.repo;
      const now = Date.now();
      expect(await repo.redeemTicket('old-ticket', now - 1, now - 60_000)).toBe(true);
      expect(await repo.redeemTicket('fresh-ticket', now + 60_000, now)).toBe(true);
      expect(await repo.redeemTicket('fresh-ticket', now + 60_000, now)).toBe(false);
      const ids = await ctx.tdb.db.selectFrom('liveTicketRedemptions').select('ticketId').execute();
      expect(ids.map((r) => r.ticketId)).not.toContain('old-ticket');
      expect(ids.map((r) => r.ticketId)).toContain('fresh-ticket');
    });

    it('two API processes on one PostgreSQL racing to redeem one ticket: exactly one opens it', async () => {
      if (ctx.tdb.kind !== 'postgres') return;
      const second = await secondInstance();
      try {
        for (let i = 0; i < 5; i++) {
          const ticket = await ticketOf(anna);
          const pair = [open(ticket), open(ticket, {}, second.at)];
          await Promise.all(pair.map((p) => p.opened));
          expect(pair.map((p) => p.state.status).sort()).toEqual([200, 401]);
          pair.forEach((p) => p.close());
        }
      } finally {
        await second.close();
      }
    });
  });

  describe('streams follow the session', () => {
    const fresh = async (login: string, role: 'admin' | 'user' = 'user') => {
      const id = await ctx.createUser(login, `${login}-pass`, role);
      const session = await ctx.login(login, `${login}-pass`);
      return { id, session, headers: session.headers };
    };
    const edit = (token: { authorization: string }, id: number, login: string, role: 'admin' | 'user') =>
      ctx.call({
        method: 'PATCH',
        url: `/api/users/${id}`,
        token,
        payload: { login, password: `${login}-pass`, role },
      });

    it('a demoted admin’s open stream stops receiving other users’ events at once', async () => {
      const chief = await fresh('chief', 'admin');
      const s = await stream(chief.headers);
      await recordEvents(ctx.root, renderEvent(ivanId, { id: 40 }));
      await expect.poll(() => s.messages.map((m) => m.payload.id), settles).toEqual([40]);
      expect((await edit(admin, chief.id, 'chief', 'user')).status).toBe(200);
      // Written right after the demotion: Ivan's event must not reach it, the chief's own does (after it).
      await recordEvents(ctx.root, renderEvent(ivanId, { id: 41 }));
      await recordEvents(ctx.root, renderEvent(chief.id, { id: 42 }));
      await expect.poll(() => s.messages.map((m) => m.payload.id), settles).toEqual([40, 42]);
      expect(s.state.ended).toBe(false);
      s.close();
    });

    it('a promoted user’s open stream widens to everybody’s events', async () => {
      const lead = await fresh('lead');
      const s = await stream(lead.headers);
      await recordEvents(ctx.root, renderEvent(ivanId, { id: 50 }));
      await recordEvents(ctx.root, renderEvent(lead.id, { id: 51 }));
      await expect.poll(() => s.messages.map((m) => m.payload.id), settles).toEqual([51]);
      expect((await edit(admin, lead.id, 'lead', 'admin')).status).toBe(200);
      await recordEvents(ctx.root, renderEvent(ivanId, { id: 52 }));
      await expect.poll(() => s.messages.map((m) => m.payload.id), settles).toEqual([51, 52]);
      // Never others' notifications, admin or not.
      await recordEvents(ctx.root, renderEvent(ivanId, { id: 53, count: 1 }, 'render.finished'));
      await ctx.root.events.drain();
      await recordEvents(ctx.root, renderEvent(lead.id, { id: 54 }));
      await expect
        .poll(() => s.messages.map((m) => `${m.kind}:${m.payload.id}`), settles)
        .toEqual(['request:51', 'request:52', 'request:53', 'request:54']);
      s.close();
    });

    it('a deleted user’s stream ends', async () => {
      const gone = await fresh('gone');
      const s = await stream(gone.headers);
      expect(s.state.status).toBe(200);
      expect((await ctx.call({ method: 'DELETE', url: `/api/users/${gone.id}`, token: admin })).status).toBe(200);
      await expect.poll(() => s.state.ended, settles).toBe(true);
    });

    it('a logout ends that session’s stream; the user’s other session keeps its own', async () => {
      const olga = await fresh('olga');
      const other = await ctx.login('olga', 'olga-pass');
      const s = await stream(olga.headers);
      const kept = await stream(other.headers);
      const r = await ctx.call({
        method: 'POST',
        url: '/api/auth/logout',
        token: olga.headers,
        payload: { refreshToken: olga.session.refreshToken },
      });
      expect(r.status).toBe(204);
      await expect.poll(() => s.state.ended, settles).toBe(true);
      await recordEvents(ctx.root, renderEvent(olga.id, { id: 60 }));
      await expect.poll(() => kept.messages.map((m) => m.payload.id), settles).toEqual([60]);
      expect(kept.state.ended).toBe(false);
      kept.close();
    });

    it('a password change ends the streams of the other sessions, as it does their requests', async () => {
      const pia = await fresh('pia');
      const other = await ctx.login('pia', 'pia-pass');
      const own = await stream(pia.headers);
      const elsewhere = await stream(other.headers);
      const r = await ctx.call({
        method: 'POST',
        url: '/api/auth/password',
        token: pia.headers,
        payload: {
          currentPassword: 'pia-pass',
          newPassword: 'pia-new-pass',
          repeatPassword: 'pia-new-pass',
          refreshToken: pia.session.refreshToken,
        },
      });
      expect(r.status).toBe(204);
      await expect.poll(() => elsewhere.state.ended, settles).toBe(true);
      expect((await ctx.call({ method: 'GET', url: '/api/auth/me', token: other.headers })).status).toBe(401);
      // The session that changed it goes on, for requests and for its stream.
      expect((await ctx.call({ method: 'GET', url: '/api/auth/me', token: pia.headers })).status).toBe(200);
      await recordEvents(ctx.root, renderEvent(pia.id, { id: 70 }));
      await expect.poll(() => own.messages.map((m) => m.payload.id), settles).toEqual([70]);
      expect(own.state.ended).toBe(false);
      own.close();
    });

    it('on PostgreSQL, a change made through another API process reaches this one’s streams', async () => {
      if (ctx.tdb.kind !== 'postgres') return;
      const boss2 = await fresh('boss2', 'admin');
      const leaving = await fresh('leaving');
      const s = await stream(boss2.headers);
      const doomed = await stream(leaving.headers);
      const second = await secondInstance();
      try {
        const call = async (method: 'PATCH' | 'DELETE', url: string, payload?: object) =>
          (await second.app.inject({ method, url, headers: admin, payload })).statusCode;
        expect(
          await call('PATCH', `/api/users/${boss2.id}`, { login: 'boss2', password: 'boss2-pass', role: 'user' }),
        ).toBe(200);
        await recordEvents(second.app.root, renderEvent(ivanId, { id: 80 }));
        await recordEvents(second.app.root, renderEvent(boss2.id, { id: 81 }));
        await expect.poll(() => s.messages.map((m) => m.payload.id), settles).toEqual([81]);
        expect(await call('DELETE', `/api/users/${leaving.id}`)).toBe(200);
        await expect.poll(() => doomed.state.ended, settles).toBe(true);
      } finally {
        s.close();
        await second.close();
      }
    });
  });

  it('a second API process on the same PostgreSQL streams an event the first one wrote', async () => {
    if (ctx.tdb.kind !== 'postgres') return;
    const { db } = createDb({ databaseUrl: ctx.tdb.url, sqliteFile: '' });
    let second: FastifyInstance | undefined;
    try {
      second = await buildApp({ config: ctx.app.config, db, dbKind: 'postgres' });
      await second.listen({ host: '127.0.0.1', port: 0 });
      const addr = second.server.address();
      const at = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      const s = await stream(anna, undefined, at);
      await expect.poll(() => second!.root.live.hub.size, settles).toBe(1);
      await recordEvents(ctx.root, postEvent(annaId, { publishId: 77, state: 'uploading' }));
      await expect.poll(() => s.messages.map((m) => m.payload.publishId), settles).toEqual([77]);
      s.close();
    } finally {
      await second?.close();
      await db.destroy();
    }
  });
});
