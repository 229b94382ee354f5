import { sql, type AliasedRawBuilder, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { SPEC_PLATFORMS, type SpecPlatform } from '../../src/contract/platforms';
import type { AccountPlatformsTable } from '../db/types';
import type { PlatformId } from '../platforms/types';

/**
 * A profile's fields per platform, in one place (the spec's API names for them are the same). The state a
 * platform connection keeps (its grant, its connected flag, its error, and the @handle and avatar the platform
 * last reported) is a row of `account_platforms` per profile × platform (migration 021); the operator's toggle,
 * the channel or profile name, description and link stay columns of `accounts` (what the spec's form edits).
 * A profile's row carries both under these names: the repository selects the state fields from the rows and
 * splits a patch between the two tables.
 */
export const COLS = {
  youtube: {
    active: 'isActiveYouTube',
    in: 'inYouTube',
    error: 'errorYouTube',
    tokens: 'tokensYouTubeSealed',
    title: 'titleChannel',
    description: 'description',
    url: 'urlChannel',
    handle: 'handleYouTube',
    avatar: 'avatarYouTube',
  },
  tiktok: {
    active: 'isActiveTikTok',
    in: 'inTikTok',
    error: 'errorTikTok',
    tokens: 'tokensTikTokSealed',
    title: 'titleTikTok',
    description: 'descriptionTikTok',
    url: 'urlTikTok',
    handle: 'handleTikTok',
    avatar: 'avatarTikTok',
  },
  instagram: {
    active: 'isActiveInstagram',
    in: 'inInstagram',
    error: 'errorInstagram',
    tokens: 'tokensInstagramSealed',
    title: 'profileNameInstagram',
    description: 'profileDescriptionInstagram',
    url: 'urlInstagram',
    handle: 'handleInstagram',
    avatar: 'avatarInstagram',
  },
} as const satisfies Record<SpecPlatform, Record<string, string>>;

/** The `account_platforms` column of each state field: as SQL names it, and as Kysely's row types do. */
const STATE_COLUMN = {
  active: { sql: 'active', row: 'active' },
  error: { sql: 'error', row: 'error' },
  tokens: { sql: 'tokens_sealed', row: 'tokensSealed' },
  handle: { sql: 'handle', row: 'handle' },
  avatar: { sql: 'avatar', row: 'avatar' },
} as const satisfies Record<string, { sql: string; row: keyof AccountPlatformsTable }>;
export type StateField = keyof typeof STATE_COLUMN;
const STATE_FIELDS = Object.keys(STATE_COLUMN) as StateField[];

/** The `account_platforms` field (Kysely's name) of a state field. */
export const rowFieldOf = (field: StateField) => STATE_COLUMN[field].row;

type FieldName<F extends StateField> = (typeof COLS)[SpecPlatform][F];
type FieldType<F extends StateField> = F extends 'active' ? number : string | null;

/** The state fields of a profile's row, under their row names (the connected flag 0/1, the others text). */
export type PlatformState = { [C in FieldName<'active'>]: number } & {
  [C in FieldName<Exclude<StateField, 'active'>>]: string | null;
};
/** A patch of state fields, under their row names. */
export type PlatformStatePatch = Partial<PlatformState>;

/** The state field a row name stands for (`isActiveTikTok` → tiktok's active), for splitting a patch. */
export const STATE_OF_NAME: ReadonlyMap<string, { platform: SpecPlatform; field: StateField }> = new Map(
  SPEC_PLATFORMS.flatMap((platform) =>
    STATE_FIELDS.map((field) => [COLS[platform][field], { platform, field }] as const),
  ),
);

/** One platform's state fields as its `account_platforms` row holds them (any platform of the registry). */
export type PlatformFields = {
  active: number;
  error: string | null;
  tokens: string | null;
  handle: string | null;
  avatar: string | null;
};

/** A platform the spec's API names (its state also travels on a profile's row under COLS' names). */
const isNamed = (platform: PlatformId): platform is SpecPlatform => Object.hasOwn(COLS, platform);

/** A profile's `account_platforms` row read as state fields (a platform without a row: not connected). */
export const fieldsOf = (
  r: (Omit<AccountPlatformsTable, 'active'> & { active: number }) | undefined,
): PlatformFields => ({
  active: Number(r?.active ?? 0),
  error: r?.error ?? null,
  tokens: r?.tokensSealed ?? null,
  handle: r?.handle ?? null,
  avatar: r?.avatar ?? null,
});

/**
 * A patch of one platform's state fields, for AccountsRepository.update (any platform of the registry): under the
 * row names a profile's row carries for the spec's platforms (so the profile's status follows them), as a
 * `platformRows` entry for any other.
 */
export function statePatch(platform: PlatformId, fields: Partial<PlatformFields>): PlatformStatePatch & OtherRows {
  if (!isNamed(platform)) return { platformRows: { [platform]: fields } };
  return Object.fromEntries(
    Object.entries(fields).map(([field, value]) => [COLS[platform][field as StateField], value]),
  ) as PlatformStatePatch;
}

/** State fields of platforms the spec's API does not name, by platform (AccountsRepository.update writes their rows). */
export type OtherRows = { platformRows?: Record<PlatformId, Partial<PlatformFields>> };

/** Patches joined into one, each platform's state fields merged (a later patch wins per field). */
export function joinPatches<P extends OtherRows>(...patches: P[]): P {
  const rows: Record<PlatformId, Partial<PlatformFields>> = {};
  for (const p of patches)
    for (const [platform, fields] of Object.entries(p.platformRows ?? {}))
      rows[platform] = { ...rows[platform], ...fields };
  return Object.assign({}, ...patches, { platformRows: rows }) as P;
}

/** The alias a query joins a platform's `account_platforms` row under (withPlatformRows). */
const rowAlias = (platform: SpecPlatform) => `ap_${platform}`;

/**
 * Joins each platform's `account_platforms` row of the profile in the query's `accounts` (left joins on the
 * primary key (account_id, platform); a platform without a row joins nulls). Every query that selects stateOf
 * calls it. The platform is printed as a literal: precompiled statements bind only their own arguments
 * (server/db/compiled-once.ts).
 */
export function withPlatformRows<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>) {
  return SPEC_PLATFORMS.reduce((out, platform) => {
    const alias = sql.raw(rowAlias(platform));
    return out.leftJoin(sql`account_platforms`.as(rowAlias(platform)), (join) =>
      join.on(sql<SqlBool>`${alias}.account_id = accounts.id and ${alias}.platform = ${sql.lit(platform)}`),
    ) as unknown as SelectQueryBuilder<DB, TB, O>;
  }, q);
}

