import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { JobState } from '../contract/jobs';

const COLORS: Record<JobState, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  queued: 'default',
  running: 'info',
  retrying: 'warning',
  dead: 'error',
  done: 'success',
};

/** A job's state as a coloured chip. */
export const JobStateChip = ({ state, count }: { state: JobState; count?: number }) => {
  const translate = useTranslate();
  const label = translate(`kadr.jobs.states.${state}`);
  return (
    <Chip
      size="small"
      color={COLORS[state]}
      label={count === undefined ? label : `${label}: ${count}`}
      data-state={state}
    />
  );
};
