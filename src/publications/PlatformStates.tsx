import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Box, Button, Chip, IconButton, LinearProgress, Link, Stack, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Confirm, useDataProvider, useNotify, useTranslate, type HttpError } from 'react-admin';
import type { PlatformKey } from '../contract/platforms';
import type { PlatformPublish, PostAction, PostRetry, PublicationVideo, PublishState } from '../contract/publications';
import { splitDetail } from '../contract/stored-message';
import { DEFAULT_TIME_ZONE } from '../contract/time-zones';
import { useFormatInZone } from '../common/useFormatInZone';
import { useStoredMessage } from '../common/useStoredMessage';
import { ErrorDetail } from '../common/ErrorDetail';
import type { KadrDataProvider } from '../providers/dataProvider';
import { STATE_COLORS } from './stateColors';

/** States in which the job is working right now (the detail refreshes often while any video is in one). */
export const ACTIVE_STATES: readonly PublishState[] = ['uploading', 'processing', 'publishing', 'reconcile'];

/** How often the detail refreshes: often while something uploads, now and then while something waits. */
export function refreshEvery(videos: PublicationVideo[] | undefined): number | false {
  const states = (videos ?? []).flatMap((v) => v.platforms.map((p) => p.state));
  if (states.some((s) => ACTIVE_STATES.includes(s))) return 2_000;
  if ((videos ?? []).some((v) => v.retrying)) return 5_000;
  if (states.some((s) => s === 'scheduled' || s === 'waiting')) return 10_000;
  return false;
}

const percentOf = (p: PlatformPublish) =>
  p.bytesTotal > 0 ? Math.min(100, Math.floor((p.bytesSent / p.bytesTotal) * 100)) : 0;

/** The post's last error: ours translated, and the platform's own words (when it gave any) on a line of their own. */
const ErrorLines = ({ p }: { p: PlatformPublish }) => {
  const translate = useTranslate();
  const stored = useStoredMessage();
  if (!p.error) return null;
  const { message, detail } = splitDetail(p.error);
  const kind = p.errorKind ? `${translate(`kadr.publishing.error_kinds.${p.errorKind}`)}: ` : '';
  const text = p.retry ? translate('kadr.posts.last_error', { error: stored(message) }) : `${kind}${stored(message)}`;
  return (
    <Box data-error={p.platform} sx={{ overflowWrap: 'anywhere' }}>
      <Typography variant="caption" color={p.state === 'failed' ? 'error' : 'text.primary'} component="div">
        {text}
      </Typography>
      <ErrorDetail detail={detail} label="platform" />
    </Box>
  );
};

/** A retrying post: why, which attempt comes next and when. */
const RetryLine = ({ retry, zone }: { retry: PostRetry; zone: string }) => {
  const formatDate = useFormatInZone(zone);
  const translate = useTranslate();
  const parts = [translate(`kadr.posts.reasons.${retry.reason}`)];
  if (retry.reason !== 'quota') parts.push(translate('kadr.posts.attempt', { n: retry.attempt + 1 }));
  const next = retry.nextTryAt;
  parts.push(
    next ? translate('kadr.posts.next_try_zoned', { date: formatDate(next) }) : translate('kadr.posts.next_try_soon'),
  );
  return (
    <Typography variant="caption" component="div" data-retry>
      {parts.join(' · ')}
    </Typography>
  );
};

type PostActions = { videoId: number; onChange: () => void };

/** "Retry now" and "cancel" on a retrying post, "refresh stats" on a published one (one post: video × platform). */
function usePostAction({ videoId, onChange }: PostActions, platform: PlatformKey) {
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { mutateAsync, isPending } = useMutation({
    mutationFn: (action: PostAction) => dataProvider.postAction(videoId, platform, action),
  });
  const run = async (action: PostAction, ok: string, okArgs?: Record<string, string>) => {
    try {
      await mutateAsync(action);
      notify(ok, { type: 'success', messageArgs: okArgs });
    } catch (e) {
      notify((e as HttpError).body?.message ?? 'kadr.notifications.error', { type: 'error' });
    } finally {
      onChange();
    }
  };
  return { busy: isPending, run };
}

