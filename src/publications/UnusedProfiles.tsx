import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { SelectOption } from '../contract/groups';
import { profileText } from '../contract/profile-identity';

/**
 * Under the shared "Профілі": the chosen profiles no video goes to. Each video goes to one profile, the one at its
 * position (SPEC §2) or the one picked on it, so with more profiles than videos the rest get nothing; said here,
 * before Save, instead of silently.
 */
export const UnusedProfiles = () => {
  const translate = useTranslate();
  const chosen = (useWatch({ name: 'accounts' }) ?? []) as (SelectOption & { comments?: string | null })[];
  const videos = (useWatch({ name: 'video' }) ?? []) as { account: number | null }[];
  const used = new Set(videos.map((v) => v.account));
  const unused = chosen.filter((o) => !used.has(Number(o.value)));
  if (!unused.length) return null;
  return (
    <Alert severity="warning" data-testid="unused-profiles">
      {translate('kadr.publishing.unused_profiles', {
        smart_count: unused.length,
        list: unused.map((o) => profileText({ ...o, id: Number(o.value) })).join('; '),
      })}
    </Alert>
  );
};
