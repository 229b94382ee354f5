import type { Kysely } from 'kysely';

/**
 * 013: live-stream tickets redeemed (issue 17): a ticket opens one stream, once. Its id is recorded when a
 * stream is opened with it, in the database so that several API processes sharing it cannot each redeem the
 * same ticket; `expires_ms` is when the ticket stops opening streams anyway (epoch milliseconds), after which
 * its row is pruned.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('live_ticket_redemptions')
    .addColumn('ticket_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expires_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('live_ticket_redemptions_expires')
    .on('live_ticket_redemptions')
    .column('expires_ms')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('live_ticket_redemptions').execute();
}
