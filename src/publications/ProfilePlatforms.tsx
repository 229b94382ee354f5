import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Alert, AlertTitle, Box, Checkbox, FormHelperText, Typography } from '@mui/material';
import type { SelectOption } from '../contract/groups';
import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import { publishPlan, type Choice, type ProfilePlatforms, type PublishSkip } from '../contract/publications';
import { profileText } from '../contract/profile-identity';
import type { KadrDataProvider } from '../providers/dataProvider';
import { useAccountOptions } from './options';

type VideoRef = { id: number; index: number; account: number | null };

/** The platforms each of `ids` is connected to, by profile id. */
export function useConnections(ids: readonly number[]) {
  const dataProvider = useDataProvider<KadrDataProvider>();
  const key = [...ids].sort((a, b) => a - b);
  return useQuery({
    queryKey: ['upload-video', 'connections', key],
    queryFn: async ({ signal }) => {
      const list = await dataProvider.connections(key, signal);
      return new Map(list.map((c) => [c.account, c.connected]));
    },
    enabled: key.length > 0,
    staleTime: 30_000,
    placeholderData: (prev) => prev,
  });
}

/**
 * The platforms a form sends (the publish form and the publication edit alike): `profiles` for the profiles its
 * videos go to, and SPEC's toggles as their union with `alsoOn` (platforms kept on for videos the form does not
 * change).
 */
export function choiceOf(
  videos: readonly { account: number | null }[],
  chosen: readonly ProfilePlatforms[],
  alsoOn: readonly PlatformKey[] = [],
): Required<Choice> {
  const used = new Set(videos.map((x) => x.account));
  const profiles = chosen.filter((p) => used.has(p.account));
  const on = (k: PlatformKey) => alsoOn.includes(k) || profiles.some((p) => p.platforms.includes(k));
  return { inYouTube: on('youtube'), inTikTok: on('tiktok'), inInstagram: on('instagram'), profiles };
}

/** After a save: what the server skipped (a profile × platform the profile is not connected to), as a warning. */
export function useSkippedNotice() {
  const notify = useNotify();
  return (skipped: readonly PublishSkip[] | undefined) => {
    if (!skipped?.length) return;
    const list = skipped.map((s) => `#${s.account} ${PLATFORM_TITLES[s.platform]}`).join(', ');
    notify('kadr.publishing.skipped_done', { type: 'warning', messageArgs: { list } });
  };
}

/**
 * The publish form's and the publication edit's platforms, per profile (the profiles its videos go to; on the edit,
 * the videos no platform has started yet): one row per profile with a YouTube,
 * TikTok and Instagram box, each profile starting from what it has connected; an "all profiles" row sets a
 * platform for every profile at once (SPEC's three toggles). Below it, what will be skipped and why, as the
 * server will do it (the contract's publishPlan): a chosen platform the profile is not connected to.
 * The value is `profiles` ([{account, platforms}]); the form sends it with the toggles as their union.
 */
