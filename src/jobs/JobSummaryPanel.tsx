import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { JOB_STATES, type JobSummary } from '../contract/jobs';
import { JobStateChip } from './JobStateChip';
import { lagText } from './lag';
import { useJobSummary } from './useJobSummary';
import { useKindLabel } from './useKindLabel';

/** The counts per kind and state above the list, and how long the oldest due job has waited for a worker. */
export const JobSummaryPanel = () => {
  const translate = useTranslate();
  const kindLabel = useKindLabel();
  const data = useJobSummary();
  if (!data) return null;
  const lag = data.oldestDueLagMs === null ? null : lagText(data.oldestDueLagMs);
  return (
    <Card variant="outlined" sx={{ mt: 1, mb: 1 }} data-testid="job-summary">
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Typography variant="subtitle2" gutterBottom>
          {translate('kadr.jobs.summary_title')}
        </Typography>
        <Stack spacing={1}>
          {byKind(data).map(({ kind, counts }) => (
            <Box
              key={kind}
              data-kind={kind}
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', minWidth: 0 }}
            >
              <Typography variant="body2" sx={{ minWidth: 180, overflowWrap: 'normal', wordBreak: 'normal' }}>
                {kindLabel(kind)}
              </Typography>
              {/* The chips wrap as one group: on a phone they go under the label together, not one by one. */}
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} data-kind-counts>
                {counts.map(({ state, count }) => (
                  <JobStateChip key={state} state={state} count={count} />
                ))}
              </Box>
            </Box>
          ))}
          <Typography variant="body2" color="text.secondary" data-testid="oldest-due">
            {lag
              ? translate('kadr.jobs.oldest_due', { lag: translate(lag.key, { n: lag.n }) })
              : translate('kadr.jobs.oldest_due_none')}
          </Typography>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** The kinds that have jobs, each with its non-zero counts in the states' order. */
function byKind(summary: JobSummary) {
  const kinds = [...new Set(summary.counts.map((c) => c.kind))];
  return kinds.map((kind) => ({
    kind,
    counts: JOB_STATES.flatMap((state) => {
      const count = summary.counts.find((c) => c.kind === kind && c.state === state)?.count ?? 0;
      return count ? [{ state, count }] : [];
    }),
  }));
}
