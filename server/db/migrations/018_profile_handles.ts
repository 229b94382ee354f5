import type { Kysely } from 'kysely';

/**
 * 018: a profile names itself by its operator's comment, its id and its platform handles (issue 18 item 1).
 * Each platform's username (YouTube's @handle, TikTok's and Instagram's @username) and avatar link, as the
 * platform reported them when the profile was connected or re-read; the channel or display name is already
 * stored (002). Plain nullable text: nothing compares or sorts by them.
 */
const COLUMNS = [
  'handle_you_tube',
  'handle_tik_tok',
  'handle_instagram',
  'avatar_you_tube',
  'avatar_tik_tok',
  'avatar_instagram',
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const c of COLUMNS) await db.schema.alterTable('accounts').addColumn(c, 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of COLUMNS) await db.schema.alterTable('accounts').dropColumn(c).execute();
}
