import { useWatch } from 'react-hook-form';
import type { SelectOption } from '../contract/groups';
import { ProfilesNotice } from './ProfilesNotice';

/**
 * Under the shared "Профілі": the chosen profiles no video goes to. Each video goes to one profile, the one at its
 * position (SPEC §2) or the one picked on it, so with more profiles than videos the rest get nothing; said here,
 * before Save, instead of silently.
 */
export const UnusedProfiles = () => {
  const chosen = (useWatch({ name: 'accounts' }) ?? []) as (SelectOption & { comments?: string | null })[];
  const videos = (useWatch({ name: 'video' }) ?? []) as { account: number | null }[];
  const used = new Set(videos.map((v) => v.account));
  return (
    <ProfilesNotice
      profiles={chosen.filter((o) => !used.has(Number(o.value)))}
      message="kadr.publishing.unused_profiles"
      severity="warning"
      testId="unused-profiles"
    />
  );
};
