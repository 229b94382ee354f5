import type { PlatformId } from '../platforms/types';
import { IN_FLIGHT, NOT_STARTED, PUBLIC_STEP, videoStatusOf, type PublishState } from '../../src/contract/publications';
import type { Enqueue, JobQueue } from '../jobs/index';
import { enqueuePublishStep, publishJob, publishJobKey } from '../publishing/publishing.jobs';
import { duplicatePost } from '../publishing/duplicate-post';
import { ERROR_COLUMN, columnOf } from '../publishing/platform-columns';
import type { PublishingRepository } from '../publishing/publishing.repository';
import type { VideosRepository } from '../videos/videos.repository';
import { fieldError } from './publication-rules';
import { RM } from '../../src/contract/media';
import { APPROVAL_MESSAGES } from '../../src/contract/approvals';
import { encodeMessage } from '../../src/contract/stored-message';
import type { PostEventName } from '../publishing/post-states';
import type { Exec, PublicationsRepository, PublishRow } from './publications.repository';

type Queue = {
  enqueue: Enqueue;
  enqueueMany: JobQueue['enqueueMany'];
  cancel: JobQueue['cancel'];
  runNow: JobQueue['runNow'];
};
type Trx = Parameters<typeof enqueuePublishStep>[1] & Exec;

/** A row's fields back at the start: no handle, no progress, no outcome. */
const FRESH = {
  handleSealed: null,
  remoteId: null,
  remoteUrl: null,
  bytesSent: 0,
  error: null,
  errorKind: null,
  waitUntil: null,
  processingSince: null,
  publishedAt: null,
  attempt: 0,
  retryAtMs: null,
  // A post started afresh (scheduled again, moved in the calendar, published again) is approved afresh.
  approvedVersion: null,
  approvedBy: null,
  approvedAt: null,
} as const;

/**
 * The publish rows' life as the API changes it, always in the caller's transaction, so a row and its job are
 * written together: schedule (a new row, or a cancelled or failed one again, with its first job at its date),
 * cancel (state 'cancelled' and its queued or running jobs removed: a running worker loses its lease) and
 * restart (SPEC: Publish again for a video in error or loading). The row holds its chain's latest step
 * (video_publishes.step): the chain's live job is found by its exact key, and each new job gets the step after
 * it (or the same step when its job is gone), so its key is free (the queue is idempotent by key).
 */
export class PublicationSchedule {
  constructor(
    private repo: PublicationsRepository,
    private posts: PublishingRepository,
    private videos: VideosRepository,
    private queue: Queue,
  ) {}

  /**
   * The row of `video` on `platform` set to 'scheduled' at `dueAt`, and its job queued for then. A post that is
   * not live yet (a new row, or a cancelled one coming back) passes the duplicate guard (issue 21 item 5): the
   * same rendered file live on the same profile and platform is refused (a 409 on `repeat.field`) unless
   * `repeat.allow`, when it becomes a repeat of the latest of them (its `repeatOf`, a distinct key of the index).
   * A live row rescheduled (a move, an edit, a failed post published again) is the same post, never a repeat.
   */
  async schedule(
    trx: Trx,
    video: { id: number; accountId: number; version: number },
    platform: PlatformId,
    dueAt: string,
    existing?: PublishRow,
    repeat: { allow?: boolean; field?: string } = {},
  ): Promise<void> {
    if (!existing) return this.scheduleNew(trx, [{ video, platform, dueAt, repeat }]);
    await this.holdFile(trx, video.id);
    const at = new Date().toISOString();
    // A post that needs approval is looked at now, not at its date: the worker's gate stops it in
    // awaiting_approval at once, so the admins see it ahead of its date (approved, it waits for the date).
    const firstLook = (await this.posts.needsApproval(video.id, trx)) ? new Date(at) : new Date(dueAt);
    const sameRow = existing.state !== 'cancelled';
    let repeatOf = sameRow ? Number(existing.repeatOf) : 0;
    if (!sameRow) {
      const live = await this.posts.livePostsOfFile(trx, video.id, video.accountId, platform, existing.id);
      if (live.length && !repeat.allow)
        throw duplicatePost({ video: video.id, account: video.accountId, platform }, repeat.field);
      if (live.length) repeatOf = live[live.length - 1]!.id;
    }
    await this.cancelJob(trx, existing.id);
    await this.posts.move(
      trx,
      existing.id,
      'scheduled',
      { ...FRESH, accountId: video.accountId, dueAt, videoVersion: video.version, repeatOf },
      { evenCancelled: true },
    );
    await this.queueNext(trx, existing.id, firstLook);
  }

