import type { Kysely } from 'kysely';

/** The indexes 025 adds: every query a worker runs in a loop, and the Jobs screen's summary, is served by one. */
const INDEXES = [
  /** Claiming a running job whose lease expired (a crashed worker's): status = running AND lease_until < now. */
  { name: 'jobs_leases', columns: ['status', 'lease_until'] },
  /** The prune: status = done (or dead) AND updated_at < the cutoff. */
  { name: 'jobs_finished', columns: ['status', 'updated_at'] },
  /** The Jobs screen's counts per kind and state (/metrics too): an index-only count per status. */
  { name: 'jobs_kinds', columns: ['status', 'name'] },
];

/**
 * 025: indexes of the job queue (issue 20 item 4; docs/operations.md shows the plans). jobs_claim (status, run_at)
 * from 005 already serves claiming a due queued job, the oldest due job and the stalled-successor lookup; the
 * lease, prune and summary queries get theirs here. Expand only: old processes run the same queries, faster.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const { name, columns } of INDEXES) await db.schema.createIndex(name).on('jobs').columns(columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
