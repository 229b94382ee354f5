import { Alert, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { ChannelDescriptionSchema, InstagramProfileSchema, type AccountRecord } from '../contract/accounts';
import type { PlatformKey } from '../contract/platforms';
import { errorMessages, httpClient } from '../providers/httpClient';

/** Field errors of a contract schema, as i18n keys. */
function fieldErrors(schema: { safeParse: (v: unknown) => any }, value: unknown): Record<string, string> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) out[String(i.path[0])] ??= i.message;
  return out;
}

function useCall() {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  return async (method: string, path: string, body: unknown, success: (json: any) => string) => {
    try {
      const { json } = await httpClient(path, { method, body: JSON.stringify(body) });
      notify(success(json), { type: 'success' });
      refresh();
    } catch (e) {
      const fields = (e as any)?.body?.errors;
      if (fields) return fields as Record<string, string>;
      for (const m of errorMessages(e, translate('kadr.notifications.failure'))) notify(m, { type: 'error' });
      refresh();
    }
    return {};
  };
}

const SyncButton = ({ id, platform }: { id: number; platform: PlatformKey }) => {
  const translate = useTranslate();
  const call = useCall();
  return (
    <Button
      size="small"
      onClick={() =>
        call('POST', `/api/accounts/sync/${id}?platform=${platform}`, {}, () => 'kadr.notifications.updated')
      }
    >
      {translate('kadr.accounts.refresh_profile')}
    </Button>
  );
};

/** YouTube channel panel: read-only name, editable description ('Змінити' → 'Опис змінено'), link. */
const YouTubePanel = ({ r }: { r: AccountRecord }) => {
  const translate = useTranslate();
  const call = useCall();
  const [description, setDescription] = useState(r.description ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    const errs = fieldErrors(ChannelDescriptionSchema, { description });
    setErrors(errs);
    if (!Object.keys(errs).length)
      setErrors(
        await call(
          'PATCH',
          `/api/accounts/update-channel/${r.id}`,
          { description },
          () => 'kadr.accounts.description_changed',
        ),
      );
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
  const call = useCall();
  const [profileName, setName] = useState(r.profileNameInstagram ?? '');
  const [profileDescription, setDescription] = useState(r.profileDescriptionInstagram ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    const errs = fieldErrors(InstagramProfileSchema, { profileName, profileDescription });
    setErrors(errs);
    if (!Object.keys(errs).length) {
      setErrors(
        await call(
          'PATCH',
          `/api/accounts/update-profile-inst/${r.id}`,
          { profileName, profileDescription },
          (json) => json.notice ?? 'kadr.accounts.instagram.saved_locally',
        ),
      );
    }
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
