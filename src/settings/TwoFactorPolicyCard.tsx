import { Card, CardContent, FormControlLabel, Switch, Typography } from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';

const KEY = ['two-factor-policy'];

/** Settings, for an admin: require two-factor sign-in of every user. */
export const TwoFactorPolicyCard = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: KEY, queryFn: () => dataProvider.twoFactorPolicy() });
  const { mutate, isPending } = useMutation({
    mutationFn: (required: boolean) => dataProvider.setTwoFactorPolicy(required),
    onSuccess: (answer) => {
      queryClient.setQueryData(KEY, answer);
      void queryClient.invalidateQueries({ queryKey: ['two-factor'] });
      notify('kadr.two_factor.policy_saved', { type: 'success' });
    },
    onError: (e) => {
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    },
  });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.two_factor.admin_section')}
        </Typography>
        <FormControlLabel
          control={
            <Switch
              name="requireTwoFactor"
              checked={data?.required ?? false}
              disabled={!data || isPending}
              onChange={(e) => mutate(e.target.checked)}
            />
          }
          label={translate('kadr.two_factor.require_all')}
        />
        <Typography variant="body2" color="text.secondary">
          {translate('kadr.two_factor.require_all_hint')}
        </Typography>
      </CardContent>
    </Card>
  );
};
