import type { LiveEvent, PublishLive, RequestLive } from '../../src/contract/live';
import type { PostState, StoredEvent } from '../events/events';

const requestOf = (p: RequestLive): RequestLive => ({
  id: p.id,
  idUpload: p.idUpload,
  status: p.status,
  progress: p.progress,
  done: p.done,
  count: p.count,
  error: p.error,
});

const publishOf = (p: PostState): PublishLive => ({
  publishId: p.publishId,
  videoId: p.videoId,
  publicationId: p.publicationId,
  idUpload: p.idUpload,
  platform: p.platform,
  state: p.state,
  bytesSent: p.bytesSent,
  bytesTotal: p.bytesTotal,
});

/**
 * What a live stream shows of a domain event (src/contract/live.ts), if anything: a render's state as a
 * `request` message, a post's as a `publish` one, a profile's proxy check as a `profile` one, a new notification
 * as a `notification` one. Only the contract's fields go out, whatever else the event carries.
 */
export function toLiveEvent(e: StoredEvent): LiveEvent | undefined {
  switch (e.name) {
    case 'render.changed':
    case 'render.finished':
    case 'render.failed':
      return { id: e.id, kind: 'request', payload: requestOf(e.payload) };
    case 'post.changed':
    case 'post.awaiting_approval':
    case 'post.published':
    case 'post.failed':
      return { id: e.id, kind: 'publish', payload: publishOf(e.payload) };
    case 'profile.checked':
      return { id: e.id, kind: 'profile', payload: { accountId: e.payload.accountId, failing: e.payload.failing } };
    case 'notification.created':
      return { id: e.id, kind: 'notification', payload: e.payload };
    default:
      return undefined;
  }
}
