import type { SpecPlatform } from '../../src/contract/platforms';
import { COLS, stateOf, type PlatformState } from './platform-state';
import { accountTitle } from '../../src/contract/groups';
import { profileHandles, type AccountOption, type ProfileHandleColumns } from '../../src/contract/profile-identity';

/**
 * What names a profile (issue 18 item 1), read the same way by every list that shows one: the profile list, the
 * select options, a user's profiles, a publication's videos. Selections over `accounts`, each named as in the
 * row types: the title columns of 002, and each platform's handle and avatar from its `account_platforms` row.
 */
export const IDENTITY_TEXT_COLUMNS = [
  'accounts.comments',
  'accounts.titleChannel',
  'accounts.profileNameInstagram',
  'accounts.titleTikTok',
] as const;
export const IDENTITY_COLUMNS = [...IDENTITY_TEXT_COLUMNS, ...stateOf('handle'), ...stateOf('avatar')] as const;

/** A row that selected IDENTITY_COLUMNS (each as its name; null when the profile is not joined). */
export type IdentityRowColumns = {
  [K in (typeof IDENTITY_TEXT_COLUMNS)[number] as K extends `accounts.${infer C}` ? C : never]: string | null;
} & Pick<PlatformState, (typeof COLS)[SpecPlatform]['handle' | 'avatar']>;

/** A search text as a handle: '@name' and 'name' alike (a stored handle may carry its '@' or not). */
export const handleSearchText = (q: string) => q.trim().replace(/^@/, '');

export type IdentityRow = ProfileHandleColumns & { id: number; comments?: string | null };

/** The comment and the handles, as every answer naming a profile carries them. */
export const identityOf = (r: IdentityRow) => ({ comments: r.comments ?? null, handles: profileHandles(r) });

/**
 * A profile as a select option (title kept as before: the list's title; the comment and handles added; failing when
 * its stored status is 'error', server/accounts/account-record.ts).
 */
export const accountOption = (r: IdentityRow & { status: string }): AccountOption => ({
  id: r.id,
  title: accountTitle(r),
  value: r.id,
  ...identityOf(r),
  failing: r.status === 'error',
});
