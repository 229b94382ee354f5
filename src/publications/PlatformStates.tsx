import { Box, Chip, LinearProgress, Link, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PlatformPublish, PublicationVideo, PublishState } from '../contract/publications';
import { formatUtc } from '../common/formatUtc';
import { useStoredMessage } from '../common/useStoredMessage';

const COLORS: Record<PublishState, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  scheduled: 'info',
  waiting: 'warning',
  uploading: 'warning',
  processing: 'warning',
  publishing: 'warning',
  reconcile: 'warning',
  published: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** States in which the job is working right now (the detail refreshes often while any video is in one). */
export const ACTIVE_STATES: readonly PublishState[] = ['uploading', 'processing', 'publishing', 'reconcile'];

/** How often the detail refreshes: often while something uploads, now and then while something waits. */
export function refreshEvery(videos: PublicationVideo[] | undefined): number | false {
  const states = (videos ?? []).flatMap((v) => v.platforms.map((p) => p.state));
  if (states.some((s) => ACTIVE_STATES.includes(s))) return 2_000;
  if (states.some((s) => s === 'scheduled' || s === 'waiting')) return 10_000;
  return false;
}

const percentOf = (p: PlatformPublish) =>
  p.bytesTotal > 0 ? Math.min(100, Math.floor((p.bytesSent / p.bytesTotal) * 100)) : 0;

/** One video on one platform: its state, upload percent, wait, readable error and link. */
const PlatformRow = ({ p }: { p: PlatformPublish }) => {
  const translate = useTranslate();
  const stored = useStoredMessage();
  const platform = translate(`kadr.publishing.platforms.${p.platform}`);
  const percent = percentOf(p);
  return (
    <Box data-platform={p.platform} data-state={p.state} sx={{ py: 0.5 }}>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap">
        <Typography variant="body2" sx={{ minWidth: 80 }}>
          {platform}
        </Typography>
        <Chip size="small" color={COLORS[p.state]} label={translate(`kadr.publishing.states.${p.state}`)} />
        {p.url && (
          <Link href={p.url} target="_blank" rel="noreferrer" variant="body2">
            {translate('kadr.publishing.open_on', { platform })}
          </Link>
        )}
        {p.state === 'published' && (
          <Typography variant="caption" color="text.secondary">
            {translate('kadr.publishing.stats', { views: p.views, likes: p.likes, comments: p.comments })}
          </Typography>
        )}
      </Stack>
      {p.state === 'uploading' && (
        <Stack direction="row" spacing={1} alignItems="center" sx={{ mt: 0.5 }}>
          <LinearProgress
            variant="determinate"
            value={percent}
            sx={{ flex: 1 }}
            aria-label={translate('kadr.publishing.uploaded', { percent })}
          />
          <Typography variant="caption">{translate('kadr.publishing.uploaded', { percent })}</Typography>
        </Stack>
      )}
      {p.state === 'waiting' && p.waitUntil && (
        <Typography variant="caption" color="text.secondary">
          {translate('kadr.publishing.waits_until', { date: formatUtc(p.waitUntil) })}
        </Typography>
      )}
      {p.error && (
        <Typography variant="caption" color={p.state === 'failed' ? 'error' : 'text.secondary'} component="div">
          {p.errorKind ? `${translate(`kadr.publishing.error_kinds.${p.errorKind}`)}: ` : ''}
          {stored(p.error)}
        </Typography>
      )}
    </Box>
  );
};

export const PlatformStates = ({ video }: { video: PublicationVideo }) => (
  <Box>
    {video.platforms.map((p) => (
      <PlatformRow key={p.platform} p={p} />
    ))}
  </Box>
);
