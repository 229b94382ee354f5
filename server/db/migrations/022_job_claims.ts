import type { Kysely } from 'kysely';

/**
 * 022: jobs.claimed_at (epoch ms): when the job's current (or last) attempt was claimed, so the Jobs screen and
 * /metrics show the lag between a job's due time (run_at) and its claim. Expand only: a nullable column that old
 * processes neither read nor write (their claims leave it null, which shows as "not known").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('claimed_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('claimed_at').execute();
}
