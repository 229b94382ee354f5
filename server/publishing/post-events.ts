import type { DomainEvent, PostState } from '../events/events';
import type { PostEventName } from './post-states';

/**
 * A post's event after a change (none when the row is gone): the event of its move (post-states.ts), or
 * 'post.changed' when it moved on without changing state (its upload went further). It carries the post for
 * its owner.
 */
export function postEvent(
  s: { userId: number; post: PostState } | undefined,
  name: PostEventName = 'post.changed',
): DomainEvent[] {
  if (!s) return [];
  return [{ name, userId: s.userId, payload: s.post }];
}
