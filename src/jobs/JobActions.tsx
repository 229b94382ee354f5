import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import CancelIcon from '@mui/icons-material/Cancel';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { JobRecord } from '../contract/jobs';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';
import { useKindLabel } from './useKindLabel';

type Action = 'retry' | 'cancel';

/**
 * Retry (a dead or retrying job: run again now) and Cancel (a queued job of a kind that is safe to cancel), each
 * only where the server allows it and after a confirmation; a toast says how it went, and the list and the counts
 * reload.
 */
export const JobActions = () => {
  const job = useRecordContext<JobRecord>();
  const translate = useTranslate();
  const kindLabel = useKindLabel();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [asked, setAsked] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  if (!job || (!job.canRetry && !job.canCancel)) return null;

  const run = async (action: Action) => {
    setAsked(null);
    setBusy(true);
    try {
      if (action === 'retry') await dataProvider.retryJob(job.id);
      else await dataProvider.cancelJob(job.id);
      notify(action === 'retry' ? 'kadr.jobs.retried' : 'kadr.jobs.cancelled', { type: 'success' });
    } catch (e) {
      for (const m of errorMessages(e, translate('kadr.notifications.failure'))) notify(m, { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };

  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" onClick={(e) => e.stopPropagation()}>
      {job.canRetry && (
        <Button size="small" startIcon={<ReplayIcon />} disabled={busy} onClick={() => setAsked('retry')}>
          {translate('kadr.jobs.retry')}
        </Button>
      )}
      {job.canCancel && (
        <Button
          size="small"
          color="error"
          startIcon={<CancelIcon />}
          disabled={busy}
          onClick={() => setAsked('cancel')}
        >
          {translate('kadr.jobs.cancel')}
        </Button>
      )}
      <Confirm
        isOpen={asked !== null}
        title={`kadr.jobs.${asked ?? 'retry'}_title`}
        titleTranslateOptions={{ id: job.id }}
        content={`kadr.jobs.${asked ?? 'retry'}_content`}
        contentTranslateOptions={{ kind: kindLabel(job.kind) }}
        confirm={`kadr.jobs.${asked ?? 'retry'}`}
        onConfirm={() => asked && run(asked)}
        onClose={() => setAsked(null)}
      />
    </Stack>
  );
};
