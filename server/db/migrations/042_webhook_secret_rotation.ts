import type { Kysely } from 'kysely';

/**
 * 042 (issue 23 item 5, a gap closed): rotating a webhook's signing secret. A rotation moves the secret in use to
 * `previous_secret_sealed` (sealed as `secret_sealed` is, server/crypto/seal.ts) with the end of its grace period
 * (`previous_secret_until`, epoch ms); until then every delivery is signed with both secrets, the new one first.
 * Expand only: two nullable columns old processes never read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('previous_secret_sealed', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('previous_secret_until', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('previous_secret_until').execute();
  await db.schema.alterTable('webhooks').dropColumn('previous_secret_sealed').execute();
}
