import { Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { useFormatUtc } from '../common/useFormatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';

/** The delivery log of one webhook: every attempt with the receiver's answer (status and its first characters). */
export const WebhookLog = ({ id }: { id: number }) => {
  const translate = useTranslate();
  const formatUtc = useFormatUtc();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data } = useQuery({
    queryKey: ['webhookDeliveries', id],
    queryFn: ({ signal }) => dataProvider.webhookDeliveries(id, signal),
  });
  if (!data) return null;
  if (!data.length) return <Typography color="text.secondary">{translate('kadr.webhooks.log_empty')}</Typography>;
  return (
    <Table size="small" data-testid={`webhook-log-${id}`}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('kadr.webhooks.at')}</TableCell>
          <TableCell>{translate('kadr.webhooks.events')}</TableCell>
          <TableCell>{translate('kadr.webhooks.attempt')}</TableCell>
          <TableCell>{translate('kadr.webhooks.answer')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {data.map((d) => (
          <TableRow key={d.id}>
            <TableCell>{formatUtc(d.createdAt)}</TableCell>
            <TableCell>
              {translate(`kadr.webhooks.event.${d.event}`, { _: d.event })}
              <Typography variant="caption" display="block" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                {d.messageId}
              </Typography>
            </TableCell>
            <TableCell>{d.attempt}</TableCell>
            <TableCell>
              <Chip
                size="small"
                color={d.ok ? 'success' : 'error'}
                label={d.responseStatus ?? d.error ?? '—'}
                sx={{ mr: 1 }}
              />
              {d.willRetry && <Chip size="small" variant="outlined" label={translate('kadr.webhooks.will_retry')} />}
              {d.responseBody && (
                <Typography
                  variant="caption"
                  display="block"
                  sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                >
                  {d.responseBody}
                </Typography>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
