import { Box, Button, Stack } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';
import { useVideoLoad } from './useVideoLoad';
import { VideoLoadOverlay } from './VideoLoadOverlay';

/**
 * A rendered video: the browser's player on the signed media link (the media route answers Range, so it
 * seeks without loading the whole file) and a download link; a file retention removed is said so instead. While
 * the file loads one spinner shows (the player's controls come with the file); a file the browser cannot open
 * is said so over the player's frame, its download link kept.
 */
export const VideoPlayer = ({
  url,
  name,
  width = 180,
  removed = false,
}: {
  url: string | null | undefined;
  name: string;
  width?: number;
  /** Retention removed the file: a message in the player's place. */
  removed?: boolean;
}) => {
  const translate = useTranslate();
  const load = useVideoLoad(url);
  if (removed)
    return (
      <Box
        data-testid="media-removed"
        role="note"
        aria-label={name}
        sx={{
          width,
          aspectRatio: '9 / 16',
          flexShrink: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          textAlign: 'center',
          p: 1,
          bgcolor: 'action.hover',
          color: 'text.secondary',
          borderRadius: 1,
          typography: 'body2',
        }}
      >
        {translate('kadr.media.file_removed')}
      </Box>
    );
  if (!url) return null;
  return (
    <Stack spacing={0.5} sx={{ width, flexShrink: 0 }} data-video-state={load.state}>
      <Box sx={{ position: 'relative', width }}>
        <Box
          component="video"
          src={url}
          controls={load.state === 'loaded'}
          preload="metadata"
          playsInline
          aria-label={translate('kadr.publishing.player', { name })}
          {...load.events}
          sx={{ display: 'block', width, aspectRatio: '9 / 16', bgcolor: 'black', borderRadius: 1 }}
        />
        <VideoLoadOverlay state={load.state} />
      </Box>
      <Button size="small" startIcon={<DownloadIcon />} href={url} download={`${name}.mp4`}>
        {translate('kadr.publishing.download')}
      </Button>
    </Stack>
  );
};
