import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, LiveKind } from '../../src/contract/live';
import type { Role } from '../../src/contract/roles';
import type { EventRow, LiveRepository } from './live.repository';

/** The PostgreSQL channel every process LISTENs on; a NOTIFY carries the new event's id. */
export const LIVE_CHANNEL = 'kadr_events';
const BATCH = 500;
const PRUNE_EVERY_MS = 10 * 60_000;
const KEEP_EVENTS_MS = 24 * 3600_000;
/** How long the tail waits for a missing id before it moves past it (a commit still in flight). */
const GAP_WAIT_MS = 1000;

/**
 * The kind of the events that say a user's access changed (role, deletion, password, logout): never sent to a
 * stream, they make every process check that user's open streams at once (the events table carries them to
 * every process, as it carries the others).
 */
export const SESSION_CHANGED = 'session';

/** A stream's session (refresh-token family) and user, and what the database says of them now. */
export type SessionKey = { sid: string; userId: number };
export type SessionAccess = SessionKey & { role: Role };

/** One open stream: whose it is, the last event id it was sent, and how to write to and end it. */
export type LiveClient = SessionKey & {
  admin: boolean;
  cursor: number;
  send: (e: LiveEvent) => void;
  /** Ends the stream (its session ended); the stream leaves the hub itself. */
  end: () => void;
  /** Events held while the client's backlog is read (sent after it, in order). */
  held?: LiveEvent[];
};

export type HubOptions = {
  repo: LiveRepository;
  /** Tail interval: the backstop when no wake-up comes (another SQLite process, a lost NOTIFY). */
  pollMs: number;
  /** PostgreSQL: LISTEN on this database for other processes' events. */
  listenUrl?: string;
  /** The sessions among `keys` that are live now, with their user's current role (one query). */
  sessions: (keys: SessionKey[]) => Promise<SessionAccess[]>;
  log?: FastifyBaseLogger;
};

/** The name the LISTEN connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION = 'kadr-live-listen';

/** Whether a client may see an event: notifications only their user; other events their owner and admins. */
export const mayReceive = (c: Pick<LiveClient, 'userId' | 'admin'>, e: Pick<EventRow, 'userId' | 'kind'>) =>
  e.kind !== SESSION_CHANGED && (e.userId === c.userId || (c.admin && e.kind !== 'notification'));

const keyOf = (k: SessionKey) => `${k.userId}:${k.sid}`;

const toEvent = (r: EventRow): LiveEvent => ({ id: r.id, kind: r.kind as LiveKind, payload: JSON.parse(r.payload) });

/**
 * One per API process: tails the `events` table by id and fans each event out to this process's open
 * streams. Woken at once by events written in this process, by PostgreSQL NOTIFY for those of other processes,
 * and by a short poll otherwise. Idle (no stream open) it reads nothing and forgets its place; the next stream
 * starts from the newest event, or from its own Last-Event-ID.
 *
 * A stream delivers only what its session may read now: before a batch goes out, the sessions of the streams
 * that would receive some of it are read again (one query), so a demoted admin's stream narrows, and a
 * logged-out, revoked or deleted user's stream ends, before anything written after the change reaches them.
 * A SESSION_CHANGED event wakes that check at once for its user's streams, in every process.
 */
export class LiveHub {
  private clients = new Set<LiveClient>();
  private lastId: number | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer?: NodeJS.Timeout;
  private listener?: pg.Client;
  /** LISTEN connections being opened (each settles without throwing); close() waits for them. */
  private opening = new Map<pg.Client, Promise<void>>();
  private listenRetry?: NodeJS.Timeout;
  private lastPrune = 0;
  private closed = false;
  /** When the tail first met a missing id right after `lastId` (see pump). */
  private gapSince?: number;
  private gapTimer?: NodeJS.Timeout;

  constructor(private opts: HubOptions) {}

  get size() {
    return this.clients.size;
  }

  /** Adds a stream. With `after` it first receives every event it may see since then (a reconnect). */
  async join(client: Omit<LiveClient, 'cursor' | 'held'>, after: number | null): Promise<LiveClient> {
    await this.start();
    const c: LiveClient = { ...client, cursor: after ?? this.lastId ?? 0, held: after === null ? undefined : [] };
    this.clients.add(c);
    try {
      if (after !== null) await this.catchUp(c);
    } catch (err) {
      this.leave(c);
      throw err;
    }
    return c;
  }

  leave(c: LiveClient) {
    this.clients.delete(c);
    if (!this.clients.size) this.idle();
  }

  /** Reads the stream's session again: narrows, widens or ends it (the heartbeat's check). */
  async recheck(c: LiveClient): Promise<void> {
    if (this.clients.has(c)) await this.verify([c]);
  }

  /** Something was written: read it now (coalesced). */
  wake = () => {
    if (this.closed || !this.clients.size) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((err) => this.opts.log?.warn({ err }, 'live events: tail failed'))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  };

  async close() {
    this.closed = true;
    this.clients.clear();
    this.idle();
    await Promise.all([this.pumping, ...this.opening.values()]);
  }

  private async start() {
    if (this.lastId !== null) return;
    this.lastId = await this.opts.repo.lastEventId();
    this.timer = setInterval(this.wake, this.opts.pollMs);
    this.timer.unref();
    if (this.opts.listenUrl) this.listen();
  }

