import type { Kysely } from 'kysely';

/**
 * 024 (issue 19 item 2): a publication's platforms move out of its per-platform toggles (`in_youtube`,
 * `in_tiktok`, `in_instagram`) into rows of `publication_platforms`, one per publication × platform that is on;
 * the API still answers the spec's `inYouTube`, `inTikTok`, `inInstagram`, built from the rows. The primary key
 * (publication_id, platform) serves a publication's own rows and the claim re-check of the publish worker;
 * `(platform, publication_id)` the list's platform filter. Data carried over both ways.
 */
const TOGGLES = { youtube: 'in_youtube', tiktok: 'in_tiktok', instagram: 'in_instagram' } as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('publication_platforms')
    .addColumn('publication_id', 'integer', (c) => c.notNull().references('publications.id').onDelete('cascade'))
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addPrimaryKeyConstraint('publication_platforms_pk', ['publication_id', 'platform'])
    .execute();
  await db.schema
    .createIndex('publication_platforms_platform')
    .on('publication_platforms')
    .columns(['platform', 'publication_id'])
    .execute();
  for (const [platform, column] of Object.entries(TOGGLES)) {
    const on = await db.selectFrom('publications').select('id').where(column, '=', 1).execute();
    for (const { id } of on as { id: number }[])
      await db.insertInto('publication_platforms').values({ publication_id: id, platform }).execute();
    await db.schema.alterTable('publications').dropColumn(column).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [platform, column] of Object.entries(TOGGLES)) {
    await db.schema
      .alterTable('publications')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const on = await db
      .selectFrom('publication_platforms')
      .select('publication_id')
      .where('platform', '=', platform)
      .execute();
    for (const { publication_id } of on as { publication_id: number }[])
      await db
        .updateTable('publications')
        .set({ [column]: 1 })
        .where('id', '=', publication_id)
        .execute();
  }
  await db.schema.dropTable('publication_platforms').execute();
}
