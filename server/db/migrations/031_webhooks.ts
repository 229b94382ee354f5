import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 031: webhooks (server/webhooks). A webhook is a URL its owner registered for some events (`events`, a JSON
 * array of names); its Standard Webhooks secret is sealed (server/crypto/seal.ts). Each attempt to deliver a
 * message is a row of `webhook_deliveries` (the delivery log): the message id (the same on every retry), the
 * event, the answer's status and the first characters of its body, or the network error. Times are epoch ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('webhooks'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').columns(['user_id', 'id']).execute();
  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event', 'varchar(40)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('will_retry', 'integer', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'varchar(500)')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
