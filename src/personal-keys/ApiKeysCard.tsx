import KeyOffIcon from '@mui/icons-material/KeyOff';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { API_KEY_ACCESS, type ApiKey, type ApiKeyAccess } from '../contract/personal-keys';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import { ShownOnceDialog } from '../common/ShownOnceDialog';
import { useFormatUtc } from '../common/useFormatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';

const QUERY_KEY = ['apiKeys'];

/** Whether a key still works: revoked, expired (by the browser's clock, for display only) or active. */
const stateOf = (k: ApiKey): 'revoked' | 'expired' | 'active' =>
  k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active';

/**
 * Settings → API keys: make a personal key (name, read or read-write, optional expiry), see it once to copy,
 * list the keys with their last use, revoke one at once.
 */
export const ApiKeysCard = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const formatUtc = useFormatUtc();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryClient = useQueryClient();
  const { data: keys } = useQuery({ queryKey: QUERY_KEY, queryFn: ({ signal }) => dataProvider.apiKeys(signal) });
  const [name, setName] = useState('');
  const [access, setAccess] = useState<ApiKeyAccess>('read');
  const [expires, setExpires] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

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
  const revoke = useMutation({
    mutationFn: (id: number) => dataProvider.revokeApiKey(id),
    onSuccess: () => {
      notify('kadr.api_keys.revoked_done', { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
    onError: (e) => {
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
        {keys && keys.length > 0 && (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('kadr.api_keys.name')}</TableCell>
                  <TableCell>{translate('kadr.api_keys.prefix')}</TableCell>
                  <TableCell>{translate('kadr.api_keys.access')}</TableCell>
                  <TableCell>{translate('kadr.api_keys.expires')}</TableCell>
                  <TableCell>{translate('kadr.api_keys.last_used')}</TableCell>
                  <TableCell>{translate('kadr.api_keys.state')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {keys.map((k) => {
                  const state = stateOf(k);
                  return (
                    <TableRow key={k.id} data-testid={`api-key-${k.id}`}>
                      <TableCell>{k.name}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{k.prefix}…</TableCell>
                      <TableCell>{translate(`kadr.api_keys.access_${k.access}`)}</TableCell>
                      <TableCell>
                        {k.expiresAt ? formatUtc(k.expiresAt) : translate('kadr.api_keys.no_expiry')}
                      </TableCell>
                      <TableCell>{k.lastUsedAt ? formatUtc(k.lastUsedAt) : translate('kadr.api_keys.never')}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          color={state === 'active' ? 'success' : 'default'}
                          label={translate(`kadr.api_keys.${state}`)}
                        />
                      </TableCell>
                      <TableCell>
                        {state !== 'revoked' && (
                          <Button
                            size="small"
                            color="error"
                            startIcon={<KeyOffIcon />}
                            onClick={() => setRevoking(k)}
                            disabled={revoke.isPending}
                          >
                            {translate('kadr.api_keys.revoke')}
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Box>
        )}
      </CardContent>
      <ShownOnceDialog
        title="kadr.api_keys.created_title"
        warning="kadr.api_keys.shown_once"
        value={shown}
        onClose={() => setShown(null)}
      />
      <Confirm
        isOpen={revoking !== null}
        title="kadr.api_keys.revoke"
        content="kadr.api_keys.revoke_confirm"
        contentTranslateOptions={{ name: revoking?.name ?? '' }}
        confirm="kadr.api_keys.revoke"
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking.id);
          setRevoking(null);
        }}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
};
