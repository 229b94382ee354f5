import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorSetup } from '../contract/two-factor';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import { setMustEnrol, useMustEnrol } from '../providers/enrolment';
import type { KadrDataProvider } from '../providers/dataProvider';

const KEY = ['two-factor'];

/**
 * Settings: own two-factor sign-in. Off: "Turn on" shows a QR code and the secret, a code confirms it, then the
 * ten recovery codes are shown once. On: how many recovery codes are left, and turning it off (password again)
 * unless an admin requires it.
 */
export const TwoFactorCard = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryClient = useQueryClient();
  const enrol = useMustEnrol();
  const { data: status, dataUpdatedAt } = useQuery({ queryKey: KEY, queryFn: () => dataProvider.twoFactorStatus() });
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // Marked (at sign-in, or by a call the server refused for it): the state is asked again, and once it says 2FA
  // is on (this or another tab, or a late answer of a call sent before enrolling) or no longer required, the rest
  // of the panel opens again. Only a state read after the mark counts.
  const markedAt = useRef(0);
  useEffect(() => {
    if (!enrol) return;
    markedAt.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: KEY });
  }, [enrol, queryClient]);
  useEffect(() => {
    if (enrol && status && dataUpdatedAt >= markedAt.current && (status.enabled || !status.required))
      setMustEnrol(false);
  }, [enrol, status, dataUpdatedAt]);

  const fail = (e: unknown, field: string) => {
    const fields = fieldErrorsOf(e);
    if (fields?.[field]) return setFieldError(translate(fields[field], { _: fields[field] }));
    for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });

  const start = async () => {
    try {
      setSetup(await dataProvider.twoFactorSetup());
      setCode('');
      setFieldError(undefined);
    } catch (e) {
      fail(e, 'code');
    }
  };
  const confirm = async () => {
    try {
      const r = await dataProvider.twoFactorEnable(code.trim());
      setRecoveryCodes(r.recoveryCodes);
      setSetup(null);
      setMustEnrol(false);
      notify('kadr.two_factor.enabled', { type: 'success' });
      await refresh();
    } catch (e) {
      fail(e, 'code');
    }
  };
  const turnOff = async () => {
    try {
      await dataProvider.twoFactorDisable(password);
      setPassword('');
      setFieldError(undefined);
      notify('kadr.two_factor.turned_off', { type: 'success' });
      await refresh();
    } catch (e) {
      fail(e, 'password');
    }
  };

  return (
    <Card sx={{ mt: 2 }} data-two-factor>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.two_factor.section')}
        </Typography>
        {enrol && !status?.enabled && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('kadr.two_factor.enrol_required')}
          </Alert>
        )}
        {recoveryCodes ? (
          <Stack spacing={1}>
            <Typography variant="subtitle1">{translate('kadr.two_factor.recovery_title')}</Typography>
            <Typography variant="body2">{translate('kadr.two_factor.recovery_hint')}</Typography>
            <Box component="ul" sx={{ fontFamily: 'monospace', columns: 2, m: 0 }} data-recovery-codes>
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </Box>
            <Button variant="contained" onClick={() => setRecoveryCodes(null)}>
              {translate('kadr.two_factor.done')}
            </Button>
          </Stack>
        ) : status?.enabled ? (
          <Stack spacing={1}>
            <Typography variant="body2">
              {translate('kadr.two_factor.on_text', { count: status.recoveryCodesLeft })}
            </Typography>
            {status.required ? (
              <Typography variant="body2" color="text.secondary">
                {translate('kadr.two_factor.required_text')}
              </Typography>
            ) : (
              <Stack direction="row" spacing={1} alignItems="flex-start">
                <TextField
                  type="password"
                  name="twoFactorPassword"
                  size="small"
                  label={translate('kadr.two_factor.password')}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  error={!!fieldError}
                  helperText={fieldError ?? ' '}
                  autoComplete="current-password"
                />
                <Button onClick={() => void turnOff()} disabled={!password}>
                  {translate('kadr.two_factor.turn_off')}
                </Button>
              </Stack>
            )}
          </Stack>
        ) : setup ? (
          <Stack spacing={1}>
            <Typography variant="body2">{translate('kadr.two_factor.scan_hint')}</Typography>
            {/* A white frame around it: a phone reads the code on the dark theme too (a quiet zone lighter than it). */}
            <Box
              component="img"
              src={setup.qr}
              alt={translate('kadr.two_factor.qr_alt')}
              sx={{ width: 200, boxSizing: 'content-box', p: 1, bgcolor: 'common.white', borderRadius: 1 }}
            />
            <Typography variant="body2">
              {translate('kadr.two_factor.secret')}:{' '}
              <Box component="code" data-secret sx={{ userSelect: 'all' }}>
                {setup.secret}
              </Box>
            </Typography>
            <Stack direction="row" spacing={1} alignItems="flex-start">
              <TextField
                name="twoFactorCode"
                size="small"
                label={translate('kadr.two_factor.code')}
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setFieldError(undefined);
                }}
                error={!!fieldError}
                helperText={fieldError ?? ' '}
                autoComplete="one-time-code"
                inputProps={{ inputMode: 'numeric' }}
              />
              <Button variant="contained" onClick={() => void confirm()} disabled={!code.trim()}>
                {translate('kadr.two_factor.confirm')}
              </Button>
              {/* Changed one's mind: back to "off" (nothing is on until a code confirms it). */}
              <Button
                onClick={() => {
                  setSetup(null);
                  setCode('');
                  setFieldError(undefined);
                }}
              >
                {translate('ra.action.cancel')}
              </Button>
            </Stack>
          </Stack>
        ) : !status ? (
          // Not read yet: neither "off" nor a button that cannot be pressed.
          <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
        ) : (
          <Stack spacing={1} alignItems="flex-start">
            <Typography variant="body2">{translate('kadr.two_factor.off_text')}</Typography>
            <Button variant="contained" onClick={() => void start()}>
              {translate('kadr.two_factor.turn_on')}
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
