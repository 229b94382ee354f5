import { Card, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { UserRecord } from '../contract/users';
import { ApiKeysTable } from '../personal-keys/ApiKeysTable';
import type { KadrDataProvider } from '../providers/dataProvider';

/** A user's edit page, for an admin: the user's API keys with their last use, each revocable at once. */
export const UserApiKeys = () => {
  const user = useRecordContext<UserRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryKey = ['apiKeys', 'user', user?.id];
  const { data: keys } = useQuery({
    queryKey,
    queryFn: ({ signal }) => dataProvider.userApiKeys(user!.id, signal),
    enabled: !!user,
  });
  if (!user) return null;
  return (
    <Card sx={{ mt: 2 }} data-testid="user-api-keys">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.api_keys.user_section')}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('kadr.api_keys.user_hint')}
        </Typography>
        {keys && keys.length === 0 && (
          <Typography color="text.secondary">{translate('kadr.api_keys.empty')}</Typography>
        )}
        {keys && keys.length > 0 && <ApiKeysTable keys={keys} queryKey={queryKey} />}
      </CardContent>
    </Card>
  );
};