export const ProfilePlatformsInput = ({ label }: { label: (v: VideoRef) => string }) => {
  const translate = useTranslate();
  const { setValue, getValues } = useFormContext();
  const videos = (useWatch({ name: 'video' }) ?? []) as VideoRef[];
  const chosen = (useWatch({ name: 'profiles' }) ?? []) as ProfilePlatforms[];
  const picked = useWatch({ name: 'accounts' }) as SelectOption[] | undefined;
  // The profiles in the order the videos name them; a stable list while they stay the same.
  const idsKey = [...new Set(videos.flatMap((v) => (v.account ? [v.account] : [])))].join(',');
  const ids = useMemo(() => (idsKey ? idsKey.split(',').map(Number) : []), [idsKey]);
  const connections = useConnections(ids);
  const options = useAccountOptions();
  const nameOf = (id: number) => {
    const o = [...(picked ?? []), ...(options.data ?? [])].find((x) => Number(x.value) === id);
    return o ? profileText({ ...o, id }) : `#${id}`;
  };

  // A profile new to the form starts from what it has connected.
  useEffect(() => {
    const known = connections.data;
    if (!known) return;
    const current = (getValues('profiles') ?? []) as ProfilePlatforms[];
    const missing = ids.filter((id) => known.has(id) && !current.some((p) => p.account === id));
    if (!missing.length) return;
    setValue('profiles', [
      ...current,
      ...missing.map((account) => ({ account, platforms: [...(known.get(account) ?? [])] })),
    ]);
  }, [connections.data, ids, getValues, setValue]);

  const rows = ids.map((id) => ({ id, platforms: chosen.find((p) => p.account === id)?.platforms }));
  const set = (account: number, platform: PlatformKey, on: boolean) => {
    const current = (getValues('profiles') ?? []) as ProfilePlatforms[];
    const next = current.some((p) => p.account === account)
      ? current.map((p) =>
          p.account !== account
            ? p
            : {
                account,
                platforms: PLATFORMS.filter((k) => (k === platform ? on : p.platforms.includes(k))),
              },
        )
      : [...current, { account, platforms: on ? [platform] : [] }];
    setValue('profiles', next, { shouldDirty: true });
  };
  const setAll = (platform: PlatformKey, on: boolean) => {
    for (const id of ids) set(id, platform, on);
  };
  const isOn = (platforms: readonly PlatformKey[] | undefined, p: PlatformKey) => !!platforms?.includes(p);
  const connected = (id: number) => connections.data?.get(id);

  const plan = publishPlan(
    videos.filter((v) => v.account && chosen.some((p) => p.account === v.account)),
    { inYouTube: false, inTikTok: false, inInstagram: false, profiles: chosen },
    connected,
  );
  // A video whose profile has no platform chosen at all goes nowhere: said too.
  const nowhere = videos.filter(
    (v) => v.account && plan.publish.get(v.id)?.length === 0 && !plan.skipped.some((s) => s.video === v.id),
  );
  const byId = new Map(videos.map((v) => [v.id, v]));

  const cell = { display: 'flex', alignItems: 'center', justifyContent: 'center', minWidth: 0 } as const;
  return (
    <Box data-testid="profile-platforms">
      <Typography variant="subtitle2">{translate('kadr.publishing.platforms_title')}</Typography>
      <Box
        role="table"
        aria-label={translate('kadr.publishing.platforms_title')}
        sx={{
          display: 'grid',
          // Each platform's column as wide as its 'не підключено' (two lines), with a gap between neighbours.
          gridTemplateColumns: 'minmax(0, 1fr) repeat(3, 76px)',
          alignItems: 'center',
          columnGap: 1,
        }}
      >
        <Box role="row" sx={{ display: 'contents' }}>
          <span role="columnheader" />
          {PLATFORMS.map((p) => (
            <Typography key={p} role="columnheader" variant="caption" sx={{ ...cell, textAlign: 'center' }}>
              {PLATFORM_TITLES[p]}
            </Typography>
          ))}
        </Box>
        <Box role="row" sx={{ display: 'contents' }}>
          <Typography role="rowheader" variant="body2" sx={{ fontWeight: 500 }}>
            {translate('kadr.publishing.all_profiles')}
          </Typography>
          {PLATFORMS.map((p) => {
            const on = rows.filter((r) => isOn(r.platforms, p)).length;
            return (
              <Box key={p} role="cell" sx={cell}>
                <Checkbox
                  size="small"
                  disabled={!rows.length}
                  checked={rows.length > 0 && on === rows.length}
                  indeterminate={on > 0 && on < rows.length}
                  onChange={(e) => setAll(p, e.target.checked)}
                  inputProps={{
                    'aria-label': translate('kadr.publishing.platform_for', {
                      platform: PLATFORM_TITLES[p],
                      profile: translate('kadr.publishing.all_profiles'),
                    }),
                  }}
                />
              </Box>
            );
          })}
        </Box>
        {rows.map((r) => (
          <Box key={r.id} role="row" sx={{ display: 'contents' }} data-profile={r.id}>
            {/* The name on a line of its own across the table: a long name never squeezes into a narrow column. */}
            <Typography
              role="rowheader"
              variant="body2"
              sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere', borderTop: 1, borderColor: 'divider', pt: 0.5 }}
            >
              {nameOf(r.id)}
            </Typography>
            <span />
            {PLATFORMS.map((p) => {
              const off = connected(r.id) && !connected(r.id)!.includes(p);
              return (
                <Box key={p} role="cell" sx={{ ...cell, flexDirection: 'column' }}>
                  <Checkbox
                    size="small"
                    checked={isOn(r.platforms, p)}
                    onChange={(e) => set(r.id, p, e.target.checked)}
                    color={off ? 'warning' : 'primary'}
                    inputProps={{
                      'aria-label': translate('kadr.publishing.platform_for', {
                        platform: PLATFORM_TITLES[p],
                        profile: nameOf(r.id),
                      }),
                    }}
                  />
                  {off && (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      sx={{ lineHeight: 1.1, textAlign: 'center', maxWidth: '100%' }}
                    >
                      {translate('kadr.publishing.not_connected')}
                    </Typography>
                  )}
                </Box>
              );
            })}
          </Box>
        ))}
      </Box>
      {!rows.length && (
        <Typography variant="caption" color="text.secondary" component="div">
          {translate('kadr.publishing.platforms_hint')}
        </Typography>
      )}
      <PlatformError />
      {(plan.skipped.length > 0 || nowhere.length > 0) && (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="skipped-list">
          <AlertTitle>
            {translate('kadr.publishing.skipped_title', { count: plan.skipped.length + nowhere.length })}
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {plan.skipped.map((s) => (
              <li key={`${s.video}-${s.platform}`}>
                {translate('kadr.publishing.skipped_line', {
                  video: label(byId.get(s.video)!),
                  profile: nameOf(s.account),
                  platform: PLATFORM_TITLES[s.platform],
                })}
              </li>
            ))}
            {nowhere.map((v) => (
              <li key={`${v.id}-none`}>
                {translate('kadr.publishing.skipped_nowhere', { video: label(v), profile: nameOf(v.account!) })}
              </li>
            ))}
          </Box>
        </Alert>
      )}
    </Box>
  );
};

/** The contract's "at least one platform" error (it sits on inYouTube), once the form was submitted. */
const PlatformError = () => {
  const { errors, isSubmitted } = useFormState({ name: 'inYouTube' });
  const translate = useTranslate();
  const msg = errors.inYouTube?.message;
  return isSubmitted && typeof msg === 'string' ? (
    <FormHelperText error>{translate(msg, { _: msg })}</FormHelperText>
  ) : null;
};