/** One video on one platform: its state, upload percent, retry, wait, readable error, link, stats and actions. */
const PlatformRow = ({ p, zone, actions }: { p: PlatformPublish; zone: string; actions?: PostActions }) => {
  const formatDate = useFormatInZone(zone);
  const translate = useTranslate();
  const platform = translate(`kadr.publishing.platforms.${p.platform}`);
  const percent = percentOf(p);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const act = usePostAction(actions ?? { videoId: 0, onChange: () => undefined }, p.platform);
  return (
    <Box data-platform={p.platform} data-state={p.state} data-retrying={p.retry ? 'true' : undefined} sx={{ py: 0.5 }}>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Typography variant="body2" sx={{ minWidth: 80 }}>
          {platform}
        </Typography>
        {p.retry ? (
          <Chip size="small" color="warning" label={translate('kadr.posts.retrying')} />
        ) : (
          <Chip size="small" color={STATE_COLORS[p.state]} label={translate(`kadr.publishing.states.${p.state}`)} />
        )}
        {p.url && (
          <Link href={p.url} target="_blank" rel="noreferrer" variant="body2">
            {translate('kadr.publishing.open_on', { platform })}
          </Link>
        )}
        {p.state === 'published' && (
          <Typography variant="caption" color="text.secondary" data-stats>
            {translate('kadr.publishing.stats', { views: p.views, likes: p.likes, comments: p.comments })} ·{' '}
            {p.statsAt
              ? translate('kadr.posts.stats_at_zoned', { date: formatDate(p.statsAt) })
              : translate('kadr.posts.stats_never')}
          </Typography>
        )}
        {p.state === 'published' && actions && (
          <Tooltip
            title={
              p.statsRefreshAt
                ? translate('kadr.posts.stats_wait_zoned', { date: formatDate(p.statsRefreshAt) })
                : translate('kadr.posts.refresh_stats')
            }
          >
            <span>
              <IconButton
                size="small"
                disabled={act.busy || !!p.statsRefreshAt}
                aria-label={translate('kadr.posts.refresh_stats_label', { platform })}
                onClick={() => act.run('stats', 'kadr.posts.stats_refreshed')}
              >
                <RefreshIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
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
      {p.retry && <RetryLine retry={p.retry} zone={zone} />}
      {!p.retry && p.state === 'waiting' && p.waitUntil && (
        <Typography variant="caption" color="text.secondary">
          {translate('kadr.publishing.waits_until_zoned', { date: formatDate(p.waitUntil) })}
        </Typography>
      )}
      <ErrorLines p={p} />
      {p.retry && actions && (
        <Stack direction="row" spacing={1} sx={{ mt: 0.5 }} flexWrap="wrap" useFlexGap>
          <Button
            size="small"
            variant="outlined"
            disabled={act.busy}
            aria-label={translate('kadr.posts.retry_now_label', { platform })}
            onClick={() => act.run('retry', 'kadr.posts.retried')}
          >
            {translate('kadr.posts.retry_now')}
          </Button>
          <Button
            size="small"
            color="error"
            disabled={act.busy}
            aria-label={translate('kadr.posts.cancel_label', { platform })}
            onClick={() => setConfirmCancel(true)}
          >
            {translate('kadr.posts.cancel')}
          </Button>
          <Confirm
            isOpen={confirmCancel}
            title="kadr.posts.cancel_title"
            titleTranslateOptions={{ platform }}
            content="kadr.posts.cancel_content"
            translateOptions={{ platform }}
            onConfirm={() => {
              setConfirmCancel(false);
              return act.run('cancel', 'kadr.posts.cancelled', { platform });
            }}
            onClose={() => setConfirmCancel(false)}
          />
        </Stack>
      )}
    </Box>
  );
};

/**
 * A video's posts, one per platform, their dates in the video's profile's zone (UTC without a profile); with
 * `actions` each retrying or published post offers its actions.
 */
export const PlatformStates = ({ video, onChange }: { video: PublicationVideo; onChange?: () => void }) => (
  <Box>
    {video.platforms.map((p) => (
      <PlatformRow
        key={p.platform}
        p={p}
        zone={video.account?.timeZone ?? DEFAULT_TIME_ZONE}
        actions={onChange ? { videoId: video.id, onChange } : undefined}
      />
    ))}
  </Box>
);
