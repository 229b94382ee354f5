import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index';
import type { DomainEvent, EventName } from './events';
import type { EventsRepository } from './events.repository';
import type { EventSubscriber } from './subscriber';

/** Failed deliveries of one event before it is given up (logged); the delays double from the first. */
const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 1000;
/** Events delivered per turn before the bus lets the tail (and other work) have its go. */
const PER_TURN = 100;

/**
 * Hands every due event to the subscribers that want it (server/events/subscriber.ts), once, in the
 * transaction that marks it delivered. Any process may take any due event: one recorded by a process that
 * crashed before delivering it is taken by the next process that looks.
 */
export class EventDispatch {
  private wanted: Set<EventName>;

  constructor(
    private opts: {
      db: Db;
      repo: Pick<EventsRepository, 'anyDue' | 'claim' | 'postpone'>;
      subscribers: readonly EventSubscriber[];
      /** Records events in the delivery's transaction (a subscriber's own events). */
      record: (trx: Db, events: DomainEvent[]) => Promise<void>;
      now: () => number;
      log?: FastifyBaseLogger;
    },
  ) {
    this.wanted = new Set(opts.subscribers.flatMap((s) => s.events));
  }

  /** Whether some subscriber wants events of this name: only those are due to be delivered. */
  wants(name: EventName): boolean {
    return this.wanted.has(name);
  }

  /** Delivers due events; answers whether some may be left (the bus then comes back at once). */
  async deliver(): Promise<boolean> {
    if (!this.wanted.size || !(await this.opts.repo.anyDue(this.opts.now()))) return false;
    for (let n = 0; n < PER_TURN; n++) if (!(await this.deliverOne())) return false;
    return true;
  }

  /** Takes one due event and hands it over; false when none was left to take. */
  private async deliverOne(): Promise<boolean> {
    const { db, repo, subscribers, record, log } = this.opts;
    let taken: { id: number; name: string; attempts: number } | undefined;
    try {
      return await db.transaction().execute(async (trx) => {
        const due = await repo.claim(trx, this.opts.now());
        if (!due) return false;
        const { event } = due;
        taken = { id: event.id, name: event.name, attempts: due.attempts };
        for (const s of subscribers) {
          if (!s.events.includes(event.name)) continue;
          await s.handle(event, { trx, record: (...events) => record(trx, events) });
        }
        return true;
      });
    } catch (err) {
      if (!taken) throw err; // the database: the next wake or poll tries again
      const attempts = taken.attempts + 1;
      const at = attempts >= MAX_ATTEMPTS ? null : this.opts.now() + FIRST_RETRY_MS * 2 ** (attempts - 1);
      if (at === null) log?.error({ err, eventId: taken.id, event: taken.name }, 'events: delivery given up');
      else log?.warn({ err, eventId: taken.id, event: taken.name, attempts }, 'events: delivery failed, retried later');
      await repo.postpone(taken.id, attempts, at);
      return true;
    }
  }
}
