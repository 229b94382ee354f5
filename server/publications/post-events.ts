import type { DomainEvent, PostState } from '../events/events';

/**
 * A post's event after a change (none when the row is gone): published or failed when the change moved it to
 * that state, else it moved on (another state, or its upload went further). It carries the post for its owner.
 */
export function postEvent(s: { userId: number; post: PostState } | undefined, stateChanged: boolean): DomainEvent[] {
  if (!s) return [];
  const { userId, post } = s;
  const reached = stateChanged ? post.state : undefined;
  const name = reached === 'published' ? 'post.published' : reached === 'failed' ? 'post.failed' : 'post.changed';
  return [{ name, userId, payload: post }];
}
