import { Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { API_KEY_ACCESS, type ApiKeyAccess } from '../contract/personal-keys';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import { ShownOnceDialog } from '../common/ShownOnceDialog';
import type { KadrDataProvider } from '../providers/dataProvider';
import { ApiKeysTable } from './ApiKeysTable';

const QUERY_KEY = ['apiKeys'];

/**
 * Settings → API keys: make a personal key (name, read or read-write, optional expiry), see it once to copy,
 * list the keys with their last use, revoke one at once.
 */
export const ApiKeysCard = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryClient = useQueryClient();
  const { data: keys } = useQuery({ queryKey: QUERY_KEY, queryFn: ({ signal }) => dataProvider.apiKeys(signal) });
  const [name, setName] = useState('');
  const [access, setAccess] = useState<ApiKeyAccess>('read');
  const [expires, setExpires] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: () =>
      dataProvider.createApiKey({
        name,
        access,
        // The browser's local time, sent as an instant.
        expiresAt: expires ? new Date(expires).toISOString() : null,
      }),
    onSuccess: (created) => {
      setShown(created.token);
      setName('');
      setExpires('');
      setErrors({});
      void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
    onError: (e) => {
      const fields = fieldErrorsOf(e);
      if (fields) return setErrors(fields);
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    },
  });
  return (
    <Card sx={{ mt: 2 }} data-testid="api-keys">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.api_keys.section')}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('kadr.api_keys.hint')}
        </Typography>
        <Box
          component="form"
          sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start', my: 2 }}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <TextField
            label={translate('kadr.api_keys.name')}
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(errors.name)}
            helperText={errors.name ?? ' '}
            size="small"
          />
          <TextField
            select
            label={translate('kadr.api_keys.access')}
            value={access}
            onChange={(e) => setAccess(e.target.value as ApiKeyAccess)}
            size="small"
            sx={{ minWidth: 180 }}
            inputProps={{ 'aria-label': translate('kadr.api_keys.access'), name: 'access' }}
          >
            {API_KEY_ACCESS.map((a) => (
              <MenuItem key={a} value={a}>
                {translate(`kadr.api_keys.access_${a}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="datetime-local"
            label={translate('kadr.api_keys.expires')}
            name="expiresAt"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            error={Boolean(errors.expiresAt)}
            helperText={errors.expiresAt ?? ' '}
            size="small"
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {translate('kadr.api_keys.create')}
          </Button>
        </Box>
        {keys && keys.length === 0 && (
          <Typography color="text.secondary">{translate('kadr.api_keys.empty')}</Typography>
        )}
        {keys && keys.length > 0 && <ApiKeysTable keys={keys} queryKey={QUERY_KEY} />}
      </CardContent>
      <ShownOnceDialog
        title="kadr.api_keys.created_title"
        warning="kadr.api_keys.shown_once"
        value={shown}
        onClose={() => setShown(null)}
      />
    </Card>
  );
};