  /**
   * New posts (one from the form, many from a bulk import) in few round trips: each post's file held, the
   * duplicate guard (a post whose file is live on its profile and platform, the earlier posts of this call
   * included, is refused with a 409 on its `field` unless `allow`, when it repeats the latest of them), the rows
   * inserted in batches, and each row's first job queued at its date (now when its owner needs approval: the
   * worker's gate stops it in awaiting_approval at once, so the admins see it ahead of its date). Posts of one
   * file, profile and platform later in the list go in a later batch, so a repeat names the one before it.
   */
  async scheduleNew(
    trx: Trx,
    posts: readonly {
      video: { id: number; accountId: number; version: number };
      platform: PlatformId;
      dueAt: string;
      repeat: { allow?: boolean; field?: string };
    }[],
  ): Promise<void> {
    if (!posts.length) return;
    const videoIds = [...new Set(posts.map((p) => p.video.id))];
    const files = await this.videos.holdFiles(trx, videoIds);
    const gone = videoIds.find((id) => !files.has(id));
    if (gone !== undefined) throw fieldError('video', RM.mediaRemoved, { id: gone });
    const approval = await this.posts.needApproval(videoIds, trx);
    const keyOf = (p: { fileKey: string | null; accountId: number; platform: string }) =>
      JSON.stringify([p.fileKey, p.accountId, p.platform]);
    // The latest live post of each (file, profile, platform), as the batches add theirs.
    const latest = new Map<string, number>();
    const keys = [...new Set(files.values())].filter((k): k is string => k !== null);
    for (const r of await this.posts.livePostsOfFiles(trx, keys)) latest.set(keyOf(r), r.id);
    const at = new Date().toISOString();
    let rest = posts.map((p, i) => {
      const fileKey = files.get(p.video.id)!;
      // A video without a file yet repeats nothing (the duplicate index leaves such rows out).
      const key = fileKey === null ? `#${i}` : keyOf({ fileKey, accountId: p.video.accountId, platform: p.platform });
      return { ...p, fileKey, key };
    });
    while (rest.length) {
      const seen = new Set<string>();
      const batch: typeof rest = [];
      const later: typeof rest = [];
      for (const p of rest) {
        (seen.has(p.key) ? later : batch).push(p);
        seen.add(p.key);
      }
      const rows = batch.map((p) => {
        const live = latest.get(p.key);
        if (live !== undefined && !p.repeat.allow)
          throw duplicatePost({ video: p.video.id, account: p.video.accountId, platform: p.platform }, p.repeat.field);
        return {
          videoId: p.video.id,
          platform: p.platform,
          accountId: p.video.accountId,
          fileKey: p.fileKey,
          state: 'scheduled',
          dueAt: p.dueAt,
          videoVersion: p.video.version,
          repeatOf: live ?? 0,
          createdAt: at,
          updatedAt: at,
        };
      });
      const ids = await this.posts.insertMany(trx, rows);
      batch.forEach((p, i) => latest.set(p.key, ids[i]!));
      // A new row's chain starts at step 0, or 1 when a job of step 0's key is left from a row of the same id.
      const taken = await this.posts.jobStatuses(
        ids.map((id) => publishJobKey(id, 0)),
        trx,
      );
      for (const step of [0, 1]) {
        const of = ids.filter((id) => taken.has(publishJobKey(id, 0)) === (step === 1));
        if (of.length) await this.posts.recordSteps(trx, of, step);
      }
      await this.queue.enqueueMany(
        publishJob,
        ids.map((id, i) => {
          const step = taken.has(publishJobKey(id, 0)) ? 1 : 0;
          const runAt = approval.has(batch[i]!.video.id) ? new Date(at) : new Date(batch[i]!.dueAt);
          return { payload: { publishId: id, step }, key: publishJobKey(id, step), runAt };
        }),
        trx,
      );
      rest = later;
    }
  }

  /** Retention must not remove the file while a post of it is scheduled; a file it removed cannot be published. */
  private async holdFile(trx: Trx, videoId: number): Promise<void> {
    if (!(await this.videos.holdFile(trx, videoId))) throw fieldError('video', RM.mediaRemoved, { id: videoId });
  }

  /** Stops a row that has not reached the public step; returns false (and leaves it) when it has. */
  async cancel(trx: Trx, row: PublishRow): Promise<boolean> {
    const state = row.state as PublishState;
    if (PUBLIC_STEP.includes(state)) return false;
    await this.cancelJob(trx, row.id);
    if (state !== 'cancelled') await this.posts.move(trx, row.id, 'cancelled', { waitUntil: null });
    return true;
  }

  /**
   * Publish again: a failed row starts over now; a row on its way (waiting, uploading, processing, publishing,
   * reconcile) whose job was lost gets a new job now, and the worker goes on from the recorded step (an
   * unknown outcome is reconciled with the platform, never repeated). A row with a live job is left to it.
   * Returns whether anything was queued.
   */
  async restart(trx: Trx, row: PublishRow, videoVersion: number): Promise<boolean> {
    const state = row.state as PublishState;
    // One awaiting approval stays there: only an admin's approval moves it on.
    if (state === 'published' || state === 'cancelled' || state === 'awaiting_approval') return false;
    await this.holdFile(trx, row.videoId);
    let runAt = new Date();
    if (state === 'failed') {
      await this.cancelJob(trx, row.id);
      await this.posts.move(trx, row.id, 'scheduled', { ...FRESH, dueAt: runAt.toISOString(), videoVersion });
    } else {
      if (await this.liveJob(trx, row.id)) return false;
      if (!NOT_STARTED.includes(state) && !IN_FLIGHT.includes(state) && !PUBLIC_STEP.includes(state)) return false;
      // A row still waiting for its date keeps it.
      if (state === 'scheduled' && Date.parse(row.dueAt) > runAt.getTime()) runAt = new Date(row.dueAt);
    }
    await this.queueNext(trx, row.id, runAt);
    return true;
  }

