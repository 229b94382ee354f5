import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, LiveKind } from '../../src/contract/live';
import type { Role } from '../../src/contract/roles';
import type { EventBus } from '../events/event-bus';
import type { StoredEvent } from '../events/events';
import type { EventFollower } from '../events/subscriber';
import { toLiveEvent } from './stream-events';

const BATCH = 500;

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
  /** Events held while the stream joins (and reads its backlog): sent after, in order. */
  held?: LiveEvent[];
};

export type HubOptions = {
  events: Pick<EventBus, 'follow' | 'unfollow' | 'history'>;
  /** The sessions among `keys` that are live now, with their user's current role (one query). */
  sessions: (keys: SessionKey[]) => Promise<SessionAccess[]>;
  log?: FastifyBaseLogger;
};

/** Whether a client may see a message: notifications only their user; the others their owner and admins. */
export const mayReceive = (c: Pick<LiveClient, 'userId' | 'admin'>, e: { userId: number | null; kind: LiveKind }) =>
  e.userId === c.userId || (c.admin && e.kind !== 'notification');

const keyOf = (k: SessionKey) => `${k.userId}:${k.sid}`;

/**
 * One per API process: follows the event bus (server/events) while a stream is open, and fans each event a
 * stream shows (stream-events.ts) out to this process's open streams. Idle (no stream open) it does not follow.
 *
 * A stream delivers only what its session may read now: before a batch goes out, the sessions of the streams
 * that would receive some of it are read again (one query), so a demoted admin's stream narrows, and a
 * logged-out, revoked or deleted user's stream ends, before anything recorded after the change reaches them.
 * A `session.changed` event wakes that check at once for its user's streams, in every process.
 */
export class LiveHub implements EventFollower {
  private clients = new Set<LiveClient>();
  private closed = false;

  constructor(private opts: HubOptions) {}

  get size() {
    return this.clients.size;
  }

  /** Adds a stream. With `after` it first receives every event it may see since then (a reconnect). */
  async join(client: Omit<LiveClient, 'cursor' | 'held'>, after: number | null): Promise<LiveClient> {
    // What reaches it is held until its place is known (resuming: until its backlog is sent).
    const c: LiveClient = { ...client, cursor: after ?? 0, held: [] };
    this.clients.add(c);
    try {
      const newest = await this.opts.events.follow(this);
      if (after === null) c.cursor = newest;
      else await this.catchUp(c);
    } catch (err) {
      this.leave(c);
      throw err;
    } finally {
      const held = c.held ?? [];
      c.held = undefined;
      if (this.clients.has(c)) for (const e of held) this.send(c, e);
    }
    return c;
  }

  leave(c: LiveClient) {
    this.clients.delete(c);
    if (!this.clients.size) this.opts.events.unfollow(this);
  }

  /** Reads the stream's session again: narrows, widens or ends it (the heartbeat's check). */
  async recheck(c: LiveClient): Promise<void> {
    if (this.clients.has(c)) await this.verify([c]);
  }

  async close() {
    this.closed = true;
    this.clients.clear();
    this.opts.events.unfollow(this);
  }

  /** A batch of committed events, in id order: each goes to the streams that may see it now. */
  async deliver(rows: StoredEvent[]): Promise<void> {
    if (this.closed || !this.clients.size) return;
    await this.verify(this.concerned(rows));
    for (const r of rows) {
      const e = toLiveEvent(r);
      if (!e) continue;
      for (const c of this.clients) if (mayReceive(c, { userId: r.userId, kind: e.kind })) this.send(c, e);
    }
  }

  /** The streams that would receive some of `rows`, and those of users whose access changed. */
  private concerned(rows: StoredEvent[]): LiveClient[] {
    const users = new Set<number | null>();
    let forAdmins = false;
    for (const r of rows) {
      const kind = toLiveEvent(r)?.kind;
      if (kind === undefined && r.name !== 'session.changed') continue;
      users.add(r.userId);
      if (kind !== undefined && kind !== 'notification') forAdmins = true;
    }
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
    if (!this.clients.size) this.opts.events.unfollow(this);
  }

  private send(c: LiveClient, e: LiveEvent) {
    if (c.held) c.held.push(e);
    else if (e.id > c.cursor) {
      c.cursor = e.id;
      c.send(e);
    }
  }

  /** Sends a resuming stream what it may see since its cursor, straight from the events table. */
  private async catchUp(c: LiveClient) {
    for (;;) {
      const rows = await this.opts.events.history(c.cursor, BATCH, c.admin ? null : c.userId);
      // The backlog too goes only where the session may read it now.
      if (rows.length) await this.verify([c]);
      if (!this.clients.has(c)) return;
      for (const r of rows) {
        c.cursor = r.id;
        const e = toLiveEvent(r);
        if (e && mayReceive(c, { userId: r.userId, kind: e.kind })) c.send(e);
      }
      if (rows.length < BATCH) return;
    }
  }
}
