import { useWatch } from 'react-hook-form';
import type { ChosenProfile } from '../contract/profile-identity';
import { useAccountOptions } from './options';
import { ProfilesNotice } from './ProfilesNotice';

/**
 * Under the shared "Профілі": the profiles a video goes to that are failing now (a dead proxy, a lost grant), said
 * before Save: a post to such a profile would only retry and fail. The picker's answers say which fail.
 */
export const FailingProfiles = () => {
  const chosen = (useWatch({ name: 'accounts' }) ?? []) as ChosenProfile[];
  const videos = (useWatch({ name: 'video' }) ?? []) as { account: number | null }[];
  const { data: found = [] } = useAccountOptions();
  // The picker's answer last: it says whether a profile fails; a publication's saved profiles do not.
  const byId = new Map([...chosen, ...found].map((o) => [Number(o.value), o]));
  const failing = [...new Set(videos.map((v) => v.account))].flatMap((id) => {
    const option = id === null ? undefined : byId.get(id);
    return option?.failing ? [option] : [];
  });
  return (
    <ProfilesNotice
      profiles={failing}
      message="kadr.publishing.failing_profiles"
      severity="error"
      testId="failing-profiles"
    />
  );
};
