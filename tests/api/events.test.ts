import { join } from 'node:path';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { createDb, type Db, type DbKind } from '../../server/db/index';
import { EventBus, type EventBusOptions } from '../../server/events/event-bus';
import { LISTEN_APPLICATION } from '../../server/events/event-listen';
import type { DomainEvent, StoredEvent } from '../../server/events/events';
import type { EventSubscriber } from '../../server/events/subscriber';
import { LiveHub } from '../../server/live/live.hub';
import { LiveRepository } from '../../server/live/live.repository';
import { liveNotices } from '../../server/live/live.notices';
import type { LiveEvent, RequestLive } from '../../src/contract/live';
import { seedFinishedRequest } from '../helpers/finished-request';
import { makeTestDb, postgresAvailable, type TestDb } from '../helpers/db';

/** How long a poll waits for a state (a busy 2-core machine); a state, never a duration, is asserted. */
const settles = { timeout: 10_000 };

const pgOk = await postgresAvailable();

/**
 * The event bus (server/events) on each database, with buses standing in for processes: each has a connection
 * of its own to one database, as two processes would. Buses that are not started are driven with drain().
 */
for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`event bus [${kind}]`, () => {
    let tdb: TestDb;
    let userId: number;
    const open: Array<{ bus: EventBus; db?: Db }> = [];

    /** Another process's connection to the test database. */
    const connect = () =>
      createDb(
        kind === 'postgres'
          ? { databaseUrl: tdb.url, sqliteFile: '' }
          : { sqliteFile: join(tdb.dataDir, 'test.sqlite') },
      ).db;

    /** A process's bus (on its own connection unless `db` is given); closed after each test. */
    const processBus = (opts: Partial<EventBusOptions> & { own?: boolean } = {}) => {
      const db = opts.db ?? connect();
      const bus = new EventBus({ db, dbKind: kind, pollMs: 60_000, subscribers: [], ...opts });
      open.push({ bus, db: opts.db ? undefined : db });
      return bus;
    };

    /** A subscriber that keeps what it was handed. */
    const keeping = (events: EventSubscriber['events']) => {
      const got: number[] = [];
      const s: EventSubscriber = { name: 'test', events, handle: async (e) => void got.push(e.id) };
      return { s, got };
    };
    const following = () => {
      const got: StoredEvent[] = [];
      return { got, f: { deliver: async (rows: StoredEvent[]) => void got.push(...rows) } };
    };
    const lost = (accountId: number): DomainEvent => ({
      name: 'grant.lost',
      userId,
      payload: { accountId, platform: 'tiktok' },
    });

    beforeAll(async () => {
      tdb = await makeTestDb(kind);
      const at = new Date().toISOString();
      const r = await tdb.db
        .insertInto('users')
        .values({ login: 'olena', passwordHash: 'x', role: 'user', createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      userId = r.id;
    });
    afterEach(async () => {
      for (const { bus, db } of open.splice(0)) {
        await bus.close();
        await db?.destroy();
      }
    });
    afterAll(async () => {
      await tdb?.drop();
    });

    it('delivers an event once its transaction commits: to one subscriber once, to every follower', async () => {
      const one = keeping(['grant.lost']);
      const two = keeping(['grant.lost']);
      const a = processBus({ subscribers: [one.s] });
      const b = processBus({ subscribers: [two.s] });
      const fa = following();
      const fb = following();
      await a.follow(fa.f);
      await b.follow(fb.f);
      await b.drain(); // its first turn prunes old events: done before the other holds SQLite's write lock
      await a.transaction(async (trx) => {
        await a.record(trx, lost(1));
        // Recorded, not committed: the other process sees nothing yet.
        await b.drain();
        expect(two.got).toEqual([]);
        expect(fb.got).toEqual([]);
      });
      await b.drain();
      expect(fb.got.map((e) => e.name)).toEqual(['grant.lost']);
      expect(fb.got[0]).toMatchObject({ userId, payload: { accountId: 1, platform: 'tiktok' } });
      expect(two.got).toEqual([fb.got[0]!.id]);
      // The recording process follows it too; its subscriber does not get it again (once, whichever process).
      await a.drain();
      expect(fa.got.map((e) => e.id)).toEqual([fb.got[0]!.id]);
      expect(one.got).toEqual([]);
    });

    it('delivers nothing of a transaction that rolls back', async () => {
      const sub = keeping(['grant.lost']);
      const a = processBus({ subscribers: [sub.s] });
      const fa = following();
      await a.follow(fa.f);
      const before = await tdb.db.selectFrom('events').select('id').execute();
      await expect(
        a.transaction(async (trx) => {
          await a.record(trx, lost(2));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      await a.drain();
      expect(fa.got).toEqual([]);
      expect(sub.got).toEqual([]);
      expect(await tdb.db.selectFrom('events').select('id').execute()).toEqual(before);
    });

    it('offers an event again when a subscriber fails, and rolls back what it wrote meanwhile', async () => {
      let clock = Date.now();
      let fail = true;
      const handled: number[] = [];
      const flaky: EventSubscriber = {
        name: 'flaky',
        events: ['grant.lost'],
        handle: async (e, { trx, record }) => {
          await record({ name: 'session.changed', userId, payload: {} });
          await trx
            .updateTable('users')
            .set({ updatedAt: 'by the failed delivery' })
            .where('id', '=', userId)
            .execute();
          if (fail) throw new Error('not now');
          handled.push(e.id);
        },
      };
      const a = processBus({ subscribers: [flaky], now: () => clock });
      await a.transaction((trx) => a.record(trx, lost(3)));
      await a.drain();
      expect(handled).toEqual([]);
      const after = (await tdb.db.selectFrom('users').select('updatedAt').where('id', '=', userId).executeTakeFirst())!;
      expect(after.updatedAt).not.toBe('by the failed delivery');
      const kinds = await tdb.db.selectFrom('events').select(['kind', 'dispatchAttempts']).orderBy('id').execute();
      expect(kinds.map((k) => k.kind)).not.toContain('session.changed');
      expect(kinds.at(-1)).toEqual({ kind: 'grant.lost', dispatchAttempts: 1 });
      // Due again a moment later (not at once: no hot loop).
      fail = false;
      await a.drain();
      expect(handled).toEqual([]);
      clock += 60_000;
      await a.drain();
      expect(handled).toHaveLength(1);
      const again = await tdb.db.selectFrom('events').select(['kind', 'dispatchAt']).orderBy('id').execute();
      expect(again.map((k) => k.kind).slice(-2)).toEqual(['grant.lost', 'session.changed']);
      expect(again.every((e) => e.dispatchAt === null)).toBe(true);
    });

    it('an event a process committed but never delivered (it crashed) reaches the next process: bell and streams', async () => {
      // A render's owner, its request: the change is the request turning 'success'.
      const req = await seedFinishedRequest(tdb.db, userId, 1, 'loading');
      const seen = await tdb.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirst();
      const resumeAfter = Number(seen?.max ?? 0);

      // The worker's process: the change and its event in one transaction, then it dies before delivering.
      const dbA = connect();
      const worker = new EventBus({
        db: dbA,
        dbKind: kind,
        pollMs: 60_000,
        subscribers: [liveNotices(new LiveRepository(dbA))],
      });
      const payload: RequestLive = {
        id: req.id,
        idUpload: req.idUpload,
        status: 'success',
        progress: 100,
        done: 1,
        count: 1,
        error: null,
      };
      await worker.transaction(async (trx) => {
        await trx.updateTable('createVideoRequests').set({ status: 'success' }).where('id', '=', req.id).execute();
        await worker.record(trx, { name: 'render.finished', userId, payload });
      });
      await worker.close();
      await dbA.destroy();
      expect(await tdb.db.selectFrom('notifications').selectAll().execute()).toEqual([]);

      // The next process: its bus starts, its hub holds the owner's stream (a panel resuming from before).
      const dbB = connect();
      const next = new EventBus({
        db: dbB,
        dbKind: kind,
        pollMs: 60_000,
        subscribers: [liveNotices(new LiveRepository(dbB))],
      });
      open.push({ bus: next, db: dbB });
      const hub = new LiveHub({
        events: next,
        sessions: async (keys) => keys.map((k) => ({ ...k, role: 'user' as const })),
      });
      const got: LiveEvent[] = [];
      await hub.join({ userId, sid: 's', admin: false, send: (e) => got.push(e), end: () => undefined }, resumeAfter);
      next.start();
      await expect.poll(() => got.map((e) => e.kind), settles).toEqual(['request', 'notification']);
      expect(got[0]!.payload).toEqual(payload);
      expect(got[1]!.payload).toMatchObject({
        kind: 'render_done',
        params: { id: req.id, count: 1 },
        link: `/video/request/${req.idUpload}`,
      });
      const notes = await tdb.db.selectFrom('notifications').select(['userId', 'kind']).execute();
      expect(notes).toEqual([{ userId, kind: 'render_done' }]);
      await hub.close();
    });

    it('a worker-only process’s events reach the streams another process holds', async () => {
      // The API process: on PostgreSQL only its LISTEN can wake it (the poll is a minute); on SQLite the poll does.
      const api = processBus({
        pollMs: kind === 'postgres' ? 60_000 : 100,
        listenUrl: kind === 'postgres' ? tdb.url : undefined,
      }).start();
      const hub = new LiveHub({
        events: api,
        sessions: async (keys) => keys.map((k) => ({ ...k, role: 'user' as const })),
      });
      const got: LiveEvent[] = [];
      await hub.join({ userId, sid: 's', admin: false, send: (e) => got.push(e), end: () => undefined }, null);
      if (kind === 'postgres') await expect.poll(listeners, settles).toBeGreaterThan(0);
      const worker = processBus();
      const payload = { id: 9, idUpload: 'w', status: 'loading', progress: 40, done: 0, count: 2, error: null };
      await worker.transaction((trx) => worker.record(trx, { name: 'render.changed', userId, payload }));
      await expect.poll(() => got.map((e) => e.payload), settles).toEqual([payload]);
      await hub.close();
    });

    /** LISTEN connections open on the test database. */
    const listeners = async () => {
      const r = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
        where application_name = ${LISTEN_APPLICATION} and datname = current_database()`.execute(tdb.db);
      return Number(r.rows[0]!.n);
    };

    it('a LISTEN connection still opening when its bus closes is ended quietly, not left or logged', async () => {
      if (kind !== 'postgres') return;
      const logged: string[] = [];
      const record = (level: string) => (o: unknown, msg?: string) =>
        logged.push(`${level} ${msg ?? ''} ${JSON.stringify(o)}`);
      const log = {
        level: 'trace',
        fatal: record('fatal'),
        error: record('error'),
        warn: record('warn'),
        info: () => undefined,
        debug: () => undefined,
        trace: () => undefined,
        silent: () => undefined,
        child: () => log,
      } as unknown as FastifyBaseLogger;
      // Each bus opens a LISTEN connection as it starts and closes before it is open.
      for (let i = 0; i < 5; i++)
        await new EventBus({ db: tdb.db, dbKind: kind, pollMs: 60_000, listenUrl: tdb.url, subscribers: [], log })
          .start()
          .close();
      // One that stays hears another process's event through its LISTEN.
      const stays = processBus({ db: tdb.db, listenUrl: tdb.url, log }).start();
      const f = following();
      await stays.follow(f.f);
      await expect.poll(listeners, settles).toBeGreaterThan(0);
      const other = processBus();
      await other.transaction((trx) => other.record(trx, lost(4)));
      await expect.poll(() => f.got.length, settles).toBe(1);
      await stays.close();
      await expect.poll(listeners, settles).toBe(0);
      expect(logged).toEqual([]);
    });
  });
}
