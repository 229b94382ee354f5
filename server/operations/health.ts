import { sql } from 'kysely';
import type { Db } from '../db/index';
import type { Storage } from '../media/storage/index';

/** What readiness checks: the database answers a query, the media storage answers a listing. */
export type HealthCheck = 'database' | 'storage';

/** `/health/ready`'s answer: the names of the checks that failed, never their errors (they may name hosts or keys). */
export type Readiness = { status: 'ok' | 'unavailable'; failed: HealthCheck[] };

/** A check that does not answer within this counts as failed (a hung pool must not hang the probe). */
export const READY_TIMEOUT_MS = 5000;

/** Settles with `work`, or rejects after `ms` (the timer is cleared either way). */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The first entry of a cheap listing: on S3 one ListObjectsV2 (a missing bucket or bad credentials reject it). */
async function listOnce(storage: Storage): Promise<void> {
  for await (const _ of storage.list('health')) break;
}

/**
 * Readiness of this process (issue 20 item 3): the database answers `SELECT 1` and the configured storage (local
 * disk or S3) answers a listing, each within READY_TIMEOUT_MS. `onFailure` hears each failure with its error (for
 * the log); the answer names only the checks.
 */
export async function readiness(
  deps: { db: Db; storage: Storage },
  onFailure: (check: HealthCheck, err: unknown) => void,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<Readiness> {
  const checks: Record<HealthCheck, () => Promise<unknown>> = {
    database: () => sql`SELECT 1`.execute(deps.db),
    storage: () => listOnce(deps.storage),
  };
  const results = await Promise.all(
    (Object.keys(checks) as HealthCheck[]).map(async (check) => {
      try {
        await within(checks[check](), timeoutMs);
        return undefined;
      } catch (err) {
        onFailure(check, err);
        return check;
      }
    }),
  );
  const failed = results.filter((c): c is HealthCheck => c !== undefined);
  return { status: failed.length ? 'unavailable' : 'ok', failed };
}
