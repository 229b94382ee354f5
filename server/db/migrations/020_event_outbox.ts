import { sql, type Kysely } from 'kysely';

/**
 * 020: the events table becomes the domain events' outbox (server/events).
 * - events.dispatch_at: when the event is due to its subscribers (epoch ms); null once delivered, or when no
 *   subscriber wants it (the partial index holds only the due ones, a handful).
 * - events.dispatch_attempts: deliveries that failed so far (each retried later, a few times).
 * - events.kind holds the event's name: the stream kinds written before are renamed to the events they stood
 *   for, so a panel resuming across the upgrade still receives what it missed (their notifications exist).
 */
const RENAMED = [
  ['request', 'render.changed'],
  ['publish', 'post.changed'],
  ['notification', 'notification.created'],
  ['session', 'session.changed'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('dispatch_at', 'bigint').execute();
  await db.schema
    .alterTable('events')
    .addColumn('dispatch_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('events_dispatch')
    .on('events')
    .column('dispatch_at')
    .where(sql.ref('dispatch_at'), 'is not', null)
    .execute();
  for (const [from, to] of RENAMED) await db.updateTable('events').set({ kind: to }).where('kind', '=', from).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [from, to] of RENAMED) await db.updateTable('events').set({ kind: from }).where('kind', '=', to).execute();
  await db.schema.dropIndex('events_dispatch').execute();
  await db.schema.alterTable('events').dropColumn('dispatch_attempts').execute();
  await db.schema.alterTable('events').dropColumn('dispatch_at').execute();
}
