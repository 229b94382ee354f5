import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 030: personal API keys (server/api-keys). Only the SHA-256 of a key is stored (`token_hash`); `prefix` is its
 * first characters, shown to tell keys apart. Times are epoch ms. `window_until_ms` / `window_count` are the
 * key's rate window (API_KEY_RATE_LIMIT a minute), counted in the row so every API process counts together.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('api_keys'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('access', 'varchar(10)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(20)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('window_until_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('window_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
