import { accountTitle } from '../../src/contract/groups';
import { profileHandles, type AccountOption, type ProfileHandleColumns } from '../../src/contract/profile-identity';

/**
 * What names a profile (issue 18 item 1), read the same way by every list that shows one: the profile list, the
 * select options, a user's profiles, a publication's videos. Kysely column references of `accounts`, selected
 * as they are named in the row types (the title columns of 002, the handles and avatars of 018).
 */
export const IDENTITY_COLUMNS = [
  'accounts.comments',
  'accounts.titleChannel',
  'accounts.profileNameInstagram',
  'accounts.titleTikTok',
  'accounts.handleYouTube',
  'accounts.handleTikTok',
  'accounts.handleInstagram',
  'accounts.avatarYouTube',
  'accounts.avatarTikTok',
  'accounts.avatarInstagram',
] as const;

/** A row that selected IDENTITY_COLUMNS (each as its column name; null when the profile is not joined). */
export type IdentityRowColumns = {
  [K in (typeof IDENTITY_COLUMNS)[number] as K extends `accounts.${infer C}` ? C : never]: string | null;
};

/** The platform handles: what a search for a profile's @handle looks in. */
export const HANDLE_COLUMNS = ['accounts.handleYouTube', 'accounts.handleTikTok', 'accounts.handleInstagram'] as const;

/** A search text as a handle: '@name' and 'name' alike (a stored handle may carry its '@' or not). */
export const handleSearchText = (q: string) => q.trim().replace(/^@/, '');

export type IdentityRow = ProfileHandleColumns & { id: number; comments?: string | null };

/** The comment and the handles, as every answer naming a profile carries them. */
export const identityOf = (r: IdentityRow) => ({ comments: r.comments ?? null, handles: profileHandles(r) });

/** A profile as a select option (title kept as before: the list's title; the comment and handles added). */
export const accountOption = (r: IdentityRow): AccountOption => ({
  id: r.id,
  title: accountTitle(r),
  value: r.id,
  ...identityOf(r),
});
