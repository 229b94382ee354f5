import type { PlatformKey } from '../../src/contract/platforms';
import { IN_FLIGHT, NOT_STARTED, PUBLIC_STEP, videoStatusOf, type PublishState } from '../../src/contract/publications';
import type { Enqueue, JobQueue } from '../jobs/index';
import { enqueuePublishStep } from './publications.jobs';
import { ERROR_COLUMN } from './platform-columns';
import { fieldError } from './publication-rules';
import { holdVideoFile } from '../media/retention/retention.repository';
import { RM } from '../../src/contract/media';
import type { Exec, PublicationsRepository, PublishRow } from './publications.repository';

/** Retention must not remove the file while a post of it is scheduled; a file it removed cannot be published. */
async function holdFile(trx: Trx, videoId: number): Promise<void> {
  if (!(await holdVideoFile(trx, videoId))) throw fieldError('video', RM.mediaRemoved, { id: videoId });
}

type Queue = { enqueue: Enqueue; cancel: JobQueue['cancel']; runNow: JobQueue['runNow'] };
type Trx = Parameters<typeof enqueuePublishStep>[4] & Exec;

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
} as const;

/**
 * The publish rows' life as the API changes it, always in the caller's transaction, so a row and its job are
 * written together: schedule (a new row, or a cancelled or failed one again, with its first job at its date),
 * cancel (state 'cancelled' and its queued or running jobs removed: a running worker loses its lease) and
 * restart (SPEC: Publish again for a video in error or loading). Each new job gets the step after the highest
 * the queue still holds for that row (cancelled jobs are removed), so its key is free (the queue is idempotent by key).
 */
export class PublicationSchedule {
  constructor(
    private repo: PublicationsRepository,
    private queue: Queue,
  ) {}

  /** The row of `video` on `platform` set to 'scheduled' at `dueAt`, and its job queued for then. */
  async schedule(
    trx: Trx,
    video: { id: number; accountId: number; version: number },
    platform: PlatformKey,
    dueAt: string,
    existing?: PublishRow,
  ): Promise<void> {
    await holdFile(trx, video.id);
    const at = new Date().toISOString();
    let id: number;
    if (existing) {
      id = existing.id;
      await this.cancelJobs(trx, id);
      await this.repo.updatePublish(trx, id, {
        ...FRESH,
        state: 'scheduled',
        accountId: video.accountId,
        dueAt,
        videoVersion: video.version,
      });
    } else {
      id = await this.repo.insertPublish(trx, {
        videoId: video.id,
        platform,
        accountId: video.accountId,
        state: 'scheduled',
        dueAt,
        videoVersion: video.version,
        createdAt: at,
        updatedAt: at,
      });
    }
    await enqueuePublishStep(this.queue.enqueue, { id }, await this.repo.nextStep(id, trx), new Date(dueAt), trx);
  }

  /** Stops a row that has not reached the public step; returns false (and leaves it) when it has. */
  async cancel(trx: Trx, row: PublishRow): Promise<boolean> {
    const state = row.state as PublishState;
    if (PUBLIC_STEP.includes(state)) return false;
    await this.cancelJobs(trx, row.id);
    if (state !== 'cancelled') await this.repo.updatePublish(trx, row.id, { state: 'cancelled', waitUntil: null });
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
    if (state === 'published' || state === 'cancelled') return false;
    await holdFile(trx, row.videoId);
    let runAt = new Date();
    if (state === 'failed') {
      await this.cancelJobs(trx, row.id);
      await this.repo.updatePublish(trx, row.id, {
        ...FRESH,
        state: 'scheduled',
        dueAt: runAt.toISOString(),
        videoVersion,
      });
    } else {
      if ((await this.repo.liveJobKeys(row.id, trx)).length) return false;
      if (!NOT_STARTED.includes(state) && !IN_FLIGHT.includes(state) && !PUBLIC_STEP.includes(state)) return false;
      // A row still waiting for its date keeps it.
      if (state === 'scheduled' && Date.parse(row.dueAt) > runAt.getTime()) runAt = new Date(row.dueAt);
    }
    await enqueuePublishStep(this.queue.enqueue, { id: row.id }, await this.repo.nextStep(row.id, trx), runAt, trx);
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
    const keys = await this.repo.liveJobKeys(row.id, trx);
    const at = Date.now();
    if (!keys.length) {
      await this.restart(trx, row, Number(row.videoVersion));
    } else {
      let moved = false;
      for (const key of keys) moved = (await this.queue.runNow(key, trx)) || moved;
      if (!moved) return 'running';
    }
    const lift = row.state === 'waiting' ? { waitUntil: null } : {};
    await this.repo.updatePublish(trx, row.id, { ...lift, retryAtMs: at });
    return 'moved';
  }

  /** The video's status from its rows (after the caller changed them), written with the errors of restarted rows. */
  async refreshVideo(trx: Trx, videoId: number, clearErrorsOf: readonly PlatformKey[] = []): Promise<void> {
    const rows = await this.repo.publishes([videoId], trx);
    const errors = Object.fromEntries(clearErrorsOf.map((p) => [ERROR_COLUMN[p], null]));
    await this.repo.updateVideo(trx, videoId, {
      ...errors,
      status: videoStatusOf(rows.map((r) => r.state as PublishState)),
    });
  }

  private async cancelJobs(trx: Trx, publishId: number): Promise<void> {
    for (const key of await this.repo.liveJobKeys(publishId, trx)) await this.queue.cancel(key, trx);
  }
}
