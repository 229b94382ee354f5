import type { Db } from '../db/index';
import type { DeadCause, JobWorker } from '../jobs/index';
import type { AccountRow } from '../accounts/accounts.repository';
import type { PlatformKey } from '../../src/contract/platforms';
import { VideosRepository } from '../videos/videos.repository';
import { PublishRepository, type PublishPatch } from '../publications/publish.repository';
import type { PublishLive, RequestLive } from '../../src/contract/live';
import type { LiveRepository } from './live.repository';
import type { LiveService } from './live.service';
import { AuthRepository } from '../auth/auth.repository';
import type { SessionCache } from '../auth/session-cache';
import { UsersRepository } from '../users/users.repository';

/** Progress events per row at most this often (status changes always go out). */
export const PROGRESS_EVERY_MS = 500;

const requestsPath = '/video/request-create';
const requestPath = (idUpload: string) => `/video/request/${encodeURIComponent(idUpload)}`;
const publicationPath = (idUpload: string) => `/video/youtube/${encodeURIComponent(idUpload)}`;

/** A per-row gate: true when a progress event may go out now. */
function throttle() {
  const last = new Map<number, number>();
  return (id: number, force: boolean, done: boolean) => {
    const now = Date.now();
    if (!force && now - (last.get(id) ?? 0) < PROGRESS_EVERY_MS) return false;
    if (done) last.delete(id);
    else last.set(id, now);
    return true;
  };
}

/**
 * The create-video requests' repository, reporting: every state the render worker writes (status, percent, a
 * finished output) becomes a `request` event for the owner, and a finished or failed render a notification.
 */
export class LiveVideosRepository extends VideosRepository {
  private gate = throttle();

  constructor(
    db: Db,
    private live: LiveService,
  ) {
    super(db);
  }

  override async setState(id: number, patch: Parameters<VideosRepository['setState']>[1]): Promise<boolean> {
    const ok = await super.setState(id, patch);
    if (ok) await this.report(id, patch.status);
    return ok;
  }

  override async recordOutput(...args: Parameters<VideosRepository['recordOutput']>): Promise<boolean> {
    const ok = await super.recordOutput(...args);
    if (ok) await this.report(args[0].id, 'output');
    return ok;
  }

  private async report(id: number, change: string | undefined): Promise<void> {
    const terminal = change === 'success' || change === 'error';
    if (!this.gate(id, change !== undefined, terminal)) return;
    const r = await this.get(null, { id }).catch(() => undefined);
    if (!r) return;
    const payload: RequestLive = {
      id: r.id,
      idUpload: r.idUpload,
      status: r.status,
      progress: r.status === 'success' ? 100 : Number(r.progress),
      done: Number(r.done),
      count: Number(r.count),
      error: r.error,
    };
    await this.live.emit(r.userId, 'request', payload);
    if (change === 'success')
      await this.live.notify(r.userId, 'render_done', { id: r.id, count: r.count }, requestPath(r.idUpload));
    if (change === 'error')
      await this.live.notify(r.userId, 'render_failed', { id: r.id, error: r.error ?? '' }, requestsPath);
  }
}

/**
 * The publish job's repository, reporting: each recorded state and the upload's progress become `publish`
 * events for the video's owner; a published or failed video a notification.
 */
export class LivePublishRepository extends PublishRepository {
  private gate = throttle();

  constructor(
    db: Db,
    private live: LiveService,
    private liveRepo: LiveRepository,
  ) {
    super(db);
  }

  override async save(id: number, patch: PublishPatch, opts?: { unlessCancelled?: boolean }): Promise<boolean> {
    const ok = await super.save(id, patch, opts);
    if (ok && patch.state) await this.report(id, patch.state);
    return ok;
  }

  override async progress(id: number, bytesSent: number, bytesTotal: number): Promise<void> {
    await super.progress(id, bytesSent, bytesTotal);
    await this.report(id, undefined);
  }

