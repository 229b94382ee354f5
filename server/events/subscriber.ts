import type { Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { DomainEvent, EventName, StoredEvent } from './events';

/** What a subscriber's handler works in: the delivery's transaction, and a way to record events in it. */
export type DeliveryContext = {
  trx: Transaction<Database>;
  record: (...events: DomainEvent[]) => Promise<void>;
};

/**
 * Hears each event of `events` once, whichever process recorded it and whatever crashed meanwhile: the bus
 * hands it over in a transaction that also marks it delivered, so what the handler writes (a notification, a
 * webhook's delivery job) commits with the delivery or not at all. A handler that throws rolls it back and the
 * event is offered again later (with a growing delay, a few times). Handlers must not call the platforms or
 * anything slow: they write rows (and queue jobs for slow work). Given to the bus when it is built
 * (server/container.ts): an event recorded before a subscriber for its name existed is not offered to it.
 */
export type EventSubscriber = {
  /** Names it in logs. */
  name: string;
  events: readonly EventName[];
  handle(event: StoredEvent, ctx: DeliveryContext): Promise<void>;
};

/**
 * Follows the events of every process as they commit, in id order, each once, while it follows (this process's
 * live streams): nothing is kept for it while it does not follow, and a process that crashes loses only what
 * its followers held in memory (a stream resumes from the table by id).
 */
export type EventFollower = {
  deliver(events: StoredEvent[]): Promise<void>;
};
