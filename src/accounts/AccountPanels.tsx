import { Alert, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { z } from 'zod';
import { ChannelDescriptionSchema, InstagramProfileSchema, type AccountRecord } from '../contract/accounts';
import type { PlatformKey } from '../contract/platforms';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';

type FieldErrors = Record<string, string>;

/** Field errors of a contract schema, as i18n keys. */
function fieldErrors(schema: z.ZodType, value: unknown): FieldErrors {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: FieldErrors = {};
  for (const i of r.error.issues) out[String(i.path[0])] ??= i.message;
  return out;
}

/**
 * A platform panel's call: its success toast and a reload; the server's field errors come back for the form,
 * other failures are error toasts (and a reload).
 */
function usePanelCall<A, T>(send: (arg: A) => Promise<T>, success: (answer: T) => string) {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const { mutateAsync } = useMutation({ mutationFn: send });
  return async (arg: A): Promise<FieldErrors> => {
    try {
      notify(success(await mutateAsync(arg)), { type: 'success' });
      refresh();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields) return fields;
      for (const m of errorMessages(e, translate('kadr.notifications.failure'))) notify(m, { type: 'error' });
      refresh();
    }
    return {};
  };
}

const SyncButton = ({ id, platform }: { id: number; platform: PlatformKey }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const sync = usePanelCall(
    () => dataProvider.syncProfile(id, platform),
    () => 'kadr.notifications.updated',
  );
  return (
    <Button size="small" onClick={() => sync(undefined)}>
      {translate('kadr.accounts.refresh_profile')}
    </Button>
  );
};

/** YouTube channel panel: read-only name, editable description ('Змінити' → 'Опис змінено'), link. */
const YouTubePanel = ({ r }: { r: AccountRecord }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const change = usePanelCall(
    (body: { description: string }) => dataProvider.changeChannelDescription(r.id, body),
    () => 'kadr.accounts.description_changed',
  );
  const [description, setDescription] = useState(r.description ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = async () => {
    const errs = fieldErrors(ChannelDescriptionSchema, { description });
    setErrors(errs);
    if (!Object.keys(errs).length) setErrors(await change({ description }));
  };
  return (
    <Card variant="outlined" sx={{ mt: 2 }} aria-label={translate('kadr.accounts.channel_panel')} component="section">
      <CardContent>
        <Typography variant="h6">{translate('kadr.accounts.channel_panel')}</Typography>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={translate('kadr.accounts.fields.titleChannel')}
            value={r.titleChannel ?? ''}
            slotProps={{ input: { readOnly: true } }}
            size="small"
          />
          <TextField
            label={translate('kadr.accounts.fields.description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            multiline
            minRows={3}
            size="small"
            error={Boolean(errors.description)}
            helperText={errors.description ? translate(errors.description) : ' '}
          />
          <Stack direction="row" spacing={2} alignItems="center">
            <Button variant="contained" size="small" onClick={submit}>
              {translate('kadr.accounts.change')}
            </Button>
            {r.urlChannel && (
              <Link href={r.urlChannel} target="_blank" rel="noreferrer">
                {translate('kadr.accounts.open_channel')}
              </Link>
            )}
            <SyncButton id={r.id} platform="youtube" />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** Instagram panel: name and description; the official API cannot change them, and the panel says so. */
const InstagramPanel = ({ r }: { r: AccountRecord }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const change = usePanelCall(
    (body: { profileName: string; profileDescription: string }) => dataProvider.changeInstagramProfile(r.id, body),
    (answer) => answer.notice,
  );
  const [profileName, setName] = useState(r.profileNameInstagram ?? '');
  const [profileDescription, setDescription] = useState(r.profileDescriptionInstagram ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = async () => {
    const errs = fieldErrors(InstagramProfileSchema, { profileName, profileDescription });
    setErrors(errs);
    if (!Object.keys(errs).length) setErrors(await change({ profileName, profileDescription }));
  };
  return (
    <Card variant="outlined" sx={{ mt: 2 }} aria-label={translate('kadr.accounts.instagram_panel')} component="section">
      <CardContent>
        <Typography variant="h6">{translate('kadr.accounts.instagram_panel')}</Typography>
        <Alert severity="info" sx={{ my: 1 }}>
          {translate('kadr.accounts.instagram_note')}
        </Alert>
        <Stack spacing={2}>
          <TextField
            label={translate('kadr.accounts.fields.profileNameInstagram')}
            value={profileName}
            onChange={(e) => setName(e.target.value)}
            size="small"
            error={Boolean(errors.profileName)}
            helperText={errors.profileName ? translate(errors.profileName) : ' '}
          />
          <TextField
            label={translate('kadr.accounts.fields.profileDescriptionInstagram')}
            value={profileDescription}
            onChange={(e) => setDescription(e.target.value)}
            multiline
            minRows={2}
            size="small"
            error={Boolean(errors.profileDescription)}
            helperText={errors.profileDescription ? translate(errors.profileDescription) : ' '}
          />
          <Stack direction="row" spacing={2} alignItems="center">
            <Button variant="contained" size="small" onClick={submit}>
              {translate('kadr.accounts.change')}
            </Button>
            {r.urlInstagram && (
              <Link href={r.urlInstagram} target="_blank" rel="noreferrer">
                {translate('kadr.accounts.open_profile')}
              </Link>
            )}
            <SyncButton id={r.id} platform="instagram" />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** TikTok panel: read-only name and description, and the profile link. */
const TikTokPanel = ({ r }: { r: AccountRecord }) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ mt: 2 }} aria-label={translate('kadr.accounts.tiktok_panel')} component="section">
      <CardContent>
        <Typography variant="h6">{translate('kadr.accounts.tiktok_panel')}</Typography>
        <Typography variant="caption" color="text.secondary">
          {translate('kadr.accounts.tiktok_note')}
        </Typography>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={translate('kadr.accounts.fields.titleTikTok')}
            value={r.titleTikTok ?? ''}
            slotProps={{ input: { readOnly: true } }}
            size="small"
          />
          <TextField
            label={translate('kadr.accounts.fields.descriptionTikTok')}
            value={r.descriptionTikTok ?? ''}
            slotProps={{ input: { readOnly: true } }}
            size="small"
            multiline
          />
          <Stack direction="row" spacing={2} alignItems="center">
            {r.urlTikTok && (
              <Link href={r.urlTikTok} target="_blank" rel="noreferrer">
                {translate('kadr.accounts.open_profile')}
              </Link>
            )}
            <SyncButton id={r.id} platform="tiktok" />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** The platform panels of a saved profile, each shown when that platform is active and toggled on (SPEC §2). */
export const AccountPanels = () => {
  const r = useRecordContext<AccountRecord>();
  if (!r?.id) return null;
  return (
    <>
      {r.isActiveYouTube && r.inYouTube && <YouTubePanel key={`yt-${r.updatedAt}`} r={r} />}
      {r.isActiveInstagram && r.inInstagram && <InstagramPanel key={`ig-${r.updatedAt}`} r={r} />}
      {r.isActiveTikTok && r.inTikTok && <TikTokPanel r={r} />}
    </>
  );
};
