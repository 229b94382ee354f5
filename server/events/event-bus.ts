import type { Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbKind } from '../db/index';
import type { Database } from '../db/types';
import type { DomainEvent, EventName, StoredEvent } from './events';
import { EventsRepository } from './events.repository';
import { EventDispatch } from './event-dispatch';
import { EVENTS_CHANNEL, EventListen } from './event-listen';
import { EventTail } from './event-tail';
import type { EventFollower, EventSubscriber } from './subscriber';

const PRUNE_EVERY_MS = 10 * 60_000;
/** How long delivered events stay (a stream resumes up to this far back). */
const KEEP_EVENTS_MS = 24 * 3600_000;

export type EventBusOptions = {
  db: Db;
  dbKind: DbKind;
  /** How often the bus looks when nothing woke it (another SQLite process, a lost NOTIFY, a crashed writer). */
  pollMs: number;
  /** PostgreSQL: LISTEN here for other processes' commits. */
  listenUrl?: string;
  subscribers: readonly EventSubscriber[];
  log?: FastifyBaseLogger;
  now?: () => number;
};

/**
 * The domain event bus, one per process, held by the composition root: a transactional outbox on the `events`
 * table. Services and workers `record` an event in the transaction of the change it describes, so the event
 * exists if and only if the change committed. After the commit the bus delivers it:
 * - to its subscribers (the bell; later webhooks), once, by whichever process takes it first, in a transaction
 *   of its own that marks it delivered (server/events/subscriber.ts). One left by a process that crashed is
 *   taken by the next process that looks; none is lost.
 * - to the followers of every process (live streams), in id order.
 * It is woken by commits made through `transaction` in this process, by PostgreSQL NOTIFY (sent by the
 * recording transaction as it commits) for every process's, and by a poll every `pollMs` as the backstop
 * (on SQLite the only news of another process's commits). Delivered events are pruned after a day.
 */
export class EventBus {
  private repo: EventsRepository;
  private dispatch: EventDispatch;
  private tail: EventTail;
  private listen?: EventListen;
  private now: () => number;
  private timer?: NodeJS.Timeout;
  private started = false;
  private closed = false;
  private running: Promise<void> | null = null;
  private again = false;
  private lastPrune = 0;

  constructor(private opts: EventBusOptions) {
    this.now = opts.now ?? Date.now;
    this.repo = new EventsRepository(opts.db, opts.dbKind);
    this.dispatch = new EventDispatch({
      db: opts.db,
      repo: this.repo,
      subscribers: opts.subscribers,
      record: (trx, events) => this.record(trx, ...events),
      now: this.now,
      log: opts.log,
    });
    this.tail = new EventTail({ repo: this.repo, wake: this.wake, log: opts.log });
    if (opts.listenUrl) this.listen = new EventListen({ url: opts.listenUrl, wake: this.wake, log: opts.log });
  }

  /**
   * Records `events` in `trx`, the transaction that makes the change they describe: they are delivered once it
   * commits, and never if it rolls back.
   */
  async record(trx: Db, ...events: DomainEvent[]): Promise<void> {
    if (!events.length) return;
    const now = this.now();
    const rows = events.map((event) => ({ event, dispatchAt: this.dispatch.wants(event.name) ? now : null }));
    await this.repo.append(trx, rows, now);
    if (this.opts.dbKind === 'postgres') await this.repo.notify(trx, EVENTS_CHANNEL);
  }

  /** Runs `work` in a new transaction (it records its events with `record`); delivery starts after the commit. */
  async transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const result = await this.opts.db.transaction().execute(work);
    this.wake();
    return result;
  }

  /** `f` receives every event committed from now on, until `unfollow`; answers the newest id it will not get. */
  follow(f: EventFollower): Promise<number> {
    return this.tail.follow(f);
  }

  unfollow(f: EventFollower) {
    this.tail.unfollow(f);
  }

  /** Stored events after `afterId` in id order (a stream catching up); `userId` narrows to one user's. */
  history(afterId: number, limit: number, userId: number | null): Promise<StoredEvent[]> {
    return this.repo.after(afterId, limit, userId);
  }

  /** The events named `name` about `userId` recorded in the last `withinMs` (at most a day: older ones are pruned). */
  async recent<N extends EventName>(name: N, userId: number | null, withinMs: number): Promise<StoredEvent<N>[]> {
    return (await this.repo.since(name, userId, this.now() - withinMs)) as StoredEvent<N>[];
  }

  /** Starts delivering: the LISTEN connection, the poll, and at once what is already due (a crashed writer's). */
  start(): this {
    if (this.started || this.closed) return this;
    this.started = true;
    this.listen?.start();
    this.timer = setInterval(this.wake, this.opts.pollMs);
    this.timer.unref();
    this.wake();
    return this;
  }

  /** Stops delivering; what is recorded but not delivered yet stays due for the next process that looks. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.tail.close();
    await Promise.all([this.running, this.listen?.close()]);
  }

  /** Delivers what is due and committed now, and resolves when done (tests drive a bus with this). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    await this.run();
  }

  /** Something was committed: deliver it now (coalesced). */
  wake = () => {
    if (!this.started || this.closed) return;
    if (this.running) this.again = true;
    else void this.run();
  };

  /** One turn at a time; a wake during one asks for another after it. */
  private run(): Promise<void> {
    this.again = false;
    this.running = this.turn().finally(() => {
      this.running = null;
      if (this.again) this.wake();
    });
    return this.running;
  }

  /** One turn: the subscribers' due events, then the followers' new ones, then (rarely) the pruning. */
  private async turn(): Promise<void> {
    const { log } = this.opts;
    try {
      if (await this.dispatch.deliver()) this.again = true;
    } catch (err) {
      log?.warn({ err }, 'events: delivery to subscribers failed');
    }
    try {
      await this.tail.read();
    } catch (err) {
      log?.warn({ err }, 'events: tail failed');
    }
    const now = this.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.repo.prune(now - KEEP_EVENTS_MS).catch((err) => log?.warn({ err }, 'events: prune failed'));
  }
}
