import type { Kysely } from 'kysely';
import { withId } from '../schema-helpers.js';

/**
 * 036 (issue 21 item 3): posting slots, one row per profile × platform: weekdays (JSON array, 1 Monday … 7
 * Sunday) and wall-clock times (JSON array of 'HH:MM') in the profile's zone, and a minimum gap between posts in
 * minutes. The queue reads a profile's planned posts on one platform around a time: the index
 * (account_id, platform, due_at) on `video_publishes` serves that, and the capacity view's per-profile reads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('posting_slots'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('days', 'text', (c) => c.notNull())
    .addColumn('times', 'text', (c) => c.notNull())
    .addColumn('min_gap_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('posting_slots_account_platform', ['account_id', 'platform'])
    .execute();
  await db.schema
    .createIndex('video_publishes_account_due')
    .on('video_publishes')
    .columns(['account_id', 'platform', 'due_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('video_publishes_account_due').execute();
  await db.schema.dropTable('posting_slots').execute();
}
