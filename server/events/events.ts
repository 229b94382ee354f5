import type { Notification, PublishLive, RequestLive } from '../../src/contract/live';
import type { PlatformId } from '../platforms/types';

/** A post (one video on one platform) as it stands after the change; `error` is why a failed one failed. */
export type PostState = PublishLive & { error: string | null };

/**
 * Every domain event Kadr records: its name and what it carries. Services and workers record them in the
 * transaction of the change they describe (server/events/event-bus.ts); live updates, the bell and (later)
 * webhooks subscribe to them. docs/architecture.md#events lists who records and who hears each one.
 */
export type EventPayloads = {
  /** A create-video request's render moved: it started, went a percent further or recorded an output. */
  'render.changed': RequestLive;
  /** Every output of the request is rendered. */
  'render.finished': RequestLive;
  /** The render gave up (`error` says why). */
  'render.failed': RequestLive;
  /** A post moved to another state (not published, not failed), or its upload went further. */
  'post.changed': PostState;
  /** A post went live on its platform. */
  'post.published': PostState;
  /** A post of a user needing approval stopped where it became due: the admins are asked to approve it. */
  'post.awaiting_approval': PostState;
  /** A post failed for good. */
  'post.failed': PostState;
  /** A profile's proxy was checked after a save (`failing`: it does not work; the profile's error says why). */
  'profile.checked': { accountId: number; failing: boolean };
  /** A profile's grant on a platform was refused: its owner must connect it again. */
  'grant.lost': { accountId: number; platform: PlatformId };
  /**
   * A profile's grant on a platform lapses soon and the keep-alive could not renew it (`error` says why, e.g. its
   * proxy is down): at most once a day per grant, until it is renewed or lost.
   */
  'grant.expiring': { accountId: number; platform: PlatformId; lapsesAt: string; error: string };
  /** A job went dead (attempts used up, its chain stalled, or its payload unreadable). */
  'job.dead': { job: string; payload: unknown };
  /** The user's access changed (role, deletion, password, a session ended): their open streams are checked. */
  'session.changed': Record<string, never>;
  /** A notification was put in the user's bell. */
  'notification.created': Notification;
};

export type EventName = keyof EventPayloads;

/**
 * One event: its name, the user whose rows it is about (their streams, and admins', may show it; null for none,
 * e.g. a dead job, which concerns the admins), and its payload.
 */
export type DomainEvent<N extends EventName = EventName> = N extends EventName
  ? { name: N; userId: number | null; payload: EventPayloads[N] }
  : never;

/** An event as the events table holds it: its id orders it (and a stream resumes after it). */
export type StoredEvent<N extends EventName = EventName> = DomainEvent<N> & { id: number };
