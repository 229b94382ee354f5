import type { PublishState } from '../contract/publications';

/** Each post state's colour (a MUI palette name): the publication screen's chips and the calendar's entries. */
export const STATE_COLORS: Record<PublishState, 'default' | 'success' | 'error' | 'warning' | 'info' | 'secondary'> = {
  scheduled: 'info',
  awaiting_approval: 'secondary',
  waiting: 'warning',
  uploading: 'warning',
  processing: 'warning',
  publishing: 'warning',
  reconcile: 'warning',
  published: 'success',
  failed: 'error',
  cancelled: 'default',
};
