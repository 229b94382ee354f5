import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import VideocamOffIcon from '@mui/icons-material/VideocamOff';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { Box, Card, CardActions, CardContent, IconButton, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { AiVideo } from '../contract/ai';
import { StatusBadge } from '../common/StatusBadge';
import { useFormatUtc } from '../common/useFormatUtc';
import { ErrorAlert } from '../common/ErrorDetail';
import { VideoButtons } from './VideoButtons';
import { sessionPath } from './paths';

/** What the platform made of a published AI video (the publishing pipeline's status and reason). */
const PublicationOutcome = ({ p }: { p: NonNullable<AiVideo['publication']> }) => {
  const translate = useTranslate();
  return (
    <Stack spacing={0.5} data-testid="ai-video-publication">
      <Stack direction="row" spacing={1} alignItems="center">
        <Typography variant="caption">{translate('kadr.ai.platform_outcome')}</Typography>
        <StatusBadge status={p.status} />
      </Stack>
      {p.error && <ErrorAlert message={p.error} detail={p.errorDetail} label="platform" />}
    </Stack>
  );
};

/**
 * One AI video: id, the session's email, status, a play button opening the modal (only when there is a file to
 * play: a failed or unfinished video shows a plain box), and the three actions.
 */
export const AiVideoCard = ({ video, onPlay }: { video: AiVideo; onPlay: () => void }) => {
  const formatDate = useFormatUtc();
  const translate = useTranslate();
  return (
    <Card
      variant="outlined"
      role="group"
      aria-label={translate('kadr.ai.video_n', { id: video.id })}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1.5}>
          <Box
            data-testid="ai-video-preview"
            sx={{
              position: 'relative',
              width: 72,
              aspectRatio: '9 / 16',
              bgcolor: video.videoUrl ? 'black' : 'action.hover',
              borderRadius: 1,
              flexShrink: 0,
              overflow: 'hidden',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            {!video.videoUrl &&
              // No file (still generating, or failed): a plain box saying so, nothing to play.
              (video.status === 'error' ? (
                <VideocamOffIcon color="error" aria-label={translate('kadr.ai.no_video_failed')} />
              ) : (
                <HourglassEmptyIcon color="disabled" aria-label={translate('kadr.ai.no_video_file')} />
              ))}
            {video.videoUrl && (
              // The frame at 0.1 s as the preview (SPEC §9), letterboxed.
              <Box
                component="video"
                src={`${video.videoUrl}#t=0.1`}
                preload="metadata"
                muted
                playsInline
                aria-hidden
                sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain' }}
              />
            )}
            {video.videoUrl && (
              <IconButton
                aria-label={translate('kadr.ai.play', { id: video.id })}
                onClick={onPlay}
                sx={{
                  position: 'absolute',
                  inset: 0,
                  m: 'auto',
                  width: 40,
                  height: 40,
                  color: 'common.white',
                  bgcolor: 'rgba(0,0,0,0.35)',
                }}
              >
                <PlayArrowIcon />
              </IconButton>
            )}
          </Box>
          <Stack spacing={0.5} sx={{ minWidth: 0, flex: 1 }}>
            <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
              <Typography variant="subtitle2">#{video.id}</Typography>
              <StatusBadge kind="aiVideo" status={video.status} />
            </Stack>
            {video.userSession ? (
              <Link
                component={RouterLink}
                to={sessionPath(video.userSession.id)}
                variant="body2"
                noWrap
                title={video.userSession.email}
              >
                {video.userSession.email}
              </Link>
            ) : (
              <Typography variant="body2">—</Typography>
            )}
            <Typography variant="body2" noWrap title={video.title}>
              {video.title || '—'}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatDate(video.createdAt)}
            </Typography>
          </Stack>
        </Stack>
        {video.error && <ErrorAlert message={video.error} detail={video.errorDetail} label="provider" sx={{ mt: 1 }} />}
        {video.publication && (
          <Box sx={{ mt: 1 }}>
            <PublicationOutcome p={video.publication} />
          </Box>
        )}
      </CardContent>
      {/* The buttons start where the content (and its error box) does. */}
      <CardActions sx={{ px: 2, pb: 2 }}>
        <VideoButtons video={video} />
      </CardActions>
    </Card>
  );
};
