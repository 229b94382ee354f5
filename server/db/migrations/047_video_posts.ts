import type { Kysely } from 'kysely';

/**
 * 047 (issue 21 item 6, per video): a video's own title/caption per platform (src/contract/platform-posts.ts
 * VideoPostsSchema), as JSON on its `videos` row; null = the publication's platform text (038), then the video's
 * shared title, description and tags, as before. The options stay per publication × platform (038).
 * Expand: a new nullable column; an old process neither reads nor writes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('videos').addColumn('posts', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('videos').dropColumn('posts').execute();
}
