import { Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { API_KEY_ACCESS, type ApiKeyAccess } from '../contract/personal-keys';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import { ShownOnceDialog } from '../common/ShownOnceDialog';
import type { KadrDataProvider } from '../providers/dataProvider';
import { ApiKeysTable } from './ApiKeysTable';
import { parseInZone, showInZone } from '../slots/zonedInput';

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
        // Typed in UTC as the panel writes dates (DD.MM.YYYY, HH:MM), sent as an instant.
        expiresAt: expires.trim() ? parseInZone(expires, 'UTC') : null,
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
            if (expires.trim() && !parseInZone(expires, 'UTC'))
              return setErrors({ expiresAt: translate('kadr.api_keys.errors.expiry_typed') });
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
          {/* The panel's own date format in UTC, as every date it shows (a native picker wrote the browser's). */}
          <TextField
            label={translate('kadr.api_keys.expires')}
            name="expiresAt"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            onBlur={() => {
              const at = parseInZone(expires, 'UTC');
              if (at) setExpires(showInZone(at, 'UTC'));
            }}
            placeholder={translate('kadr.publishing.date_placeholder')}
            error={Boolean(errors.expiresAt)}
            helperText={errors.expiresAt ?? translate('kadr.slots.date_in_zone', { zone: 'UTC' })}
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
