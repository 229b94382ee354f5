import type { Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 018 (issue 18, daily use):
 * - a profile names itself by its operator's comment, its id and its platform handles (item 1). Each platform's
 *   username (YouTube's @handle, TikTok's and Instagram's @username) and avatar link, as the platform reported
 *   them when the profile was connected or re-read; the channel or display name is already stored (002). Plain
 *   nullable text: nothing compares or sorts by them.
 * - the publication list filters by date (item 6): `videos.date_ms` is the video's planned date (`videos.date`,
 *   ISO text kept for the answers) as epoch ms, what SQL compares (never ISO text, see 012). The repository
 *   writes both together; existing dates are converted here (one that does not parse stays NULL: such a video
 *   matches no date range, and shows its date as before).
 */
const ACCOUNT_COLUMNS = [
  'handle_you_tube',
  'handle_tik_tok',
  'handle_instagram',
  'avatar_you_tube',
  'avatar_tik_tok',
  'avatar_instagram',
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const c of ACCOUNT_COLUMNS) await db.schema.alterTable('accounts').addColumn(c, 'text').execute();
  await db.schema
    .alterTable('videos')
    .addColumn('date_ms', isPostgres(db) ? 'bigint' : 'integer')
    .execute();
  await db.schema
    .createIndex('videos_publication_date_ms')
    .on('videos')
    .columns(['publication_id', 'date_ms'])
    .execute();
  // In JS, the same way the repository parses it: a few rows per publication, converted in pages of ids.
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('videos')
      .select(['id', 'date'])
      .where('id', '>', after)
      .where('date', 'is not', null)
      .orderBy('id')
      .limit(500)
      .execute();
    if (!rows.length) break;
    for (const r of rows) {
      const ms = Date.parse(r.date);
      if (Number.isFinite(ms)) await db.updateTable('videos').set({ date_ms: ms }).where('id', '=', r.id).execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('videos_publication_date_ms').execute();
  await db.schema.alterTable('videos').dropColumn('date_ms').execute();
  for (const c of ACCOUNT_COLUMNS) await db.schema.alterTable('accounts').dropColumn(c).execute();
}
