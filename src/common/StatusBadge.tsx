import { Chip } from '@mui/material';
import { useTranslate } from 'ra-core';
import type { StatusKind } from '../contract/statuses';

const COLORS: Record<string, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  success: 'success',
  error: 'error',
  loading: 'warning',
  publication: 'info',
  pending: 'default',
  noactive: 'default',
  rejected: 'default',
  // A post retrying past its time (src/contract/publications.ts shownStatus): not the blue "scheduled".
  retrying: 'warning',
};
const LABELS: Record<string, string> = { retrying: 'kadr.posts.retrying' };

/** SPEC §4 status labels as a coloured chip; `kind` picks the label set (video, account, ai, request). */
export const StatusBadge = ({ status, kind = 'video' }: { status?: string | null; kind?: StatusKind }) => {
  const translate = useTranslate();
  if (!status) return null;
  return (
    <Chip
      size="small"
      color={COLORS[status] ?? 'default'}
      label={translate(LABELS[status] ?? `kadr.status.${kind}.${status}`, { _: status })}
      data-status={status}
    />
  );
};
