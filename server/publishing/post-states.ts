import type { PublishState } from '../../src/contract/publications';
import type { DomainEvent } from '../events/events';

/** The event a post's move emits (server/events/events.ts): published and failed are news, the rest a change. */
export type PostEventName = Extract<DomainEvent['name'], `post.${string}`>;

const changed = 'post.changed' as const;
const failed = { failed: 'post.failed' } as const;
const cancelled = { cancelled: changed } as const;
const published = { published: 'post.published' } as const;
/** Where a post of a user needing approval stops when it becomes due (the publish worker's gate). */
const awaiting = { awaiting_approval: 'post.awaiting_approval' } as const;

/**
 * A post's states (src/contract/publications.ts PUBLISH_STATES) and the moves between them: from-state → the
 * states it may move to, each with the event the move emits. Every write of video_publishes.state goes through
 * here (PublishingRepository.move): a move not listed is a programming error (IllegalPostMove). A new state is
 * one line here, plus its name in the states it is reached from.
 *
 * Approval (issue 23): the worker stops a due post of a user needing approval in awaiting_approval (an event for
 * the admins' bell); an admin's approval moves it back to scheduled, a rejection to failed with the reason; a move
 * in the calendar, a cancel or a delete apply to it as to a scheduled one. Nothing leaves it towards the platform.
 *
 * Who makes them: the API schedules (a new row, or any row not yet public again from the start), publishes a
 * failed one again, and cancels any row not yet public; the worker walks a row through its platform's steps.
 * A row keeps its state on a look that changes nothing (a poll, a new upload session): moving to itself is
 * allowed where the worker re-records it. `published` is reached from `cancelled` too: a cancel that raced the
 * public step does not hide a live post.
 */
export const POST_MOVES = {
  scheduled: {
    scheduled: changed,
    waiting: changed,
    uploading: changed,
    processing: changed,
    ...awaiting,
    ...failed,
    ...cancelled,
  },
  awaiting_approval: { scheduled: changed, ...failed, ...cancelled },
  waiting: {
    scheduled: changed,
    waiting: changed,
    uploading: changed,
    processing: changed,
    ...awaiting,
    ...failed,
    ...cancelled,
  },
  uploading: { scheduled: changed, uploading: changed, processing: changed, ...published, ...failed, ...cancelled },
  processing: {
    scheduled: changed,
    uploading: changed,
    processing: changed,
    publishing: changed,
    ...published,
    ...failed,
    ...cancelled,
  },
  publishing: { processing: changed, publishing: changed, reconcile: changed, ...published, ...failed },
  reconcile: { processing: changed, publishing: changed, reconcile: changed, ...published, ...failed },
  published: {},
  failed: { scheduled: changed, ...cancelled },
  cancelled: { scheduled: changed, ...published },
} as const satisfies Record<PublishState, Partial<Record<PublishState, PostEventName>>>;

/** A write of a post's state that the table does not allow: a bug in its caller, never the user's doing. */
export class IllegalPostMove extends Error {
  constructor(
    readonly from: string,
    readonly to: PublishState,
  ) {
    super(`illegal post move ${from} → ${to}`);
    this.name = 'IllegalPostMove';
  }
}

/** The event of the move `from` → `to`, or IllegalPostMove when the table has no such move. */
export function postMove(from: string, to: PublishState): PostEventName {
  const event = (POST_MOVES[from as PublishState] as Partial<Record<PublishState, PostEventName>> | undefined)?.[to];
  if (!event) throw new IllegalPostMove(from, to);
  return event;
}
