import { sql, type Kysely } from 'kysely';

/**
 * 021 (issue 19 item 2): a profile's state per platform moves out of per-platform columns of `accounts` into
 * rows of `account_platforms`, one per profile × platform it was ever connected to: the sealed grant, the
 * connected flag, the platform's error, and the @handle and avatar the platform last reported (018). The
 * operator's toggles (`in_*`), the channel or profile names, descriptions and links, and the spec's credentials
 * (logins, passwords, the profile's own OAuth client) stay columns of `accounts`: they are what the spec's form
 * edits, not a connection's state.
 * Numbered 021, not 019: 020 may already have run, and migrations only run in order (Kysely's migrator refuses a
 * new one below the last executed).
 * `(platform, active, account_id)` answers "the profiles connected to a platform" (the list's platform filter);
 * the primary key (account_id, platform) a profile's own rows.
 */
const PLATFORM_COLUMNS = {
  youtube: 'you_tube',
  tiktok: 'tik_tok',
  instagram: 'instagram',
} as const;
const columnsOf = (suffix: string) => ({
  tokens: `tokens_${suffix}_sealed`,
  active: `is_active_${suffix}`,
  error: `error_${suffix}`,
  handle: `handle_${suffix}`,
  avatar: `avatar_${suffix}`,
});

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_platforms')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('platform', 'varchar(32)', (c) => c.notNull())
    .addColumn('tokens_sealed', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('handle', 'text')
    .addColumn('avatar', 'text')
    .addPrimaryKeyConstraint('account_platforms_pk', ['account_id', 'platform'])
    .execute();
  await db.schema
    .createIndex('account_platforms_connected')
    .on('account_platforms')
    .columns(['platform', 'active', 'account_id'])
    .execute();
  for (const [platform, suffix] of Object.entries(PLATFORM_COLUMNS)) {
    const c = columnsOf(suffix);
    const ref = (name: string) => sql.ref(name);
    await sql`insert into account_platforms (account_id, platform, tokens_sealed, active, error, handle, avatar)
      select id, ${sql.lit(platform)}, ${ref(c.tokens)}, ${ref(c.active)}, ${ref(c.error)}, ${ref(c.handle)}, ${ref(c.avatar)}
      from accounts
      where ${ref(c.tokens)} is not null or ${ref(c.active)} <> 0 or ${ref(c.error)} is not null
        or ${ref(c.handle)} is not null or ${ref(c.avatar)} is not null`.execute(db);
    for (const column of Object.values(c)) await db.schema.alterTable('accounts').dropColumn(column).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [platform, suffix] of Object.entries(PLATFORM_COLUMNS)) {
    const c = columnsOf(suffix);
    await db.schema
      .alterTable('accounts')
      .addColumn(c.active, 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    for (const column of [c.tokens, c.error, c.handle, c.avatar]) {
      await db.schema.alterTable('accounts').addColumn(column, 'text').execute();
    }
    const from = (column: string) =>
      sql`(select ap.${sql.raw(column)} from account_platforms ap where ap.account_id = accounts.id and ap.platform = ${sql.lit(platform)})`;
    await sql`update accounts set ${sql.ref(c.tokens)} = ${from('tokens_sealed')}, ${sql.ref(c.active)} = coalesce(${from('active')}, 0),
      ${sql.ref(c.error)} = ${from('error')}, ${sql.ref(c.handle)} = ${from('handle')}, ${sql.ref(c.avatar)} = ${from('avatar')}`.execute(
      db,
    );
  }
  await db.schema.dropTable('account_platforms').execute();
}
