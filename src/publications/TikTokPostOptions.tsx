import { useEffect } from 'react';
import { SelectInput, useDataProvider, useInput, useTranslate, type HttpError } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { useFormContext } from 'react-hook-form';
import { Alert, FormControlLabel, FormHelperText, Stack, Switch, Typography } from '@mui/material';
import { PROMOTIONS, TIKTOK_PRIVACY } from '../contract/platform-posts';
import type { KadrDataProvider } from '../providers/dataProvider';

const SWITCHES = [
  ['allowComment', 'commentDisabled', 'allow_comment'],
  ['allowDuet', 'duetDisabled', 'allow_duet'],
  ['allowStitch', 'stitchDisabled', 'allow_stitch'],
] as const;

/**
 * TikTok's options as its creator_info offers them for the profile (TikTok asks apps to read it before each post
 * and offer only what it allows): the privacy levels it lists, and the comment, duet and stitch switches, each
 * off and locked when the creator's settings turn it off. Also the promotion mark (commercial content disclosure).
 */
export const TikTokPostOptions = ({ account, profile }: { account: number | null; profile: string }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { setValue, getValues } = useFormContext();
  const info = useQuery({
    queryKey: ['upload-video', 'tiktok-creator', account],
    queryFn: ({ signal }) => dataProvider.tiktokCreatorInfo(account!, signal),
    enabled: account != null,
    retry: false,
    staleTime: 60_000,
  });
  const c = info.data;
  // A switch the creator turned off is off and locked; a level no longer offered goes back to TikTok's choice.
  useEffect(() => {
    if (!c) return;
    for (const [field, off] of SWITCHES)
      if (c[off] && getValues(`posts.tiktok.${field}`)) setValue(`posts.tiktok.${field}`, undefined);
    const level = getValues('posts.tiktok.privacyLevel');
    if (level && !c.privacyLevelOptions.includes(level)) setValue('posts.tiktok.privacyLevel', '');
  }, [c, getValues, setValue]);
  const levels = (c?.privacyLevelOptions ?? TIKTOK_PRIVACY).filter((l) =>
    (TIKTOK_PRIVACY as readonly string[]).includes(l),
  );
  const reason = (info.error as HttpError | null)?.body?.message ?? (info.error as Error | null)?.message ?? '';
  return (
    <Stack spacing={0.5}>
      <Typography variant="caption" color="text.secondary">
        {account == null
          ? translate('kadr.platform_posts.tiktok.no_profile')
          : translate('kadr.platform_posts.tiktok.options_of', { profile })}
      </Typography>
      {info.isError && (
        <Alert severity="warning">
          {translate('kadr.platform_posts.tiktok.unavailable', { reason: translate(reason, { _: reason }) })}
        </Alert>
      )}
      <SelectInput
        source="posts.tiktok.privacyLevel"
        label="kadr.platform_posts.tiktok.privacy"
        choices={levels.map((l) => ({ id: l, name: `kadr.platform_posts.tiktok.levels.${l}` }))}
        emptyText="kadr.platform_posts.tiktok.privacy_auto"
        helperText={false}
      />
      {SWITCHES.map(([field, off, label]) => (
        <InteractionSwitch key={field} field={field} label={label} locked={!!c?.[off]} />
      ))}
      <SelectInput
        source="posts.tiktok.promotion"
        label="kadr.platform_posts.tiktok.promotion"
        choices={PROMOTIONS.map((p) => ({ id: p, name: `kadr.platform_posts.tiktok.promotions.${p}` }))}
        helperText={false}
      />
    </Stack>
  );
};

/**
 * One interaction switch: unset means on unless the creator turned it off (the driver then sends what TikTok
 * allows), so a form never asks for what creator_info forbids; locked and off when the creator turned it off.
 */
const InteractionSwitch = ({ field, label, locked }: { field: string; label: string; locked: boolean }) => {
  const translate = useTranslate();
  const { field: input } = useInput({ source: `posts.tiktok.${field}` });
  return (
    <div>
      <FormControlLabel
        control={
          <Switch
            checked={!locked && input.value !== false}
            disabled={locked}
            onChange={(e) => input.onChange(e.target.checked)}
          />
        }
        label={translate(`kadr.platform_posts.tiktok.${label}`)}
      />
      {locked && <FormHelperText>{translate('kadr.platform_posts.tiktok.off_by_creator')}</FormHelperText>}
    </div>
  );
};
