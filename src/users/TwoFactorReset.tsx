import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { UserRecord } from '../contract/users';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';

/** A user's edit page, for an admin: whether 2FA is on, and resetting it (a lost phone). */
export const TwoFactorReset = () => {
  const user = useRecordContext<UserRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  const reset = async () => {
    setOpen(false);
    try {
      await dataProvider.resetTwoFactor(user.id);
      notify('kadr.two_factor.reset_done', { type: 'success' });
      refresh();
    } catch (e) {
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    }
  };
  return (
    <Card sx={{ mt: 2, maxWidth: 640 }}>
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center">
          <Typography variant="body1" sx={{ flex: 1 }}>
            {translate('kadr.two_factor.section')}: {user.twoFactor ? '✓' : '—'}
          </Typography>
          <Button color="warning" disabled={!user.twoFactor} onClick={() => setOpen(true)}>
            {translate('kadr.two_factor.reset')}
          </Button>
        </Stack>
        <Confirm
          isOpen={open}
          title="kadr.two_factor.reset_title"
          content="kadr.two_factor.reset_content"
          onConfirm={() => void reset()}
          onClose={() => setOpen(false)}
        />
      </CardContent>
    </Card>
  );
};
