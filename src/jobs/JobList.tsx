import { Box, Stack, Typography } from '@mui/material';
import { DataTable, List, SelectInput, useRecordContext, useTranslate, type SortPayload } from 'react-admin';
import { JOB_STATES, type JobRecord } from '../contract/jobs';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { ErrorDetail } from '../common/ErrorDetail';
import { ListActions, searchFilter } from '../common/listFilters';
import { NothingFound } from '../common/NothingFound';
import { useFormatUtc } from '../common/useFormatUtc';
import { mediaSize } from '../media/mediaSize';
import { useIsSmall } from '../common/useIsSmall';
import { JobActions } from './JobActions';
import { JobStateChip } from './JobStateChip';
import { JobSummaryPanel } from './JobSummaryPanel';
import { lagText } from './lag';
import { breakableId, jobProgress } from './progress';
import { useJobSummary } from './useJobSummary';
import { useKindLabel } from './useKindLabel';
import { useStoredError } from '../common/useStoredMessage';

const FILTER_WIDTH = { minWidth: 230 };
const SORT: SortPayload = { field: 'id', order: 'DESC' };

/** The kind filter: its choices are the kinds the server knows (the summary names them). */
const KindFilter = (props: { source: string; alwaysOn?: boolean }) => {
  const summary = useJobSummary();
  const kindLabel = useKindLabel();
  return (
    <SelectInput
      {...props}
      label="kadr.jobs.fields.kind"
      sx={FILTER_WIDTH}
      choices={(summary?.kinds ?? []).map((k) => ({ id: k, name: kindLabel(k) }))}
      translateChoice={false}
    />
  );
};

const StateFilter = (props: { source: string; alwaysOn?: boolean }) => {
  const translate = useTranslate();
  return (
    <SelectInput
      {...props}
      label="kadr.jobs.fields.state"
      sx={FILTER_WIDTH}
      choices={JOB_STATES.map((s) => ({ id: s, name: translate(`kadr.jobs.states.${s}`) }))}
    />
  );
};

const filters = [
  searchFilter(),
  <KindFilter key="kind" source="kind" alwaysOn />,
  <StateFilter key="state" source="state" alwaysOn />,
];

const Lag = () => {
  const translate = useTranslate();
  const job = useRecordContext<JobRecord>();
  if (!job || job.lagMs === null) return <>—</>;
  const lag = lagText(job.lagMs);
  return (
    <Typography component="span" variant="inherit" sx={{ whiteSpace: 'nowrap' }} data-lag>
      {translate(lag.key, { n: lag.n })}
    </Typography>
  );
};

const OwnerProgress = () => {
  const translate = useTranslate();
  const job = useRecordContext<JobRecord>();
  if (!job || (!job.owner && !job.progress)) return <>—</>;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      {job.owner && (
        <Typography variant="body2" sx={{ overflowWrap: 'break-word' }} data-owner>
          {translate('kadr.jobs.owner', { owner: breakableId(job.owner) })}
        </Typography>
      )}
      {job.progress && (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }} data-progress>
          <ProgressText mark={job.progress} />
        </Typography>
      )}
    </Stack>
  );
};

/** A progress mark in words: a post's state and the bytes it has sent, or another kind's mark as it is. */
const ProgressText = ({ mark }: { mark: string }) => {
  const translate = useTranslate();
  const progress = jobProgress(mark);
  if (progress.kind === 'text') return <>{translate('kadr.jobs.progress', { progress: progress.text })}</>;
  return (
    <>
      {translate('kadr.jobs.progress_post', {
        state: translate(`kadr.publishing.states.${progress.state}`, { _: progress.state }),
        size: mediaSize(progress.bytesSent, translate),
      })}
    </>
  );
};

/**
 * The kind and key; on a phone the attempts, due time, lag, owner, reason and buttons go under them instead of
 * into columns.
 */
