import type { Kysely } from 'kysely';

/**
 * 007: every authenticated request asks whether its session (refresh-token family) is still live; one index
 * answers it from the index alone (family, not revoked, not expired), and revoking a family still uses it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('refresh_tokens_live')
    .on('refresh_tokens')
    .columns(['family_id', 'revoked_at', 'expires_at', 'user_id'])
    .execute();
  await db.schema.dropIndex('refresh_tokens_family').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
  await db.schema.dropIndex('refresh_tokens_live').execute();
}
