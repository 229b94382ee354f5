import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 011: lists that find (issue 11). The profile list is the one that grows to 10,000 rows, so it gets two
 * derived, lower-cased columns the database keeps up to date itself, whoever writes the row:
 * - `search`: channel, Instagram and TikTok names and the comment, what `?q=` looks in (a substring);
 * - `name_key`: the profile's title as the list shows it (channel, Instagram, TikTok name, else the comment),
 *   what `?sort=name` orders by, indexed with the id so a sorted page reads ten index entries.
 * PostgreSQL: generated STORED columns; `search` gets a pg_trgm GIN index (a `LIKE '%text%'` from three
 * characters on uses it) when the extension can be created (it is trusted since PostgreSQL 13, so a database
 * owner may); a search of one or two letters cannot use trigrams.
 * SQLite: plain columns filled by triggers. Its lower() is the connection's (server/db/index.ts folds every
 * script, as PostgreSQL's does).
 * Both: LIKE cannot use a b-tree for a substring, so `(user_id, search)` and `(search, id)` are covering
 * indexes: a search without trigrams scans ~60 bytes a profile instead of the ~3 KB row.
 * The smaller lists (groups, tag sets, folders) get (user_id, name) for their name sort.
 */
const TITLE_PARTS = ['title_channel', 'profile_name_instagram', 'title_tik_tok', 'comments'] as const;
const SEARCH = sql.raw(`lower(${TITLE_PARTS.map((c) => `coalesce(${c}, '')`).join(` || ' ' || `)})`);
const NAME_KEY = sql.raw(`lower(coalesce(${TITLE_PARTS.map((c) => `nullif(trim(${c}), '')`).join(', ')}, ''))`);

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table accounts add column search text generated always as (${SEARCH}) stored`.execute(db);
    await sql`alter table accounts add column name_key text generated always as (${NAME_KEY}) stored`.execute(db);
    if (await trigramAvailable(db)) {
      await sql`create index accounts_search_trgm on accounts using gin (search gin_trgm_ops)`.execute(db);
    }
  } else {
    await db.schema.alterTable('accounts').addColumn('search', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('name_key', 'text').execute();
    const fill = sql`update accounts set search = ${SEARCH}, name_key = ${NAME_KEY}`;
    await sql`create trigger accounts_search_insert after insert on accounts begin
      ${fill} where id = new.id; end`.execute(db);
    await sql`create trigger accounts_search_update after update of ${sql.raw(TITLE_PARTS.join(', '))} on accounts
      begin ${fill} where id = new.id; end`.execute(db);
    await fill.execute(db);
  }
  // Both: narrow covering indexes a search shorter than a trigram (or without pg_trgm) scans instead of the table.
  await db.schema.createIndex('accounts_search').on('accounts').columns(['user_id', 'search']).execute();
  await db.schema.createIndex('accounts_search_all').on('accounts').columns(['search', 'id']).execute();
  await db.schema.createIndex('accounts_name_key').on('accounts').columns(['name_key', 'id']).execute();
  await db.schema.createIndex('accounts_user_name_key').on('accounts').columns(['user_id', 'name_key', 'id']).execute();
  for (const table of ['account_groups', 'tag_sets', 'background_folders']) {
    await db.schema.createIndex(`${table}_user_name`).on(table).columns(['user_id', 'name']).execute();
  }
}

/** Creates pg_trgm when it can; a refusal (no privilege, not installed) is not an error, only slower search. */
async function trigramAvailable(db: Kysely<any>): Promise<boolean> {
  await sql`savepoint kadr_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint kadr_trgm`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint kadr_trgm`.execute(db);
    return false;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['account_groups', 'tag_sets', 'background_folders']) {
    await db.schema.dropIndex(`${table}_user_name`).execute();
  }
  await db.schema.dropIndex('accounts_user_name_key').execute();
  await db.schema.dropIndex('accounts_name_key').execute();
  for (const index of ['accounts_search_trgm', 'accounts_search', 'accounts_search_all']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  if (!isPostgres(db)) {
    await sql`drop trigger if exists accounts_search_insert`.execute(db);
    await sql`drop trigger if exists accounts_search_update`.execute(db);
  }
  for (const col of ['name_key', 'search']) await db.schema.alterTable('accounts').dropColumn(col).execute();
}
