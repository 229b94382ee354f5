/**
 * One step of a post's publish machine, as the publish worker (server/publishing/publish.worker.ts) hands it to a
 * platform's adapter: what the step sees of its row, what it may do (platform calls, progress, quota slots) and
 * what it ends in. The worker owns the row, the chain of jobs and the handle's sealing; the adapter owns the
 * platform's steps.
 */
import type { PublishState } from '../../src/contract/publications';
import type { PlatformHttp } from './http';
import type { MediaFacts, PublishMeta, PublishSource } from './publish-types';
import type { PlatformSettings } from './settings';
import type { PlatformDriver, PlatformError, TokenSet } from './types';

/** How long the job waits between looks, and how long a platform may process before the job gives a reason. */
export type PublishTiming = {
  /** Between two status polls of a processing video (TikTok, YouTube). */
  pollMs: number;
  /** Between two polls of an Instagram container (Meta: at most once a minute). */
  containerPollMs: number;
  /** Processing budget: after this long in 'processing' the row fails with a reason. */
  processingBudgetMs: number;
  /** First backoff after a passing fault (doubled per fault in a row, capped at 30 minutes). */
  backoffMs: number;
  /** Passing faults in a row before the row fails with kind 'retry-later'. */
  maxFaults: number;
  /** Minimum time between two progress writes. */
  progressEveryMs: number;
  /** YouTube chunk size override (tests use small ones so a fault lands mid-upload). */
  youtubeChunkSize?: number;
  /** How long one YouTube chunk's exchange may take, reply included (default 10 minutes: big chunks, slow links). */
  youtubeChunkTimeoutMs?: number;
  /** TikTok chunk size override. */
  tiktokChunkSize?: number;
};

/** The remote handles a platform stores (sealed JSON in `handle_sealed`), plus the job's own counters. */
export type PublishHandle = {
  /** Passing faults in a row (reset by any progress). */
  faults?: number;
  /** Unknown outcomes reconciled so far (bounded: a platform that never answers ends in a reason). */
  reconciles?: number;
  [k: string]: unknown;
};

/** What a platform call gets besides the driver: the profile's proxy-aware HTTP client, its tokens, the settings. */
export type PlatformCall = { http: PlatformHttp; tokens: TokenSet; settings: PlatformSettings };

/** A post slot taken (its usage rows, to give back when nothing was posted), or when one frees. */
export type QuotaSlot = { slot: number[]; until?: undefined } | { until: Date; slot?: undefined };

/** What a step records before going on. */
export type StepPatch = Partial<{
  state: PublishState;
  handle: PublishHandle;
  remoteId: string | null;
  bytesSent: number;
  bytesTotal: number;
  processingSince: string | null;
}>;

/** What one step of a platform's machine can see and do. */
export interface StepContext {
  /** The row as stored when the step was claimed. */
  row: { remoteId: string | null; processingSince: string | null };
  state: PublishState;
  handle: PublishHandle;
  meta: PublishMeta;
  timing: PublishTiming;
  signal: AbortSignal;
  now(): Date;
  /** A platform call through the profile's proxy with a fresh token; PlatformErrors come back as they are. */
  call<T>(fn: (driver: PlatformDriver, accessToken: string, call: PlatformCall) => Promise<T>): Promise<T>;
  /** Records the step (state, handle, ids) before going on; false when the row was cancelled meanwhile. */
  save(patch: StepPatch): Promise<boolean>;
  /** Upload progress: acknowledged bytes (written at most every `progressEveryMs`). */
  progress(acknowledged: number, total: number): void;
  source(): Promise<PublishSource>;
  facts(): Promise<MediaFacts>;
  /** Takes a post slot for the profile: the slot, or when one frees. */
  takeSlot(): Promise<QuotaSlot>;
  giveBack(slot: number[]): Promise<void>;
  /** An absolute signed link to the file (Instagram fetches it). */
  publicLink(): string;
}

/**
 * What a step ends in:
 * - `again`: look again after `delayMs` (a poll, a reconcile); the row's state says where it stands.
 * - `wait`: a quota or rate limit: 'waiting' with `until`, then the step that takes the slot.
 * - `published`: the post's id and link.
 * - `refused`: the platform refused the post after taking it (processing failure), or a gate refused the file.
 */
export type StepResult =
  | { next: 'again'; delayMs: number }
  | { next: 'wait'; until: Date; reason: PlatformError }
  | { next: 'published'; remoteId: string | null; url: string | null }
  | { next: 'refused'; error: PlatformError };

/**
 * The processing budget (PublishTiming.processingBudgetMs) counted from `since` (when the post began processing;
 * now when it is not recorded): null while it lasts (look again), else the budget in whole minutes (at least 1)
 * for the platform's timeout error.
 */
export function processingOverBudget(ctx: Pick<StepContext, 'now' | 'timing'>, since: string | null): number | null {
  const now = ctx.now().getTime();
  const start = since === null ? now : new Date(since).getTime();
  if (now - start <= ctx.timing.processingBudgetMs) return null;
  return Math.max(1, Math.round(ctx.timing.processingBudgetMs / 60_000));
}
