import { APPROVAL_MESSAGES } from '../../src/contract/approvals';
import type { PublishState } from '../../src/contract/publications';
import { actorOf, record } from '../audit/audit';
import type { Acting } from '../auth/guards';
import type { Db } from '../db/index';
import type { EventBus } from '../events/event-bus';
import { AppError, notFound } from '../http/errors';
import type { PublicationSchedule } from '../publications/publication-schedule';
import type { PublishingRepository, PublishRow } from '../publishing/publishing.repository';
import { postEvent } from '../publishing/post-events';
import type { PostEventName } from '../publishing/post-states';
import type { ApprovalsRepository } from './approvals.repository';

type Trx = Parameters<PublicationSchedule['approve']>[0];

/**
 * Approval before posting (issue 23 item 3), the admin's side; the routes let only admins in. The gate itself is
 * the publish worker's (publish.worker.ts, APPROVAL): this service lists the posts it stopped and decides them.
 * Each decision is one transaction: the post's move (PublicationSchedule.approve / reject, through the transition
 * table), its chain's next step when approved, the video's status, and the post's event (the owner's bell hears a
 * rejection as a failed post with the reason).
 */
export class ApprovalsService {
  constructor(
    private repo: ApprovalsRepository,
    private deps: { db: Db; posts: PublishingRepository; schedule: PublicationSchedule; events: EventBus },
  ) {}

  list(page: number) {
    return this.repo.list(page);
  }

  /** POST /api/approvals/{id}/approve: the post goes out at its date, or at once when the date has passed. */
  approve(admin: Acting, id: number) {
    return this.decide(admin, 'publication.approved', id, (trx, row, version) =>
      this.deps.schedule.approve(trx, row, version, admin.id),
    );
  }

  /** POST /api/approvals/{id}/reject {reason}: the post ends failed, its reason the admin's. */
  reject(admin: Acting, id: number, reason: string) {
    return this.decide(admin, 'publication.rejected', id, (trx, row) => this.deps.schedule.reject(trx, row, reason), {
      reason,
    });
  }

  private async decide(
    admin: Acting,
    action: 'publication.approved' | 'publication.rejected',
    id: number,
    act: (trx: Trx, row: PublishRow, version: number) => Promise<PostEventName | undefined>,
    detail: Record<string, unknown> = {},
  ): Promise<{ id: number; state: PublishState }> {
    const { posts, events, schedule } = this.deps;
    const done = await events.transaction(async (trx) => {
      const row = await posts.row(id, trx);
      if (!row) throw notFound();
      const version = await posts.videoVersion(row.videoId, trx);
      const event = row.state === 'awaiting_approval' ? await act(trx, row, version) : undefined;
      // Decided meanwhile (by another admin, or cancelled by its owner): a 409 that says so.
      if (!event) throw new AppError(409, APPROVAL_MESSAGES.notAwaiting, { id: APPROVAL_MESSAGES.notAwaiting });
      await schedule.refreshVideo(trx, row.videoId);
      await events.record(trx, ...postEvent(await posts.postState(id, trx), event));
      await record(trx, {
        ...actorOf(admin),
        action,
        objectType: 'post',
        objectId: id,
        detail: { video: row.videoId, platform: row.platform, version, ...detail },
      });
      const after = await posts.row(id, trx);
      return { id, videoId: row.videoId, state: (after?.state ?? row.state) as PublishState };
    });
    // The video's columns (its status, a rejected platform's reason) follow the post, as after a worker's step.
    await posts.writeBack(done.videoId);
    return { id: done.id, state: done.state };
  }
}
