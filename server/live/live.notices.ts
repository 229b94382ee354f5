import type { Notification, NoticeKind } from '../../src/contract/live';
import type { DeliveryContext, EventSubscriber } from '../events/subscriber';
import type { StoredEvent } from '../events/events';
import type { LiveRepository } from './live.repository';
import { toNotification } from './notification-record';

const requestsPath = '/video/request-create';
/** The admins' list of posts awaiting approval (src/approvals). */
const approvalsPath = '/approvals';
const requestPath = (idUpload: string) => `/video/request/${encodeURIComponent(idUpload)}`;
const publicationPath = (idUpload: string | null) =>
  idUpload ? `/video/youtube/${encodeURIComponent(idUpload)}` : null;

type Notice = { kind: NoticeKind; params: Notification['params']; link: string | null };

/** What an event tells its owner, if anything. */
function ownerNotice(e: StoredEvent): Notice | undefined {
  switch (e.name) {
    case 'render.finished':
      return {
        kind: 'render_done',
        params: { id: e.payload.id, count: e.payload.count },
        link: requestPath(e.payload.idUpload),
      };
    case 'render.failed':
      return { kind: 'render_failed', params: { id: e.payload.id, error: e.payload.error ?? '' }, link: requestsPath };
    case 'post.published': {
      const p = e.payload;
      return {
        kind: 'publish_done',
        params: { videoId: p.videoId, platform: p.platform },
        link: publicationPath(p.idUpload),
      };
    }
    case 'post.failed': {
      const p = e.payload;
      const params = { videoId: p.videoId, platform: p.platform, error: p.error ?? '' };
      return { kind: 'publish_failed', params, link: publicationPath(p.idUpload) };
    }
    case 'grant.lost': {
      const { accountId, platform } = e.payload;
      return { kind: 'reconnect', params: { id: accountId, platform }, link: `/accounts/${accountId}` };
    }
    case 'grant.expiring': {
      const { accountId, platform, error } = e.payload;
      return { kind: 'grant_expiring', params: { id: accountId, platform, error }, link: `/accounts/${accountId}` };
    }
    default:
      return undefined;
  }
}

/**
 * The bell, as a subscriber of the event bus: a finished or failed render, a published or failed post, a
 * platform grant about to expire and a lost one become a notification for their owner, a dead job and a post awaiting approval one for
 * every admin. Each is written
 * in the event's delivery transaction with a `notification.created` event, which the user's streams show.
 */
export function liveNotices(repo: LiveRepository): EventSubscriber {
  const notify = async ({ trx, record }: DeliveryContext, userId: number, n: Notice) => {
    const row = await repo.insertNotification(trx, { userId, ...n });
    if (row) await record({ name: 'notification.created', userId, payload: toNotification(row) });
  };

  return {
    name: 'notifications',
    events: [
      'render.finished',
      'render.failed',
      'post.published',
      'post.failed',
      'post.awaiting_approval',
      'grant.expiring',
      'grant.lost',
      'job.dead',
    ],
    async handle(e, ctx) {
      if (e.name === 'post.awaiting_approval') {
        const p = e.payload;
        const notice: Notice = {
          kind: 'approval_needed',
          params: { videoId: p.videoId, platform: p.platform },
          link: approvalsPath,
        };
        for (const admin of await repo.adminIds(ctx.trx)) await notify(ctx, admin, notice);
        return;
      }
      if (e.name === 'job.dead') {
        const p = (e.payload.payload ?? {}) as { requestId?: number; publishId?: number };
        let link: string | null = null;
        if (p.requestId) link = requestsPath;
        else if (p.publishId) link = publicationPath(await repo.publishUpload(ctx.trx, p.publishId));
        const notice: Notice = { kind: 'job_stalled', params: { job: e.payload.job }, link };
        for (const admin of await repo.adminIds(ctx.trx)) await notify(ctx, admin, notice);
        return;
      }
      const notice = ownerNotice(e);
      if (notice && e.userId !== null) await notify(ctx, e.userId, notice);
    },
  };
}
