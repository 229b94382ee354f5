import { Box, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Form,
  PasswordInput,
  SaveButton,
  Title,
  useDataProvider,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { FieldValues, SubmitHandler } from 'react-hook-form';
import { PasswordChangeSchema, type PasswordChange } from '../contract/users';
import type { Language } from '../contract/auth';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import { readAuth } from '../providers/authStore';
import type { KadrDataProvider } from '../providers/dataProvider';
import { useMustEnrol } from '../providers/enrolment';
import { i18nProvider } from '../providers/i18nProvider';
import { OwnMediaUsage } from '../media/OwnMediaUsage';
import { ApiKeysCard } from '../personal-keys/ApiKeysCard';
import { WebhooksCard } from '../webhooks/WebhooksCard';
import { TwoFactorCard } from './TwoFactorCard';
import { TwoFactorPolicyCard } from './TwoFactorPolicyCard';

/** The settings' one column: every card as wide as the others (a phone's width stacks them as they are). */
const SETTINGS_WIDTH = 960;

/**
 * /setting: change your own password; two-factor sign-in (and, for an admin, requiring it of everyone); choose the
 * language (remembered across reloads); see your media's size; your API keys and webhooks. While an admin
 * requires two-factor sign-in of a user without it, only enrolment and the language (the server refuses the rest).
 */
export const SettingsPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale, setLocale] = useLocaleState();
  const [formKey, setFormKey] = useState(0);
  const enrol = useMustEnrol();

  const dataProvider = useDataProvider<KadrDataProvider>();
  const { mutateAsync: send } = useMutation({ mutationFn: dataProvider.changePassword });

  // Field errors it resolves with are shown beside the fields (react-admin's Form takes them from onSubmit).
  const changePassword: SubmitHandler<FieldValues> = async (values) => {
    try {
      // Our refresh token goes along: every other session of this user ends, this one stays.
      await send({ ...(values as PasswordChange), refreshToken: readAuth().refreshToken });
      notify('kadr.settings.password_changed', { type: 'success' });
      setFormKey((k) => k + 1); // empty fields again
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields) return fields;
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    }
  };

  return (
    <>
      <Title title={translate('kadr.settings.title')} />
      <Box sx={{ maxWidth: SETTINGS_WIDTH }} data-testid="settings-column">
        {!enrol && (
          <Card sx={{ mt: 2 }}>
            <CardContent>
              <Typography variant="h6" gutterBottom>
                {translate('kadr.settings.password_section')}
              </Typography>
              <Form
                key={formKey}
                onSubmit={changePassword}
                resolver={zodResolver(PasswordChangeSchema)}
                defaultValues={{ currentPassword: '', newPassword: '', repeatPassword: '' }}
              >
                <PasswordInput
                  source="currentPassword"
                  label="kadr.settings.current_password"
                  fullWidth
                  autoComplete="current-password"
                />
                <PasswordInput
                  source="newPassword"
                  label="kadr.settings.new_password"
                  fullWidth
                  autoComplete="new-password"
                />
                <PasswordInput
                  source="repeatPassword"
                  label="kadr.settings.repeat_password"
                  fullWidth
                  autoComplete="new-password"
                />
                <SaveButton label="kadr.settings.change_password" alwaysEnable />
              </Form>
            </CardContent>
          </Card>
        )}
        <TwoFactorCard />
        {!enrol && readAuth().user?.role === 'admin' && <TwoFactorPolicyCard />}
        <Card sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="h6" gutterBottom>
              {translate('kadr.settings.language_section')}
            </Typography>
            <TextField
              select
              fullWidth
              label={translate('kadr.settings.language')}
              value={locale}
              inputProps={{ 'aria-label': translate('kadr.settings.language'), name: 'language' }}
              // Through the store only: react-admin's i18n context then loads the language and re-renders the
              // whole panel at once (calling changeLocale first left the sidebar and inputs in the old language).
              // Saved as the user's too: the panel opens in it on any browser they sign in on.
              onChange={(e) => {
                const language = e.target.value as Language;
                setLocale(language);
                dataProvider.setLanguage(language).catch((error: unknown) => {
                  for (const m of errorMessages(error, translate('kadr.notifications.error')))
                    notify(m, { type: 'error' });
                });
              }}
            >
              {i18nProvider.getLocales!().map((l) => (
                <MenuItem key={l.locale} value={l.locale}>
                  {l.name}
                </MenuItem>
              ))}
            </TextField>
          </CardContent>
        </Card>
        {!enrol && (
          <>
            <OwnMediaUsage />
            <ApiKeysCard />
            <WebhooksCard />
          </>
        )}
      </Box>
    </>
  );
};
