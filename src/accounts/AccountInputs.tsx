import { Alert, Box, Card, CardContent, Chip, Grid, Stack, Typography } from '@mui/material';
import {
  BooleanInput,
  PasswordInput,
  SaveButton,
  SelectInput,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { AccountRecord } from '../contract/accounts';
import { StatusBadge } from '../common/StatusBadge';
import { useStoredMessage } from '../common/useStoredMessage';
import { AuthLinkButton } from './AuthLinkButton';
import { GptButtons } from './GptButtons';
import { ProxyInput } from './ProxyInput';
import { TimeZoneInput } from '../slots/TimeZoneInput';
import CheckIcon from '@mui/icons-material/Check';
import RemoveIcon from '@mui/icons-material/Remove';

const f = (name: string) => `kadr.accounts.fields.${name}`;

/**
 * The platform's 'publish here' switch and, apart from it, whether the platform is connected, in words (a bare
 * tick next to a switch that is off read as a contradiction, issue 18).
 */
const Toggle = ({ source, active, label }: { source: string; active?: boolean; label: string }) => {
  const translate = useTranslate();
  const state = translate(active ? 'kadr.accounts.active' : 'kadr.accounts.not_connected');
  return (
    <Stack direction="row" alignItems="center" spacing={1}>
      <BooleanInput source={source} label={label} helperText={false} sx={{ mb: 0 }} />
      <Chip
        size="small"
        variant="outlined"
        color={active ? 'success' : 'default'}
        icon={active ? <CheckIcon /> : <RemoveIcon />}
        label={state}
        aria-label={`${label}: ${state}`}
        data-active={active ? 'true' : 'false'}
      />
    </Stack>
  );
};

const ReconnectNote = ({ text }: { text?: string | null }) => {
  const storedMessage = useStoredMessage();
  return text ? (
    <Alert severity="warning" sx={{ my: 1 }} data-testid="reconnect-note">
      {storedMessage(text)}
    </Alert>
  ) : null;
};

/** The profile form (SPEC §2): left block proxy / ip version / comment / save; right block status and platform toggles. */
export const AccountInputs = ({ mode }: { mode: 'create' | 'edit' }) => {
  const translate = useTranslate();
  const record = useRecordContext<AccountRecord>();
  const saved = mode === 'edit' && record?.id != null;
  const [inYouTube, inInstagram, inTikTok, inGPT] = useWatch({
    name: ['inYouTube', 'inInstagram', 'inTikTok', 'inGPT'],
  });
  return (
    <Grid container spacing={2} sx={{ width: '100%' }}>
      <Grid size={{ xs: 12, md: 5 }}>
        <Card variant="outlined">
          <CardContent>
            <Stack spacing={1}>
              <ProxyInput label={f('proxy')} />
              <SelectInput
                source="ipVersion"
                label={f('ipVersion')}
                emptyValue="ipv4"
                validate={undefined}
                choices={[
                  { id: 'ipv4', name: 'ipv4' },
                  { id: 'ipv6', name: 'ipv6' },
                ]}
              />
              <TextInput source="comments" label={f('comments')} multiline minRows={2} />
              <TimeZoneInput label={f('timeZone')} />
              <Box>
                <SaveButton label={saved ? 'kadr.common.save' : 'kadr.common.create'} alwaysEnable />
              </Box>
            </Stack>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 7 }}>
        <Card variant="outlined">
          <CardContent>
            <Stack spacing={1}>
              <Box data-testid="account-status">
                <StatusBadge kind="account" status={record?.status ?? 'noactive'} />
              </Box>

              <Toggle source="inYouTube" label={f('inYouTube')} active={record?.isActiveYouTube} />
              {inYouTube && (
                <Stack spacing={0} sx={{ pl: 2 }}>
                  <ReconnectNote text={record?.platformErrors?.youtube} />
                  <TextInput source="YouTubeAuthClientId" label={f('YouTubeAuthClientId')} autoComplete="off" />
                  <PasswordInput
                    source="YouTubeAuthClientSecret"
                    label={f('YouTubeAuthClientSecret')}
                    autoComplete="off"
                  />
                  <TextInput source="YouTubeLogin" label={f('YouTubeLogin')} autoComplete="off" />
                  <PasswordInput source="YouTubePassword" label={f('YouTubePassword')} autoComplete="new-password" />
                  {saved ? (
                    <AuthLinkButton
                      platform="youtube"
                      id={record!.id}
                      label={`${translate('kadr.accounts.auth_link')} YouTube`}
                    />
                  ) : (
                    <Typography variant="caption">{translate('kadr.accounts.save_first')}</Typography>
                  )}
                </Stack>
              )}

              <Toggle source="inInstagram" label={f('inInstagram')} active={record?.isActiveInstagram} />
              {inInstagram && (
                <Stack spacing={0} sx={{ pl: 2 }}>
                  <ReconnectNote text={record?.platformErrors?.instagram} />
                  <TextInput source="InstagramLogin" label={f('InstagramLogin')} autoComplete="off" />
                  <PasswordInput
                    source="InstagramPassword"
                    label={f('InstagramPassword')}
                    autoComplete="new-password"
                  />
                  <TextInput source="InstagramTwofaCode" label={f('InstagramTwofaCode')} autoComplete="off" />
                  {saved && (
                    <AuthLinkButton
                      platform="instagram"
                      id={record!.id}
                      label={`${translate('kadr.accounts.auth_link')} Instagram`}
                    />
                  )}
                </Stack>
              )}

              <Toggle source="inTikTok" label={f('inTikTok')} active={record?.isActiveTikTok} />
              {inTikTok && (
                <Stack spacing={0} sx={{ pl: 2 }}>
                  <ReconnectNote text={record?.platformErrors?.tiktok} />
                  {saved ? (
                    <AuthLinkButton
                      platform="tiktok"
                      id={record!.id}
                      label={`${translate('kadr.accounts.auth_link')} TikTok`}
                    />
                  ) : (
                    <Typography variant="caption">{translate('kadr.accounts.save_first')}</Typography>
                  )}
                </Stack>
              )}

              <Toggle source="inGPT" label={f('inGPT')} active={record?.isActiveGPT} />
              {inGPT && (
                <Stack spacing={0} sx={{ pl: 2 }}>
                  <TextInput source="emailGPT" label={f('emailGPT')} autoComplete="off" />
                  {/* The AI service signs in with the provider's API key (a documented deviation from a password). */}
                  <PasswordInput
                    source="passwordGPT"
                    label="kadr.ai.profile.password_gpt"
                    helperText="kadr.ai.profile.key_help"
                    autoComplete="new-password"
                  />
                  <PasswordInput
                    source="passwordDeepSeek"
                    label="kadr.ai.profile.password_deepseek"
                    autoComplete="new-password"
                  />
                  <TextInput source="proxyGPT" label={f('proxyGPT')} autoComplete="off" />
                  <GptButtons record={record} />
                </Stack>
              )}
            </Stack>
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
};
