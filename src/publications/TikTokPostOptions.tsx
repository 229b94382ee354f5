import { useEffect } from 'react';
import { BooleanInput, SelectInput, useDataProvider, useTranslate, type HttpError } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { useFormContext } from 'react-hook-form';
import { Alert, Stack, Typography } from '@mui/material';
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
        <BooleanInput
          key={field}
          source={`posts.tiktok.${field}`}
          label={`kadr.platform_posts.tiktok.${label}`}
          disabled={!!c?.[off]}
          // Unset = on unless the creator turned it off (the driver sends what TikTok allows).
          format={(v: boolean | undefined) => !c?.[off] && v !== false}
          helperText={c?.[off] ? 'kadr.platform_posts.tiktok.off_by_creator' : false}
        />
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
