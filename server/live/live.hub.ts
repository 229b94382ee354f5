import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, LiveKind } from '../../src/contract/live';
import type { EventRow, LiveRepository } from './live.repository';

/** The PostgreSQL channel every process LISTENs on; a NOTIFY carries the new event's id. */
export const LIVE_CHANNEL = 'kadr_events';
const BATCH = 500;
const PRUNE_EVERY_MS = 10 * 60_000;
const KEEP_EVENTS_MS = 24 * 3600_000;
/** How long the tail waits for a missing id before it moves past it (a commit still in flight). */
const GAP_WAIT_MS = 1000;

/** One open stream: whose it is, the last event id it was sent, and how to write to it. */
export type LiveClient = {
  userId: number;
  admin: boolean;
  cursor: number;
  send: (e: LiveEvent) => void;
  /** Events held while the client's backlog is read (sent after it, in order). */
  held?: LiveEvent[];
};

export type HubOptions = {
  repo: LiveRepository;
  /** Tail interval: the backstop when no wake-up comes (another SQLite process, a lost NOTIFY). */
  pollMs: number;
  /** PostgreSQL: LISTEN on this database for other processes' events. */
  listenUrl?: string;
  log?: FastifyBaseLogger;
};

/** Whether a client may see an event: notifications only their user; other events their owner and admins. */
export const mayReceive = (c: Pick<LiveClient, 'userId' | 'admin'>, e: Pick<EventRow, 'userId' | 'kind'>) =>
  e.userId === c.userId || (c.admin && e.kind !== 'notification');

const toEvent = (r: EventRow): LiveEvent => ({ id: r.id, kind: r.kind as LiveKind, payload: JSON.parse(r.payload) });

/**
 * One per API process: tails the `events` table by id and fans each event out to this process's open
 * streams. Woken at once by events written in this process, by PostgreSQL NOTIFY for those of other processes,
 * and by a short poll otherwise. Idle (no stream open) it reads nothing and forgets its place; the next stream
 * starts from the newest event, or from its own Last-Event-ID.
 */
export class LiveHub {
  private clients = new Set<LiveClient>();
  private lastId: number | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer?: NodeJS.Timeout;
  private listener?: pg.Client;
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
    if (after !== null) await this.catchUp(c);
    return c;
  }

  leave(c: LiveClient) {
    this.clients.delete(c);
    if (!this.clients.size) this.idle();
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
    await this.pumping;
  }

  private async start() {
    if (this.lastId !== null) return;
    this.lastId = await this.opts.repo.lastEventId();
    this.timer = setInterval(this.wake, this.opts.pollMs);
    this.timer.unref();
    if (this.opts.listenUrl) void this.listen();
  }

  private idle() {
    this.lastId = null;
    this.gapSince = undefined;
    clearInterval(this.timer);
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    clearTimeout(this.listenRetry);
    const l = this.listener;
    this.listener = undefined;
    if (l) void l.end().catch(() => undefined);
  }

  private async listen() {
    const client = new pg.Client({ connectionString: this.opts.listenUrl });
    this.listener = client;
    client.on('notification', () => this.wake());
    client.on('error', (err) => {
      this.opts.log?.warn({ err: err.message }, 'live events: LISTEN connection lost');
      if (this.listener !== client) return;
      this.listener = undefined;
      void client.end().catch(() => undefined);
      this.listenRetry = setTimeout(() => this.lastId !== null && !this.listener && void this.listen(), 2000);
      this.listenRetry.unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      if (this.listener !== client)
        await client.end(); // went idle meanwhile
      else this.wake(); // anything written while connecting
    } catch (err) {
      client.emit('error', err as Error);
    }
  }

  private async pump() {
    for (;;) {
      if (this.lastId === null) return;
      const rows = await this.opts.repo.eventsAfter(this.lastId, BATCH);
      if (this.lastId === null) return;
      for (const r of rows) {
        // On PostgreSQL two writers can commit out of id order: a missing id may still be in flight. Wait for it
        // a moment (the next wake reads again) before moving past it; a rolled-back id is skipped after that.
        if (r.id !== this.lastId + 1 && this.waitForGap()) return;
        this.gapSince = undefined;
        const e = toEvent(r);
        this.lastId = r.id;
        for (const c of this.clients) if (mayReceive(c, r)) this.deliver(c, e);
      }
      if (rows.length < BATCH) break;
    }
    await this.prune();
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
        for (const r of rows) {
          c.cursor = r.id;
          if (mayReceive(c, r)) c.send(toEvent(r));
        }
        if (rows.length < BATCH || !this.clients.has(c)) break;
      }
    } finally {
      const held = c.held ?? [];
      c.held = undefined;
      for (const e of held) this.deliver(c, e);
    }
  }

  private async prune() {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.opts.repo.pruneEvents(new Date(now - KEEP_EVENTS_MS).toISOString());
  }
}