  private idle() {
    this.lastId = null;
    this.gapSince = undefined;
    clearInterval(this.timer);
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    clearTimeout(this.listenRetry);
    this.listenRetry = undefined;
    // A connection still being opened is not ended here: pg ends a connecting client without ever settling
    // its connect() or by failing the LISTEN after it ("Client was closed"). listen() ends it once open.
    const l = this.listener;
    this.listener = undefined;
    if (l && !this.opening.has(l)) void l.end().catch(() => undefined);
  }

  /** Opens the LISTEN connection; when the hub went idle (or closed) meanwhile, ends it quietly instead. */
  private listen() {
    const client = new pg.Client({ connectionString: this.opts.listenUrl, application_name: LISTEN_APPLICATION });
    this.listener = client;
    const current = () => this.listener === client;
    client.on('notification', () => this.wake());
    client.on('error', (err) => {
      if (!current()) return;
      this.opts.log?.warn({ err: err.message }, 'live events: LISTEN connection lost');
      this.listener = undefined;
      void client.end().catch(() => undefined);
      this.retryListen();
    });
    const opening: Promise<void> = (async () => {
      try {
        await client.connect();
        if (current()) await client.query(`LISTEN ${LIVE_CHANNEL}`);
      } catch (err) {
        if (current()) {
          this.opts.log?.warn({ err: (err as Error).message }, 'live events: LISTEN connection failed');
          this.listener = undefined;
          this.retryListen();
        }
        await client.end().catch(() => undefined);
        return;
      }
      if (!current()) await client.end().catch(() => undefined);
      else this.wake(); // anything written while connecting
    })().finally(() => this.opening.delete(client));
    this.opening.set(client, opening);
  }

  private retryListen() {
    clearTimeout(this.listenRetry);
    this.listenRetry = setTimeout(() => {
      this.listenRetry = undefined;
      if (this.lastId !== null && !this.listener && !this.closed) this.listen();
    }, 2000);
    this.listenRetry.unref();
  }

  private async pump() {
    for (;;) {
      if (this.lastId === null) return;
      const rows = await this.opts.repo.eventsAfter(this.lastId, BATCH);
      if (this.lastId === null) return;
      const ready = this.inOrder(this.lastId, rows);
      await this.verify(this.concerned(ready));
      if (this.lastId === null) return;
      for (const r of ready) {
        if (r.id <= this.lastId) continue;
        this.lastId = r.id;
        if (r.kind === SESSION_CHANGED) continue;
        const e = toEvent(r);
        for (const c of this.clients) if (mayReceive(c, r)) this.deliver(c, e);
      }
      if (ready.length < rows.length) return; // waiting for a missing id
      if (rows.length < BATCH) break;
    }
    await this.prune();
  }

  /**
   * The rows that may go out now, in id order. On PostgreSQL two writers can commit out of id order: a missing
   * id may still be in flight. Wait for it a moment (the next wake reads again) before moving past it; a
   * rolled-back id is skipped after that.
   */
  private inOrder(after: number, rows: EventRow[]): EventRow[] {
    const ready: EventRow[] = [];
    let prev = after;
    for (const r of rows) {
      if (r.id !== prev + 1 && this.waitForGap()) break;
      this.gapSince = undefined;
      ready.push(r);
      prev = r.id;
    }
    return ready;
  }

  /** The streams that would receive some of `rows`, and those of users whose access changed. */
  private concerned(rows: EventRow[]): LiveClient[] {
    if (!rows.length) return [];
    const users = new Set(rows.map((r) => r.userId));
    const forAdmins = rows.some((r) => r.kind !== SESSION_CHANGED && r.kind !== 'notification');
    return [...this.clients].filter((c) => users.has(c.userId) || (c.admin && forAdmins));
  }

  /** Reads the sessions of `clients` now: each takes its user's current role, or ends when the session has. */
  private async verify(clients: LiveClient[]): Promise<void> {
    if (!clients.length) return;
    const keys = new Map(clients.map((c) => [keyOf(c), { sid: c.sid, userId: c.userId }]));
    const live = new Map((await this.opts.sessions([...keys.values()])).map((a) => [keyOf(a), a]));
    for (const c of clients) {
      const now = live.get(keyOf(c));
      if (now) c.admin = now.role === 'admin';
      else if (this.clients.has(c)) {
        this.clients.delete(c);
        c.end();
      }
    }
    if (!this.clients.size && this.lastId !== null) this.idle();
  }

  private waitForGap(): boolean {
    const now = Date.now();
    this.gapSince ??= now;
    const waiting = now - this.gapSince < GAP_WAIT_MS;
    if (waiting && !this.gapTimer) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        this.wake();
      }, GAP_WAIT_MS);
      this.gapTimer.unref();
    }
    return waiting;
  }

  private deliver(c: LiveClient, e: LiveEvent) {
    if (c.held) c.held.push(e);
    else if (e.id > c.cursor) {
      c.cursor = e.id;
      c.send(e);
    }
  }

  private async catchUp(c: LiveClient) {
    try {
      for (;;) {
        const rows = await this.opts.repo.eventsAfter(c.cursor, BATCH, c.admin ? null : c.userId);
        // The backlog too goes only where the session may read it now.
        if (rows.length) await this.verify([c]);
        if (!this.clients.has(c)) return;
        for (const r of rows) {
          c.cursor = r.id;
          if (mayReceive(c, r)) c.send(toEvent(r));
        }
        if (rows.length < BATCH) break;
      }
    } finally {
      const held = c.held ?? [];
      c.held = undefined;
      if (this.clients.has(c)) for (const e of held) this.deliver(c, e);
    }
  }

  private async prune() {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.opts.repo.pruneEvents(new Date(now - KEEP_EVENTS_MS).toISOString());
  }
}
