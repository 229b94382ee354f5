import type { FastifyBaseLogger } from 'fastify';
import type { StoredEvent } from './events';
import type { EventsRepository } from './events.repository';
import type { EventFollower } from './subscriber';

const BATCH = 500;
/** How long the tail waits for a missing id before it moves past it (a commit still in flight). */
const GAP_WAIT_MS = 1000;

/**
 * Reads the events table by id for this process's followers (server/events/subscriber.ts) and hands each batch
 * to each of them. It reads only while someone follows; idle, it forgets its place, and the next follower
 * starts from the newest event.
 *
 * On PostgreSQL two writers can commit out of id order: a missing id may still be in flight. The tail waits for
 * it a moment (GAP_WAIT_MS) before it moves past it, so a late commit is still delivered in order; a rolled-back
 * id never comes and is skipped after that wait.
 */
export class EventTail {
  private followers = new Set<EventFollower>();
  private lastId: number | null = null;
  /** When the tail first met a missing id right after `lastId`. */
  private gapSince?: number;
  private gapTimer?: NodeJS.Timeout;

  constructor(
    private opts: {
      repo: Pick<EventsRepository, 'after' | 'lastId'>;
      /** Asks for another read (the gap's wait is over). */
      wake: () => void;
      log?: FastifyBaseLogger;
    },
  ) {}

  /** Starts following: answers the id after which `f` receives every event (the newest one now). */
  async follow(f: EventFollower): Promise<number> {
    this.followers.add(f);
    if (this.lastId !== null) return this.lastId;
    const newest = await this.opts.repo.lastId();
    if (this.followers.has(f)) this.lastId ??= newest;
    return this.lastId ?? newest;
  }

  unfollow(f: EventFollower) {
    this.followers.delete(f);
    if (this.followers.size) return;
    this.lastId = null;
    this.gapSince = undefined;
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
  }

  close() {
    for (const f of [...this.followers]) this.unfollow(f);
  }

  /** Reads everything committed since the last read and delivers it (the bus runs one read at a time). */
  async read(): Promise<void> {
    for (;;) {
      if (this.lastId === null) return;
      const rows = await this.opts.repo.after(this.lastId, BATCH);
      if (this.lastId === null) return;
      const ready = this.inOrder(this.lastId, rows);
      if (ready.length) {
        // The place moves before the batch goes out: a follower that joins meanwhile starts after it.
        this.lastId = ready[ready.length - 1]!.id;
        for (const f of [...this.followers]) {
          if (!this.followers.has(f)) continue;
          await f.deliver(ready).catch((err) => this.opts.log?.warn({ err }, 'events: a follower failed'));
        }
      }
      if (ready.length < rows.length) return; // waiting for a missing id
      if (rows.length < BATCH) return;
    }
  }

  /** The rows that may go out now, in id order (see the class comment). */
  private inOrder(after: number, rows: StoredEvent[]): StoredEvent[] {
    const ready: StoredEvent[] = [];
    let prev = after;
    for (const r of rows) {
      if (r.id !== prev + 1 && this.waitForGap()) break;
      this.gapSince = undefined;
      ready.push(r);
      prev = r.id;
    }
    return ready;
  }

  private waitForGap(): boolean {
    const now = Date.now();
    this.gapSince ??= now;
    const waiting = now - this.gapSince < GAP_WAIT_MS;
    if (waiting && !this.gapTimer) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        this.opts.wake();
      }, GAP_WAIT_MS);
      this.gapTimer.unref();
    }
    return waiting;
  }
}
