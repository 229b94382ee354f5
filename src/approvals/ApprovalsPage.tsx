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
  Divider,
  Pagination,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ApprovalItem } from '../contract/approvals';
import { REJECT_REASON_MAX } from '../contract/approvals';
import { PLATFORM_TITLES } from '../contract/platforms';
import type { Page } from '../contract/pagination';
import { errorMessages } from '../common/errorMessages';
import { useFormatUtc } from '../common/useFormatUtc';
import { useIsSmall } from '../common/useIsSmall';
import type { KadrDataProvider } from '../providers/dataProvider';
import { detailPath } from '../publications/paths';

/**
 * The admins' list of posts awaiting approval (issue 23 item 3, /approvals): each post with its author, profile,
 * platform, title and date; Approve sends it on (at its date, or now when the date has passed), Reject asks for
 * a reason its author will see. The bell's "awaits approval" notices open this screen.
 */
/** The video's number, linked to its publication when it has one. */
const VideoLink = ({ item }: { item: ApprovalItem }) =>
  item.idUpload ? <RouterLink to={detailPath(item.idUpload)}>#{item.videoId}</RouterLink> : <>#{item.videoId}</>;

const TitleAndTags = ({ item }: { item: ApprovalItem }) => (
  <>
    {item.title}
    <Stack direction="row" gap={0.5} flexWrap="wrap" sx={{ mt: 0.5 }}>
      {item.tags.map((t) => (
        <Chip key={t} size="small" label={t} />
      ))}
    </Stack>
  </>
);

export const ApprovalsPage = () => {
  const translate = useTranslate();
  const isSmall = useIsSmall();
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

  const buttons = (item: ApprovalItem) => (
    <>
      <Button
        size="small"
        variant="contained"
        disabled={busy === item.id}
        onClick={() => void decide(item, () => dataProvider.approvePost(item.id), 'kadr.approvals.approved')}
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
    </>
  );

  return (
    <Card sx={{ mt: 2, p: 2 }}>
      {/* The bar holds the menu's short word (a phone has room for it); the card, the whole title. */}
      <Title title={translate('kadr.menu.approvals')} />
      <Typography variant="h6" component="h1" sx={{ mb: 1 }}>
        {translate('kadr.approvals.title')}
      </Typography>
      {answer && answer.data.length === 0 && <Alert severity="info">{translate('kadr.approvals.empty')}</Alert>}
      {answer && answer.data.length > 0 && !isSmall && (
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
                  <VideoLink item={item} />
                </TableCell>
                <TableCell>
                  <TitleAndTags item={item} />
                </TableCell>
                <TableCell>{item.owner.login}</TableCell>
                <TableCell>{item.account?.name ?? ''}</TableCell>
                <TableCell>{PLATFORM_TITLES[item.platform]}</TableCell>
                <TableCell>{formatDate(item.dueAt)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {buttons(item)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {answer && answer.data.length > 0 && isSmall && (
        // A phone: one stacked post per row (the table's seven columns do not fit 390 px).
        <Stack divider={<Divider />} spacing={1.5} aria-label={translate('kadr.approvals.title')}>
          {answer.data.map((item) => (
            <Stack key={item.id} spacing={0.5} data-approval={item.id} sx={{ minWidth: 0 }}>
              <Typography variant="body2" component="div">
                <VideoLink item={item} /> · {PLATFORM_TITLES[item.platform]} · {formatDate(item.dueAt)}
              </Typography>
              <TitleAndTags item={item} />
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {translate('kadr.approvals.fields.owner')}: {item.owner.login}
              </Typography>
              {item.account && (
                <Typography variant="body2" color="text.secondary">
                  {translate('kadr.approvals.fields.profile')}: {item.account.name}
                </Typography>
              )}
              <Stack direction="row" spacing={1}>
                {buttons(item)}
              </Stack>
            </Stack>
          ))}
        </Stack>
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
