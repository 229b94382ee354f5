import type { Kysely } from 'kysely';

/**
 * Profiles (accounts): every SPEC §3 Account field, secrets sealed (`*_sealed` columns hold
 * server/crypto/seal.ts values), OAuth tokens per platform (sealed JSON), per-platform errors.
 * Videos get the SPEC §3 Video item columns. `settings` holds the APP_KEY check value.
 */
const ACCOUNT_TEXT = [
  'comments',
  'proxy_sealed',
  'id_gpt',
  'you_tube_auth_client_id',
  'you_tube_auth_client_secret_sealed',
  'you_tube_login',
  'you_tube_password_sealed',
  'instagram_login',
  'instagram_password_sealed',
  'instagram_twofa_code_sealed',
  'description',
  'title_channel',
  'url_channel',
  'profile_name_instagram',
  'profile_description_instagram',
  'url_instagram',
  'title_tik_tok',
  'description_tik_tok',
  'url_tik_tok',
  'email_gpt',
  'password_gpt_sealed',
  'password_deep_seek_sealed',
  'proxy_gpt_sealed',
  'error',
  'error_you_tube',
  'error_tik_tok',
  'error_instagram',
  'tokens_you_tube_sealed',
  'tokens_tik_tok_sealed',
  'tokens_instagram_sealed',
  'updated_at',
];
const ACCOUNT_FLAGS = [
  'is_active_you_tube',
  'is_active_tik_tok',
  'is_active_instagram',
  'is_active_gpt',
  'in_you_tube',
  'in_tik_tok',
  'in_instagram',
  'in_gpt',
];
const VIDEO_TEXT = [
  'url',
  'id_upload',
  'date',
  'title',
  'description',
  'tags',
  'url_you_tube',
  'url_instagram',
  'url_tik_tok',
  'error',
  'error_instagram',
  'error_tik_tok',
];
const VIDEO_COUNTS = ['views', 'views_instagram', 'likes', 'likes_instagram', 'comments', 'comments_instagram'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('accounts')
    .addColumn('ip_version', 'varchar(8)', (c) => c.notNull().defaultTo('ipv4'))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('noactive'))
    .execute();
  for (const col of ACCOUNT_TEXT) await db.schema.alterTable('accounts').addColumn(col, 'text').execute();
  for (const col of ACCOUNT_FLAGS)
    await db.schema
      .alterTable('accounts')
      .addColumn(col, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

  await db.schema
    .alterTable('videos')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('noactive'))
    .execute();
  for (const col of VIDEO_TEXT) await db.schema.alterTable('videos').addColumn(col, 'text').execute();
  // Nullable with a default: SQLite multi-row inserts fill omitted columns with NULL, not DEFAULT; readers treat null as 0.
  for (const col of VIDEO_COUNTS)
    await db.schema
      .alterTable('videos')
      .addColumn(col, 'integer', (c) => c.defaultTo(0))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const col of [...VIDEO_TEXT, ...VIDEO_COUNTS, 'status'])
    await db.schema.alterTable('videos').dropColumn(col).execute();
  for (const col of [...ACCOUNT_TEXT, ...ACCOUNT_FLAGS, 'ip_version', 'status'])
    await db.schema.alterTable('accounts').dropColumn(col).execute();
  await db.schema.dropTable('settings').execute();
}
