import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Pagination,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ApprovalItem } from '../contract/approvals';
import { REJECT_REASON_MAX } from '../contract/approvals';
import { PLATFORM_TITLES } from '../contract/platforms';
import type { Page } from '../contract/pagination';
import { errorMessages } from '../common/errorMessages';
import { useFormatUtc } from '../common/useFormatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';
import { detailPath } from '../publications/paths';

/**
 * The admins' list of posts awaiting approval (issue 23 item 3, /approvals): each post with its author, profile,
 * platform, title and date; Approve sends it on (at its date, or now when the date has passed), Reject asks for
 * a reason its author will see. The bell's "awaits approval" notices open this screen.
 */
export const ApprovalsPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const formatDate = useFormatUtc();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<Page<ApprovalItem> | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<ApprovalItem | null>(null);
  const [reason, setReason] = useState('');

  const failed = useCallback(
    (e: unknown) => {
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    },
    [notify, translate],
  );
  const load = useCallback(
    (signal?: AbortSignal) =>
      dataProvider
        .approvals(page, signal)
        .then(setAnswer)
        .catch((e: unknown) => {
          if (!signal?.aborted) failed(e);
        }),
    [dataProvider, page, failed],
  );
  useEffect(() => {
    const ctl = new AbortController();
    void load(ctl.signal);
    return () => ctl.abort();
  }, [load]);

  const decide = async (item: ApprovalItem, run: () => Promise<unknown>, done: string) => {
    setBusy(item.id);
    try {
      await run();
      notify(done, { type: 'success' });
      setRejecting(null);
      setReason('');
    } catch (e) {
      failed(e);
    } finally {
      setBusy(null);
      await load();
    }
  };

  return (
    <Card sx={{ mt: 2, p: 2 }}>
      <Title title={translate('kadr.approvals.title')} />
      {answer && answer.data.length === 0 && <Alert severity="info">{translate('kadr.approvals.empty')}</Alert>}
      {answer && answer.data.length > 0 && (
        <Table size="small" aria-label={translate('kadr.approvals.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('kadr.approvals.fields.video')}</TableCell>
              <TableCell>{translate('kadr.approvals.fields.title')}</TableCell>
              <TableCell>{translate('kadr.approvals.fields.owner')}</TableCell>
              <TableCell>{translate('kadr.approvals.fields.profile')}</TableCell>
              <TableCell>{translate('kadr.approvals.fields.platform')}</TableCell>
              <TableCell>{translate('kadr.approvals.fields.dueAt')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {answer.data.map((item) => (
              <TableRow key={item.id} data-approval={item.id}>
                <TableCell>
                  {item.idUpload ? (
                    <RouterLink to={detailPath(item.idUpload)}>#{item.videoId}</RouterLink>
                  ) : (
                    `#${item.videoId}`
                  )}
                </TableCell>
                <TableCell>
                  {item.title}
                  <Stack direction="row" gap={0.5} flexWrap="wrap" sx={{ mt: 0.5 }}>
                    {item.tags.map((t) => (
                      <Chip key={t} size="small" label={t} />
                    ))}
                  </Stack>
                </TableCell>
                <TableCell>{item.owner.login}</TableCell>
                <TableCell>{item.account?.name ?? ''}</TableCell>
                <TableCell>{PLATFORM_TITLES[item.platform]}</TableCell>
                <TableCell>{formatDate(item.dueAt)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="small"
                    variant="contained"
                    disabled={busy === item.id}
                    onClick={() =>
                      void decide(item, () => dataProvider.approvePost(item.id), 'kadr.approvals.approved')
                    }
                  >
                    {translate('kadr.approvals.approve')}
                  </Button>{' '}
                  <Button
                    size="small"
                    color="error"
                    disabled={busy === item.id}
                    onClick={() => {
                      setReason('');
                      setRejecting(item);
                    }}
                  >
                    {translate('kadr.approvals.reject')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {answer && answer.totalPages > 1 && (
        <Pagination sx={{ mt: 2 }} page={page} count={answer.totalPages} onChange={(_, p) => setPage(p)} />
      )}
      <Dialog open={rejecting !== null} onClose={() => setRejecting(null)} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('kadr.approvals.reject_title')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            label={translate('kadr.approvals.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: REJECT_REASON_MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRejecting(null)}>{translate('ra.action.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            disabled={!reason.trim() || busy !== null}
            onClick={() => {
              const item = rejecting;
              if (item) void decide(item, () => dataProvider.rejectPost(item.id, reason), 'kadr.approvals.rejected');
            }}
          >
            {translate('kadr.approvals.reject')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
};