  /**
   * "Retry now" on a retrying post: its chain's next step runs now instead of at its backoff or wait time.
   *
   * Why this cannot publish twice: nothing is added beside the chain. The one queued step of the row is moved
   * earlier, and only while it is still queued (a compare-and-set on the job's status), so two steps of one
   * row never run at once; a step a worker has already claimed is left to it ('running'). Running a step early
   * is safe in every state because each step starts from the recorded state, never from the last call: before
   * the public step it simply goes on; when the public step's outcome is unknown ('publishing', 'reconcile', or
   * an upload whose last chunk may have landed) the worker asks the platform first (reconcile, the session
   * probe, TikTok's status) and never calls the public step again blindly, so "retry now" there means
   * "reconcile now". A quota wait is lifted so the step asks for a slot again; with none free it waits again.
   * A row whose job was lost gets a new one now, as "publish again" does (restart).
   */
  async retryNow(trx: Trx, row: PublishRow): Promise<'moved' | 'running'> {
    const key = await this.liveJob(trx, row.id);
    const at = Date.now();
    if (!key) await this.restart(trx, row, Number(row.videoVersion));
    else if (!(await this.queue.runNow(key, trx))) return 'running';
    const lift = row.state === 'waiting' ? { waitUntil: null } : {};
    await this.posts.update(trx, row.id, { ...lift, retryAtMs: at });
    return 'moved';
  }

  /**
   * An admin approves a post awaiting approval for the video's `version`: it is scheduled again and its chain's
   * next step queued now (the worker then waits for its date, or goes at once when the date has passed). Answers
   * the move's event, or undefined when the post was no longer awaiting approval.
   */
  async approve(trx: Trx, row: PublishRow, version: number, by: number): Promise<PostEventName | undefined> {
    if (row.state !== 'awaiting_approval') return undefined;
    const approval = { approvedVersion: version, approvedBy: by, approvedAt: new Date().toISOString() };
    const event = await this.posts.move(trx, row.id, 'scheduled', { ...approval, error: null, errorKind: null });
    if (event) await this.queueNext(trx, row.id, new Date());
    return event;
  }

  /** An admin rejects a post awaiting approval: it fails with the admin's reason (a stored message). */
  async reject(trx: Trx, row: PublishRow, reason: string): Promise<PostEventName | undefined> {
    if (row.state !== 'awaiting_approval') return undefined;
    const error = encodeMessage(APPROVAL_MESSAGES.rejected, { reason });
    return this.posts.move(trx, row.id, 'failed', { ...FRESH, error, errorKind: 'refused' });
  }

  /**
   * After an edit of an approved post not yet gone out: its queued step runs now, so the worker's gate sees the
   * new version and asks for approval again at once rather than at the post's date.
   */
  async recheck(trx: Trx, row: PublishRow): Promise<void> {
    if (row.approvedVersion === null || !NOT_STARTED.includes(row.state as PublishState)) return;
    const key = await this.liveJob(trx, row.id);
    if (key) await this.queue.runNow(key, trx);
  }

  /** The video's status from its rows (after the caller changed them), written with the errors of restarted rows. */
  async refreshVideo(trx: Trx, videoId: number, clearErrorsOf: readonly PlatformId[] = []): Promise<void> {
    const rows = await this.repo.publishes([videoId], trx);
    const errors = Object.fromEntries(
      clearErrorsOf.flatMap((p) => (columnOf(ERROR_COLUMN, p) ? [[columnOf(ERROR_COLUMN, p), null]] : [])),
    );
    await this.videos.update(trx, videoId, {
      ...errors,
      status: videoStatusOf(rows.map((r) => r.state as PublishState)),
    });
  }

  /** The key of the job of the row's chain step (read from the row) while it is queued or running. */
  private async liveJob(trx: Trx, publishId: number): Promise<string | undefined> {
    const { step, status } = await this.posts.stepJob(publishId, trx);
    return status === 'queued' || status === 'running' ? publishJobKey(publishId, step) : undefined;
  }

  /**
   * The row's next step queued at `runAt` and recorded on the row: the step after the row's, or the row's own
   * when its job is gone (cancelled, or a new row's first step), so a key is never taken twice.
   */
  private async queueNext(trx: Trx, publishId: number, runAt: Date): Promise<void> {
    const { step, status } = await this.posts.stepJob(publishId, trx);
    const taken = status !== undefined;
    const deps = { enqueue: this.queue.enqueue, posts: this.posts };
    await enqueuePublishStep(deps, trx, publishId, taken ? step + 1 : step, runAt);
  }

  private async cancelJob(trx: Trx, publishId: number): Promise<void> {
    const key = await this.liveJob(trx, publishId);
    if (key) await this.queue.cancel(key, trx);
  }
}
