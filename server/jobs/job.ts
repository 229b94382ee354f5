import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import { JM } from '../../src/contract/jobs';

/** Delay before retry number `attempt` (1-based: the delay after the first failure is backoff(1)). */
export type Backoff = (attempt: number) => number;

/** Exponential backoff: base·2^(attempt-1), capped, with ±20 % jitter so failed jobs do not retry in lockstep. */
export const exponentialBackoff =
  (baseMs = 5000, capMs = 10 * 60_000): Backoff =>
  (attempt) => {
    const ms = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(ms * (0.8 + Math.random() * 0.4));
  };

/**
 * What a failed attempt leads to. `retry`: queued again after `backoff(attempt)` until `maxAttempts` are used,
 * then dead. `never`: one attempt only; a failure (or a worker lost mid-run) goes dead at once and the job's
 * onDead hook decides what to reconcile: for work that must not run twice blindly (publishing a video).
 */
export type RetryPolicy = { kind: 'retry'; maxAttempts: number; backoff: Backoff } | { kind: 'never' };

export const DEFAULT_RETRY: RetryPolicy = { kind: 'retry', maxAttempts: 5, backoff: exponentialBackoff() };

/** Attempts a policy allows (stored on the job row when it is enqueued). */
export const attemptsOf = (policy: RetryPolicy): number => (policy.kind === 'never' ? 1 : policy.maxAttempts);

/**
 * Whether an operator may cancel (delete) a queued job of this kind from the Jobs screen: `safe` when nothing
 * waits on it (the next run does the same work), else the i18n key of why not (src/contract/jobs.ts JM), which
 * the 409 names. Each kind decides from what its job does; one that does not say is not cancelled.
 */
const UNDECLARED: CancelPolicy = { safe: false, reason: JM.cancelUndeclared };

export type CancelPolicy = { safe: true } | { safe: false; reason: string };

/**
 * One kind of job, as its domain declares it (server/<domain>/<domain>.jobs.ts): the name, the schema its
 * stored payload must match when a worker claims it (payloads outlive deploys), its retry policy and whether an
 * operator may cancel it.
 */
export type JobSpec<N extends string = string, P = unknown> = {
  name: N;
  payload: z.ZodType<P>;
  retry: RetryPolicy;
  cancel: CancelPolicy;
};

export function defineJob<N extends string, P>(spec: {
  name: N;
  payload: z.ZodType<P>;
  retry?: RetryPolicy;
  cancel?: CancelPolicy;
}): JobSpec<N, P> {
  return { ...spec, retry: spec.retry ?? DEFAULT_RETRY, cancel: spec.cancel ?? UNDECLARED };
}

/** A claimed job: its row as the handler sees it (the payload is handed over parsed, as the first argument). */
export type ClaimedJob = {
  id: number;
  name: string;
  key: string;
  attempts: number;
  maxAttempts: number;
  lockedBy: string;
  /** When it was due (epoch ms): a successor not later than this, with no change of state, made no progress. */
  runAt: number;
  /** Successors enqueued without progress along its chain up to this job (the queue's stall rule). */
  stalls: number;
  /** The progress mark it was enqueued with (EnqueueOptions.progress), or null. */
  progressMark: string | null;
};

/** What a handler gets besides its payload: the claimed job, and a signal that aborts when it must stop. */
export type JobContext = {
  job: ClaimedJob;
  /** Aborted on shutdown (reason 'shutdown') or when the lease is lost / the job cancelled (reason 'lost'). */
  signal: AbortSignal;
  log?: FastifyBaseLogger;
};

export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<void>;

/**
 * A job kind with the code that runs it, built by the composition root with the domain's dependencies.
 * `onDead` hears of every job of this kind that goes dead (attempts used up, a permanent failure, its worker
 * lost during the last attempt, or a chain that stopped making progress: `stalled`), with the reason, e.g. to
 * mark the request it served as failed. A stalled chain must end there, not be queued again.
 */
export type JobWorker<P = unknown> = {
  job: JobSpec<string, P>;
  // Method signatures: a worker of one payload type stands in a list of workers of any (the runner parses each
  // payload with the job's own schema before it calls them).
  handle(payload: P, ctx: JobContext): Promise<void>;
  onDead?(payload: P, error: string, cause?: DeadCause): Promise<void>;
};

/** Why a job went dead: its attempts (or lease) ran out / it failed for good, or its chain made no progress. */
export type DeadCause = 'failed' | 'stalled';

export const jobWorker = <P>(
  job: JobSpec<string, P>,
  handle: JobHandler<P>,
  onDead?: JobWorker<P>['onDead'],
): JobWorker<P> => ({ job, handle, onDead });

/** Thrown by a handler for a failure no retry can fix: the job goes dead at once with this message. */
export class PermanentJobError extends Error {}
