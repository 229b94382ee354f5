/**
 * The publish job (`publication.publish`, payload {publishId, step}): walks one `video_publishes` row, one
 * video to one platform, through its platform's adapter (server/platforms/registry.ts): `publish` while nothing
 * remote is stored, `reconcile` once a handle is (`started`). Design (ARCHITECTURE.md "Publishing, exactly once"):
 *
 * CHAIN. A row's jobs form a chain: step 0 is enqueued by the API at the video's date in the transaction that
 * writes the row; every later look (poll, backoff, reconcile, quota wait) is step+1, enqueued by this worker. The
 * queue never retries a step (retry 'never'): a step that dies (crash, lost lease, a thrown bug) reaches `onDead`,
 * which enqueues step+1 at once, so the next step RECONCILES from the recorded state instead of repeating. A job
 * whose step is below the row's (video_publishes.step, the chain's latest) is stale (a re-publish started a newer
 * chain) and does nothing.
 *
 * APPROVAL. A pre-platform claim of a post whose owner needs approval (users.needs_approval) and whose current
 * video version is not the approved one (video_publishes.approved_version) moves it to 'awaiting_approval' and ends
 * its chain; a job that finds a row awaiting approval does nothing. An admin's approval starts a new chain.
 *
 * CLAIM RE-CHECK (edits and deletes win). Before the row has reached the platform (state scheduled | waiting):
 * the row cancelled, the video gone or out of its publication, or the platform toggled off → 'cancelled', no
 * call made. The video's version differing from the row's → the row adopts it (metadata is always read fresh)
 * and, when the video's date moved into the future, waits for it. Not yet due → step+1 at due_at.
 *
 * STATES per platform (stored before each step; H = handle stored sealed in handle_sealed BEFORE the step):
 *   YouTube:   scheduled → [quota: units + inserts per Pacific day] → [gate: ffprobe → checkYouTubeFile]
 *              → startUpload → H{sessionUri, since} 'uploading' → upload (PUBLIC: the last chunk makes the video;
 *              the publisher asks the session where it stands first and after every fault, resuming from the acknowledged byte)
 *              → remote_id 'processing' → videoStatus polled → 'published' | failed with the reason.
 *              Re-entry in 'uploading': upload() probes again; 404/410 expired → findUploaded(title, since):
 *              found → its id; none → a new session (a new H), never a second video.
 *   TikTok:    scheduled → [quota: posts per creator per 24 h] → creatorInfo (read-only) → [gate with the
 *              creator's max duration] → init → H{publishId, uploadUrl, plan, username} 'uploading' → chunked
 *              upload (PUBLIC: the last chunk) → 'processing' → status polled → PUBLISH_COMPLETE 'published' |
 *              FAILED 'failed' (fail_reason). Re-entry in 'uploading': status() first; uploaded bytes → resume
 *              from tiktokResumeChunk; complete → 'processing'; upload_expired + incomplete → a new init
 *              (at most maxFaults of them).
 *   Instagram: scheduled → [quota: posts per 24 h, ours and content_publishing_limit] → [gate: file + caption]
 *              → createContainer(absolute signed link at PUBLIC_URL) → H{containerId, caption} 'processing' →
 *              containerStatus polled (FINISHED → on; ERROR → reason; retryable ERROR → a new container, bounded)
 *              → H{publishAt} 'publishing' → media_publish (PUBLIC) → 'published' (permalink). Re-entry in
 *              'publishing' or an unknown outcome → 'reconcile': reconcile() says published (store) | ready
 *              (publish again is safe) | processing | expired (a new container) | failed.
 * Read-only steps (status, probe, creator info, container status, reconcile) are retried freely through step+1
 * with backoff; the public step is never called again once its outcome is unknown: the next step reconciles.
 *
 * QUOTA waits: a slot is taken in platform_usage just before the call that creates the post; when none is free
 * the row turns 'waiting' with wait_until (next Pacific midnight, or when the 24 h window frees one) and step+1
 * is enqueued then. A platform's own limit answer (quotaExceeded, spam_risk_too_many_posts, publish limit with
 * Retry-After) does the same. ERRORS end in one of four kinds: retry-later (faults in a row beyond maxFaults),
 * reconnect (the grant is gone), bad-request (the gate or our request), refused (the platform's processing
 * refusal), each a stored i18n message on the row and on the video. PROCESSING has a time budget.
 *
 * SHOWN, not used: `attempt` and `retry_at_ms` mirror the fault (or reconcile) count and the next look for the
 * panel's "retrying" state; progress clears them. Nothing here reads them back. The API's "retry now"
 * (PublicationSchedule.retryNow) only moves the chain's queued step earlier, never adds one beside it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Sealer } from '../crypto/seal';
import type { EventBus } from '../events/event-bus';
import type { ClaimedJob, DeadCause, Enqueue, JobContext } from '../jobs/index';
import type { PlatformConnections } from '../accounts/platform-connections';
import type { AccountsRepository } from '../accounts/accounts.repository';
import { AppError } from '../http/errors';
import { MediaError } from '../media/ffmpeg/media-error';
import { PlatformError, isPlatformError } from '../platforms/types';
import type { PublishHandle, PublishTiming, StepContext, StepResult } from '../platforms/publish-step';
import type { PlatformRegistry } from '../platforms/registry';
import { encodeMessage } from '../../src/contract/stored-message';
import type { PublishErrorKind, PublishState } from '../../src/contract/publications';
import { enqueuePublishStep, type PublishChain } from './publishing.jobs';
import type { PublishPatch, PublishingRepository, PublishRow, PublishTarget } from './publishing.repository';
import { postEvent } from './post-events';
import type { PublishQuota } from './publish.quota';
import type { PublishMedia } from './publish.media';

export type PublishWorkerDeps = {
  repo: PublishingRepository;
  /** A post's state changes and upload progress are recorded as events with them (post-events.ts). */
  events: EventBus;
  accounts: AccountsRepository;
  connections: PlatformConnections;
  quota: PublishQuota;
  media: PublishMedia;
  sealer: Sealer;
  enqueue: Enqueue;
  platforms: PlatformRegistry;
  timing: PublishTiming;
  now?: () => Date;
  log?: FastifyBaseLogger;
};

