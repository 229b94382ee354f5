import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { createDb } from '../../server/db/index';
import { describeEachDb } from '../helpers/app';
import { openSse } from '../helpers/sse';

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
    const live = ctx.root.live.service;
    await live.emit(annaId, 'request', { id: 1, status: 'loading', progress: 10 });
    await live.emit(ivanId, 'request', { id: 2, status: 'loading', progress: 20 });
    await live.notify(annaId, 'render_done', { id: 1, count: 3 }, '/video/request/x');
    await expect.poll(() => a.messages.map((m) => m.kind)).toEqual(['request', 'notification']);
    expect(a.messages[0]!.payload).toEqual({ id: 1, status: 'loading', progress: 10 });
    expect(a.messages[1]!.payload).toMatchObject({ kind: 'render_done', params: { id: 1, count: 3 }, readAt: null });
    await expect.poll(() => i.messages.map((m) => m.payload.id)).toEqual([2]);
    await expect.poll(() => b.messages.map((m) => m.payload.id)).toEqual([1, 2]);
    // Ids go up, so a reconnect can resume after the last one.
    expect(a.messages[1]!.id!).toBeGreaterThan(a.messages[0]!.id!);
    [a, i, b].forEach((s) => s.close());
  });

  it('resumes after Last-Event-ID with what happened while away, only the user’s own', async () => {
    const first = await stream(anna);
    await ctx.root.live.service.emit(annaId, 'request', { id: 10, progress: 1 });
    await expect.poll(() => first.messages.length).toBe(1);
    const lastSeen = first.messages[0]!.id!;
    first.close();
    await expect.poll(() => ctx.root.live.hub.size).toBe(0);
    // While the panel is away: two of Anna's events and one of Ivan's.
    await ctx.root.live.service.emit(annaId, 'request', { id: 10, progress: 50 });
    await ctx.root.live.service.emit(ivanId, 'request', { id: 11, progress: 5 });
    await ctx.root.live.service.emit(annaId, 'request', { id: 10, progress: 90 });
    const again = await stream(anna, lastSeen);
    await expect.poll(() => again.messages.map((m) => m.payload.progress)).toEqual([50, 90]);
    // Resuming through the query (a fresh ticket after a long break) works the same.
    const viaQuery = openSse(
      `${base}/api/live/events?ticket=${encodeURIComponent(await ticketOf(anna))}&lastEventId=${lastSeen}`,
    );
    streams.push(viaQuery);
    await expect.poll(() => viaQuery.messages.map((m) => m.payload.progress)).toEqual([50, 90]);
    // And live events keep coming after the backlog.
    await ctx.root.live.service.emit(annaId, 'request', { id: 10, progress: 99 });
    await expect.poll(() => again.messages.map((m) => m.payload.progress)).toEqual([50, 90, 99]);
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
      const live = ctx.root.live.service;
      await live.notify(annaId, 'render_done', { id: 5, count: 2 }, '/video/request/abc');
      await live.notify(
        annaId,
        'publish_failed',
        { videoId: 9, platform: 'youtube', error: 'x' },
        '/video/youtube/abc',
      );
      await live.notify(annaId, 'reconnect', { id: 3, platform: 'tiktok' }, '/accounts/3');
      await live.notify(ivanId, 'render_failed', { id: 6, error: 'kadr.videos.errors.render_failed' }, null);
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
      await expect.poll(() => second!.root.live.hub.size).toBe(1);
      await ctx.root.live.service.emit(annaId, 'publish', { publishId: 77, state: 'uploading' });
      await expect.poll(() => s.messages.map((m) => m.payload.publishId)).toEqual([77]);
      s.close();
    } finally {
      await second?.close();
      await db.destroy();
    }
  });
});