const KindCell = ({ withDetails }: { withDetails: boolean }) => {
  const translate = useTranslate();
  const kindLabel = useKindLabel();
  const formatDate = useFormatUtc();
  const job = useRecordContext<JobRecord>();
  if (!job) return null;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      {/* Breaks between words only, so the column is never narrower than the label's longest word. */}
      <Typography variant="body2" sx={{ overflowWrap: 'normal', wordBreak: 'normal' }} data-kind-label>
        {kindLabel(job.kind)}
      </Typography>
      {/* Breaks after its separators (ai.video.|generate:|2:1), never inside a word. */}
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'break-word' }} data-job-key>
        {breakableId(job.key)}
      </Typography>
      {withDetails && (
        <>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate('kadr.jobs.fields.attempts')}: <AttemptsCell /> · {formatDate(job.runAt)} ·{' '}
            <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
              {translate('kadr.jobs.fields.lag')}: <Lag />
            </Box>
          </Typography>
          {(job.owner || job.progress) && <OwnerProgress />}
          <ReasonCell />
          <JobActions />
        </>
      )}
    </Stack>
  );
};

const StateCell = () => {
  const job = useRecordContext<JobRecord>();
  return job ? <JobStateChip state={job.state} /> : null;
};

const AttemptsCell = () => {
  const translate = useTranslate();
  const job = useRecordContext<JobRecord>();
  return job ? <>{translate('kadr.jobs.attempts_of', { attempts: job.attempts, max: job.maxAttempts })}</> : null;
};

const DueCell = () => {
  const formatDate = useFormatUtc();
  const job = useRecordContext<JobRecord>();
  return job ? (
    <Typography component="span" variant="body2">
      {formatDate(job.runAt)}
    </Typography>
  ) : null;
};

/**
 * Why a job failed: a reason the server knows, stored as a message key, in the reader's language (a platform's or
 * provider's own words under it); any other error text as it is.
 */
const ReasonCell = () => {
  const job = useRecordContext<JobRecord>();
  const storedError = useStoredError();
  if (!job?.reason) return null;
  const { message, detail } = storedError(job.reason);
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }} data-reason>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {message}
      </Typography>
      <ErrorDetail detail={detail} />
    </Stack>
  );
};

/**
 * /jobs (admins): 'Черга завдань' — the counts per kind and state on top, then the jobs newest first with their
 * kind, state, attempts, due time, claim lag, owner and progress, reason, and Retry / Cancel where allowed.
 */
export const JobList = () => {
  const translate = useTranslate();
  const isSmall = useIsSmall();
  return (
    <List
      resource="jobs"
      title={translate('kadr.jobs.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      exporter={false}
      empty={false}
      actions={<ListActions />}
      sort={SORT}
      filters={filters}
    >
      <JobSummaryPanel />
      <DataTable bulkActionButtons={false} empty={<NothingFound />} rowClick={false} data-testid="jobs">
        {!isSmall && <DataTable.Col source="id" label="kadr.jobs.fields.id" />}
        <DataTable.Col source="kind" label="kadr.jobs.fields.kind">
          <KindCell withDetails={isSmall} />
        </DataTable.Col>
        <DataTable.Col source="state" label="kadr.jobs.fields.state" disableSort>
          <StateCell />
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="attempts" label="kadr.jobs.fields.attempts">
            <AttemptsCell />
          </DataTable.Col>
        )}
        {!isSmall && (
          // The due time and its header on one line each: a date cut in three reads badly.
          <DataTable.Col source="runAt" label="kadr.jobs.fields.runAt" sx={{ whiteSpace: 'nowrap' }}>
            <DueCell />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="lagMs" label="kadr.jobs.fields.lag" disableSort>
            <Lag />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="owner" label="kadr.jobs.fields.owner" disableSort>
            <OwnerProgress />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="reason" label="kadr.jobs.fields.reason" disableSort>
            <ReasonCell />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col label="" disableSort>
            <JobActions />
          </DataTable.Col>
        )}
      </DataTable>
    </List>
  );
};