const PRE_PLATFORM: PublishState[] = ['scheduled', 'waiting'];
const DONE: PublishState[] = ['published', 'failed', 'cancelled'];
const MAX_BACKOFF_MS = 30 * 60_000;
const E = (key: string, params?: Record<string, string | number>) => encodeMessage(`kadr.publish.${key}`, params);

export class PublishWorker {
  private readonly now: () => Date;

  constructor(private deps: PublishWorkerDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** One step of the row's chain. */
  handle = async (payload: { publishId: number; step: number }, ctx: JobContext): Promise<void> => {
    const { repo } = this.deps;
    const row = await repo.row(payload.publishId);
    if (!row || DONE.includes(row.state as PublishState)) return;
    if (payload.step < row.step) return;
    // A post awaiting approval goes nowhere: only an admin's approval (PublicationSchedule.approve) moves it on.
    if (row.state === 'awaiting_approval') return;
    const state = row.state as PublishState;
    const target = await repo.target(row);
    const job = ctx.job;
    const next = (at: Date) => this.enqueueNext(row, payload.step, at, job);
    if (PRE_PLATFORM.includes(state)) {
      if (!target || target.publicationId === null || !target.platformOn || !target.storageKey) {
        await this.save(row.id, { state: 'cancelled', waitUntil: null });
        if (target) await repo.writeBack(target.videoId);
        return;
      }
      let due = new Date(row.dueAt);
      if (target.version !== row.videoVersion) {
        const date = target.date ? new Date(target.date) : due;
        due = Number.isNaN(date.getTime()) ? due : date;
        await this.save(row.id, { videoVersion: target.version, dueAt: due.toISOString() });
      }
      // APPROVAL GATE (issue 23): every way in (the publish form, the API, AI publish, retry now, publish again, a
      // calendar move) ends in this claim, so the gate stands here and not in a form. A post of a user needing
      // approval whose current version no admin approved stops in awaiting_approval: nothing is sent.
      if (target.needsApproval && row.approvedVersion !== target.version) {
        const held = { waitUntil: null, error: null, errorKind: null, attempt: 0, retryAtMs: null };
        if (await this.save(row.id, { ...held, state: 'awaiting_approval' })) await repo.writeBack(row.videoId);
        return;
      }
      const waitUntil = row.waitUntil ? new Date(row.waitUntil) : null;
      const notBefore = waitUntil && waitUntil > due ? waitUntil : due;
      if (notBefore.getTime() > this.now().getTime()) return next(notBefore);
    }
    if (!target?.storageKey) return this.fail(row, 'bad-request', E('file_missing'));
    const handle = this.openHandle(row);
    const step = this.stepContext(row, state, handle, target.storageKey, target, ctx.signal);
    const adapter = this.deps.platforms[row.platform];
    let result: StepResult;
    try {
      result = await (adapter.started(step) ? adapter.reconcile(step) : adapter.publish(step));
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return this.failure(row, payload.step, handle, e, job);
    }
    await this.outcome(row, payload.step, result, job);
  };

  /**
   * A step that died (worker lost mid-call, or a thrown bug): its outcome is unknown, so the next step reconciles
   * from the recorded state. Bounded: a row that keeps dying fails with a reason instead of looping. A chain the
   * queue stopped for making no progress (`stalled`) fails at once: reconciling would only start it again.
   */
  onDead = async (payload: { publishId: number; step: number }, error: string, cause?: DeadCause): Promise<void> => {
    const row = await this.deps.repo.row(payload.publishId);
    if (!row || DONE.includes(row.state as PublishState)) return;
    if (cause === 'stalled') {
      this.deps.log?.warn({ publishId: row.id, step: payload.step, error }, 'publish chain stalled: failed');
      return this.fail(row, 'retry-later', E('stalled'));
    }
    const handle = this.openHandle(row);
    const reconciles = (handle.reconciles ?? 0) + 1;
    this.deps.log?.warn({ publishId: row.id, step: payload.step, error }, 'publish step lost: reconciling');
    if (reconciles > this.deps.timing.maxFaults) return this.fail(row, 'retry-later', E('worker_lost'));
    const at = this.now();
    // attempt and retry_at_ms only tell the panel (the row shows as retrying); the handle decides.
    await this.save(row.id, {
      handleSealed: this.seal({ ...handle, reconciles }),
      attempt: reconciles,
      retryAtMs: at.getTime(),
    });
    await this.enqueueNext(row, payload.step, at);
  };

  private async outcome(row: PublishRow, step: number, r: StepResult, job?: ClaimedJob): Promise<void> {
    const { repo } = this.deps;
    switch (r.next) {
      case 'again':
        return this.enqueueNext(row, step, new Date(this.now().getTime() + r.delayMs), job);
      case 'wait': {
        const current = (await repo.row(row.id))?.state as PublishState | undefined;
        const patch = { waitUntil: r.until.toISOString(), error: r.reason.message, errorKind: 'retry-later' as const };
        const waiting = !current || PRE_PLATFORM.includes(current);
        if (!(await this.save(row.id, waiting ? { ...patch, state: 'waiting' } : patch))) return;
        await repo.writeBack(row.videoId);
        return this.enqueueNext(row, step, r.until, job);
      }
      case 'published': {
        const done = { remoteId: r.remoteId, remoteUrl: r.url, publishedAt: this.now().toISOString() };
        const patch = { ...done, error: null, errorKind: null, waitUntil: null, attempt: 0, retryAtMs: null };
        // Live is live: a cancel that raced the public step does not hide the post.
        await this.save(row.id, { ...patch, state: 'published' }, { evenCancelled: true });
        await repo.writeBack(row.videoId);
        return;
      }
      case 'refused':
        return this.fail(row, isPlatformError(r.error) ? kindOf(r.error, true) : 'refused', r.error.message);
    }
  }

  /** A thrown failure sorted into what happens next. */
  private async failure(
    row: PublishRow,
    step: number,
    handle: PublishHandle,
    e: unknown,
    job?: ClaimedJob,
  ): Promise<void> {
    if (e instanceof MediaError) return this.fail(row, 'bad-request', E('file_unreadable'));
    if (e instanceof AppError) return this.fail(row, 'reconnect', encodeMessage(e.message, e.args));
    if (!isPlatformError(e)) throw e; // a bug: onDead reconciles from the recorded state
    const kind = kindOf(e, false);
    if (kind !== 'retry-later') return this.fail(row, kind, e.message);
    const until = this.deps.platforms[row.platform].limitWait(e, this.now());
    if (until) return this.outcome(row, step, { next: 'wait', until, reason: e }, job);
    const faults = (handle.faults ?? 0) + 1;
    if (faults > this.deps.timing.maxFaults) return this.fail(row, 'retry-later', e.message);
    const base = this.deps.timing.backoffMs * 2 ** (faults - 1);
    const delay = Math.max(Math.min(base, MAX_BACKOFF_MS), (e.retryAfterSec ?? 0) * 1000);
    const latest = this.openHandle((await this.deps.repo.row(row.id)) ?? row);
    const at = new Date(this.now().getTime() + delay);
    const shown = { attempt: faults, retryAtMs: at.getTime() }; // what the panel shows: attempt and next try
    await this.save(row.id, { handleSealed: this.seal({ ...latest, faults }), error: e.message, ...shown });
    await this.enqueueNext(row, step, at, job);
  }

  private async fail(row: PublishRow, kind: PublishErrorKind, message: string): Promise<void> {
    const patch = { state: 'failed' as const, error: message, errorKind: kind, waitUntil: null };
    if (await this.save(row.id, patch)) await this.deps.repo.writeBack(row.videoId);
  }

  /**
   * Step+1 at `at`, recorded on the row with its job (enqueuePublishStep). Queued by a running step (`job`), it
   * carries the row's progress mark (state, last write, bytes sent) for the queue's stall rule; onDead's reconcile
   * step starts afresh.
   */
  private async enqueueNext(row: PublishRow, step: number, at: Date, job?: ClaimedJob): Promise<void> {
    let chain: PublishChain | undefined;
    if (job) {
      const now = (await this.deps.repo.row(row.id)) ?? row;
      chain = { after: job, progress: `${now.state}|${now.updatedAt}|${now.bytesSent}` };
    }
    const { repo, enqueue } = this.deps;
    await repo.transaction((trx) => enqueuePublishStep({ enqueue, posts: repo }, trx, row.id, step + 1, at, chain));
  }

  /**
   * Writes the row's step (PublishingRepository.save) and, when its state moves, moves it through the transition
   * table and records the move's event with it (`evenCancelled`: a post gone live stays live).
   */
  private save(id: number, patch: PublishPatch, opts?: { evenCancelled?: boolean }): Promise<boolean> {
    const { repo, events } = this.deps;
    const { state, ...rest } = patch;
    if (!state) return repo.save(id, rest);
    return events.transaction(async (trx) => {
      const event = await repo.move(trx, id, state, rest, opts);
      if (event) await events.record(trx, ...postEvent(await repo.postState(id, trx), event));
      return event !== undefined;
    });
  }

  /** Writes the upload's progress and the post's event with it. */
  private progress(id: number, bytesSent: number, bytesTotal: number): Promise<void> {
    const { repo, events } = this.deps;
    return events.transaction(async (trx) => {
      await repo.progress(id, bytesSent, bytesTotal, trx);
      await events.record(trx, ...postEvent(await repo.postState(id, trx)));
    });
  }

  private openHandle(row: PublishRow): PublishHandle {
    if (!row.handleSealed) return {};
    try {
      return JSON.parse(this.deps.sealer.open(row.handleSealed)) as PublishHandle;
    } catch {
      return {};
    }
  }

  private seal(h: PublishHandle): string {
    return this.deps.sealer.seal(JSON.stringify(h));
  }

  private stepContext(
    row: PublishRow,
    state: PublishState,
    handle: PublishHandle,
    key: string,
    meta: Pick<PublishTarget, 'title' | 'description' | 'tags' | 'post' | 'aiMade'>,
    signal: AbortSignal,
  ): StepContext {
    const { repo, media, quota, timing } = this.deps;
    let lastWrite = 0;
    // Progress writes are chained and a step's save waits for them, so a late progress write can never land
    // after (and undo) the byte count a save recorded.
    let progressWrites: Promise<void> = Promise.resolve();
    let current = handle;
    return {
      row,
      state,
      handle,
      meta: {
        title: meta.title,
        description: meta.description,
        tags: meta.tags,
        post: meta.post,
        aiMade: meta.aiMade,
      },
      timing,
      signal,
      now: this.now,
      call: async (fn) => {
        const account = row.accountId ? await this.deps.accounts.get(row.accountId) : undefined;
        if (!account)
          throw new PlatformError({ kind: 'reconnect', key: 'unknown_platform', params: { platform: '-' } });
        return this.deps.connections.callPlatform(account, row.platform, fn);
      },
      save: async ({ handle: h, ...patch }) => {
        await progressWrites;
        if (h) current = { ...current, ...h, faults: 0 };
        const sealed = h ? { handleSealed: this.seal(current) } : {};
        const clear = { error: null, errorKind: null, waitUntil: null, attempt: 0, retryAtMs: null };
        const ok = await this.save(row.id, { ...patch, ...sealed, ...clear });
        if (ok && patch.state) await repo.writeBack(row.videoId);
        return ok;
      },
      progress: (acknowledged, total) => {
        const t = Date.now();
        if (acknowledged < total && t - lastWrite < timing.progressEveryMs) return;
        lastWrite = t;
        progressWrites = progressWrites.then(() => this.progress(row.id, acknowledged, total)).catch(() => undefined);
      },
      source: async () => {
        const s = await media.source(key);
        if (!s) throw new MediaError('not_media', `publish source missing: ${key}`, { file: key });
        return s;
      },
      facts: () => media.facts(key, signal),
      takeSlot: () => quota.take(row.platform, row.accountId ?? 0, this.now()),
      giveBack: (slot) => quota.giveBack(slot),
      publicLink: () => media.publicLink(key, this.now().getTime()),
    };
  }
}

/** The four kinds the panel shows; `refused` is the platform turning down a post it had taken. */
function kindOf(e: PlatformError, processing: boolean): PublishErrorKind {
  if (e.kind === 'reconnect' || e.kind === 'refresh-token') return 'reconnect';
  if (e.kind === 'retry-later' || e.kind === 'proxy') return processing ? 'refused' : 'retry-later';
  return processing ? 'refused' : 'bad-request';
}