/**
 * One state field of each platform, under its row name, from the rows withPlatformRows joined. A platform
 * without a row is not connected (0) and has no grant, error, handle or avatar (null).
 */
export function stateOf<F extends StateField>(field: F): Array<AliasedRawBuilder<FieldType<F>, FieldName<F>>> {
  return SPEC_PLATFORMS.map((platform) => {
    const value = sql`${sql.raw(rowAlias(platform))}.${sql.raw(STATE_COLUMN[field].sql)}`;
    const typed: RawBuilder<FieldType<F>> = field === 'active' ? sql`coalesce(${value}, 0)` : sql`${value}`;
    return typed.as(COLS[platform][field] as FieldName<F>);
  });
}

/** The profile in the query's `accounts` is connected to the platform (served by the (platform, active, account_id) index). */
export const connectedTo = (platform: PlatformId) =>
  sql<SqlBool>`accounts.id in (select ap.account_id from account_platforms ap where ap.platform = ${sql.lit(platform)} and ap.active = 1)`;

/** The profile holds any platform grant. */
export const holdsAnyGrant = () =>
  sql<SqlBool>`exists (select 1 from account_platforms ap where ap.account_id = accounts.id and ap.tokens_sealed is not null)`;

/** A platform handle of the profile matches a LIKE pattern (lower-cased, `\` escapes). */
export const handleMatches = (pattern: string) =>
  sql<SqlBool>`exists (select 1 from account_platforms ap where ap.account_id = accounts.id and lower(ap.handle) like ${pattern} escape '\\')`;
