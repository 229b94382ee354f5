import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 028: two-factor sign-in (server/two-factor).
 * - users.totp_secret_sealed: the confirmed TOTP secret (server/crypto/seal.ts), null when 2FA is off;
 *   users.totp_pending_sealed: a secret shown for enrolment and not yet confirmed with a code;
 *   users.totp_last_step: the last 30-second step a code was accepted for (a code is never accepted twice).
 * - recovery_codes: ten one-time codes per user, stored as SHA-256 hashes; `used_at` once spent.
 * The "everyone must use 2FA" switch is a row of `settings` (key `auth.require_two_factor`), no column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret_sealed', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_sealed', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await withId(db, db.schema.createTable('recovery_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').columns(['user_id', 'code_hash']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
  await db.schema.alterTable('users').dropColumn('totp_pending_sealed').execute();
  await db.schema.alterTable('users').dropColumn('totp_secret_sealed').execute();
}
