import type { Container } from '../../server/container';
import type { DomainEvent, PostState } from '../../server/events/events';
import type { RequestLive } from '../../src/contract/live';

/** Records `events` through the root's bus in a transaction of their own (a test standing in for a change). */
export const recordEvents = (root: Pick<Container, 'events'>, ...events: DomainEvent[]) =>
  root.events.transaction((trx) => root.events.record(trx, ...events));

/** A render's event with only the fields a test cares about (a stream shows just those). */
export const renderEvent = (
  userId: number,
  payload: Partial<RequestLive>,
  name: 'render.changed' | 'render.finished' | 'render.failed' = 'render.changed',
): DomainEvent => ({ name, userId, payload: payload as RequestLive });

/** A post's event with only the fields a test cares about. */
export const postEvent = (
  userId: number,
  payload: Partial<PostState>,
  name: 'post.changed' | 'post.published' | 'post.failed' = 'post.changed',
): DomainEvent => ({ name, userId, payload: payload as PostState });
