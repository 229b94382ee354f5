import type { Kysely } from 'kysely';

/**
 * 038 (issue 21 item 6): per-platform posts. Each publication × platform row of `publication_platforms` (024)
 * carries the post that platform gets: its own title/caption and options (src/contract/platform-posts.ts), as
 * JSON; null = made from the publication's shared title, description and tags, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('publication_platforms').addColumn('post', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('publication_platforms').dropColumn('post').execute();
}
