import { sql, type Kysely } from 'kysely';

/**
 * 037 (issue 21 item 5): the duplicate guard. A post (video_publishes row) records the rendered file it posts
 * (`file_key`, the video's storage key: copies of one file placed on several profiles share it) and, when the
 * operator allowed a repeat, the live post it repeats (`repeat_of`, 0 for a first post). A partial unique index
 * over live posts (cancelled ones left out) on (file_key, account_id, platform, repeat_of) refuses the same file
 * to the same profile and platform twice, whatever path writes the row; an allowed repeat names its origin, so it
 * is a distinct key. Rows written before this migration get their file from their video; any duplicates already
 * there become repeats of the one before them, so the index can be built.
 */
const INDEX = 'video_publishes_no_repeat';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('video_publishes').addColumn('file_key', 'varchar(400)').execute();
  await db.schema
    .alterTable('video_publishes')
    .addColumn('repeat_of', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE video_publishes SET file_key = (SELECT storage_key FROM videos WHERE videos.id = video_publishes.video_id)`.execute(
    db,
  );
  const live = await db
    .selectFrom('video_publishes')
    .select(['id', 'file_key', 'account_id', 'platform'])
    .where('state', '<>', 'cancelled')
    .where('file_key', 'is not', null)
    .orderBy('id')
    .execute();
  const last = new Map<string, number>();
  for (const r of live as { id: number; file_key: string; account_id: number | null; platform: string }[]) {
    if (r.account_id === null) continue;
    const key = JSON.stringify([r.file_key, r.account_id, r.platform]);
    const before = last.get(key);
    if (before !== undefined)
      await db.updateTable('video_publishes').set({ repeat_of: before }).where('id', '=', r.id).execute();
    last.set(key, r.id);
  }
  await sql`CREATE UNIQUE INDEX ${sql.raw(INDEX)} ON video_publishes (file_key, account_id, platform, repeat_of) WHERE state <> 'cancelled'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(INDEX).execute();
  await db.schema.alterTable('video_publishes').dropColumn('repeat_of').execute();
  await db.schema.alterTable('video_publishes').dropColumn('file_key').execute();
}