  private async report(id: number, state: string | undefined): Promise<void> {
    const terminal = state === 'published' || state === 'failed' || state === 'cancelled';
    if (!this.gate(id, state !== undefined, terminal)) return;
    const [row, owner] = await Promise.all([this.row(id), this.liveRepo.publishOwner(id)]).catch(() => []);
    if (!row || !owner) return;
    const payload: PublishLive = {
      publishId: id,
      videoId: owner.videoId,
      publicationId: owner.publicationId,
      idUpload: owner.idUpload,
      platform: row.platform,
      state: row.state,
      bytesSent: Number(row.bytesSent),
      bytesTotal: Number(row.bytesTotal),
    };
    await this.live.emit(owner.userId, 'publish', payload);
    const link = owner.idUpload ? publicationPath(owner.idUpload) : null;
    const params = { videoId: owner.videoId, platform: row.platform };
    if (state === 'published') await this.live.notify(owner.userId, 'publish_done', params, link);
    if (state === 'failed')
      await this.live.notify(owner.userId, 'publish_failed', { ...params, error: row.error ?? '' }, link);
  }
}

/** Rows an UPDATE changed (Kysely's execute() answer). */
const changed = (r: { numUpdatedRows: bigint }[]) => r.reduce((n, x) => n + Number(x.numUpdatedRows), 0) > 0;

/**
 * The sessions' repository, reporting: a session that ends (logout, a refresh token replayed) or a user's
 * sessions revoked (a password change) make that user's open streams end at once, in every process.
 */
export class LiveAuthRepository extends AuthRepository {
  constructor(
    db: Db,
    sessionCache: SessionCache,
    private live: LiveService,
  ) {
    super(db, sessionCache);
  }

  override async revokeFamily(familyId: string, at: string) {
    const r = await super.revokeFamily(familyId, at);
    const owner = changed(r) ? await this.familyOwner(familyId) : undefined;
    if (owner !== undefined) await this.live.sessionChanged(owner);
    return r;
  }

  override async revokeAllForUser(userId: number, at: string, exceptFamilyId?: string) {
    const r = await super.revokeAllForUser(userId, at, exceptFamilyId);
    if (changed(r)) await this.live.sessionChanged(userId);
    return r;
  }
}

/**
 * The users' repository, reporting: an edited user (a role changed: a demoted admin's streams narrow to their
 * own events, a promoted user's widen) or a deleted one (their streams end), at once, in every process.
 */
export class LiveUsersRepository extends UsersRepository {
  constructor(
    db: Db,
    private live: LiveService,
  ) {
    super(db);
  }

  override async update(id: number, v: Parameters<UsersRepository['update']>[1]) {
    const r = await super.update(id, v);
    if (changed(r)) await this.live.sessionChanged(id);
    return r;
  }

  override async delete(id: number) {
    const r = await super.delete(id);
    await this.live.sessionChanged(id);
    return r;
  }
}

/** A profile's platform grant was refused: its owner is asked to reconnect it. */
export const grantLostNotice = (live: LiveService) => (row: AccountRow, platform: PlatformKey) =>
  void live.notify(row.userId, 'reconnect', { id: row.id, platform }, `/accounts/${row.id}`);

/**
 * Every job that goes dead (attempts used up, its worker lost on the last one) tells the admins, after the
 * job's own dead hook ran; a render's owner also hears of it through 'render_failed'.
 */
export function withStalledNotice(workers: JobWorker[], live: LiveService, liveRepo: LiveRepository): JobWorker[] {
  return workers.map((w) => ({
    ...w,
    onDead: async (payload: unknown, error: string, cause?: DeadCause) => {
      await w.onDead?.(payload, error, cause);
      const p = (payload ?? {}) as { requestId?: number; publishId?: number };
      let link: string | null = null;
      if (p.requestId) link = requestsPath;
      else if (p.publishId) {
        const owner = await liveRepo.publishOwner(p.publishId).catch(() => undefined);
        link = owner?.idUpload ? publicationPath(owner.idUpload) : null;
      }
      await live.notifyAdmins('job_stalled', { job: w.job.name }, link);
    },
  }));
}

/**
 * What the composition root wraps so that writers report: the repositories (sessions and users too, so that
 * open streams follow them), grant losses, dead jobs.
 */
export const liveObservers = (db: Db, live: LiveService, liveRepo: LiveRepository) => ({
  auth: (sessionCache: SessionCache) => new LiveAuthRepository(db, sessionCache, live),
  users: () => new LiveUsersRepository(db, live),
  videos: () => new LiveVideosRepository(db, live),
  publishes: () => new LivePublishRepository(db, live, liveRepo),
  grantLost: grantLostNotice(live),
  deadJobs: (workers: JobWorker[]) => withStalledNotice(workers, live, liveRepo),
});
