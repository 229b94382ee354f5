import type { Notification, NoticeKind } from '../../src/contract/live';
import type { NotificationRow } from './live.repository';

/** A stored notification as the API and the stream show it. */
export const toNotification = (r: NotificationRow): Notification => ({
  id: r.id,
  kind: r.kind as NoticeKind,
  params: JSON.parse(r.params),
  link: r.link,
  readAt: r.readAt,
  createdAt: r.createdAt,
});
