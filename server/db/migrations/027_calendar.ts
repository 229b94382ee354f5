import type { Kysely } from 'kysely';

/**
 * 027: the calendar's range query (server/calendar): every post due in a time range, whatever its state. The
 * (state, due_at) index of 008 serves the worker's sweeps by state; this one serves a range over all states.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('video_publishes_due').on('video_publishes').columns(['due_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('video_publishes_due').execute();
}
