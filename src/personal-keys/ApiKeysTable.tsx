import KeyOffIcon from '@mui/icons-material/KeyOff';
import { Box, Button, Chip, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ApiKey } from '../contract/personal-keys';
import { errorMessages } from '../common/errorMessages';
import { useFormatUtc } from '../common/useFormatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';

/** Whether a key still works: revoked, expired (by the browser's clock, for display only) or active. */
const stateOf = (k: ApiKey): 'revoked' | 'expired' | 'active' =>
  k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active';

/**
 * A list of API keys with their last use and state, each revocable at once (after a confirmation): the own keys in
 * Settings, or a user's on their page for an admin. `queryKey`: the list's query, asked again after a revocation.
 */
export const ApiKeysTable = ({ keys, queryKey }: { keys: ApiKey[]; queryKey: QueryKey }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const formatUtc = useFormatUtc();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const revoke = useMutation({
    mutationFn: (id: number) => dataProvider.revokeApiKey(id),
    onSuccess: () => {
      notify('kadr.api_keys.revoked_done', { type: 'success' });
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: (e) => {
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    },
  });

  return (
    <>
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
                  <TableCell>{k.expiresAt ? formatUtc(k.expiresAt) : translate('kadr.api_keys.no_expiry')}</TableCell>
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
    </>
  );
};
