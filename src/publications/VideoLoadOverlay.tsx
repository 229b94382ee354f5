import { Box, CircularProgress } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { useTranslate } from 'react-admin';
import type { VideoLoad } from './useVideoLoad';

/**
 * Over a video's frame while its file is not showing: one spinner while it loads, and a failed file said so
 * (the frame stays, so the page keeps its shape). Nothing once it loaded. Its parent is positioned; `clearBottom`
 * keeps that share of the frame's height free (for what the frame shows over its bottom, such as a caption).
 */
export const VideoLoadOverlay = ({ state, clearBottom = '0%' }: { state: VideoLoad; clearBottom?: string }) => {
  const translate = useTranslate();
  if (state === 'loaded') return null;
  return (
    <Box
      sx={{
        position: 'absolute',
        inset: `0 0 ${clearBottom} 0`,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        p: 1.5,
        overflowWrap: 'anywhere',
        color: 'common.white',
        typography: 'caption',
        pointerEvents: 'none',
      }}
    >
      {state === 'loading' ? (
        <CircularProgress size={32} color="inherit" aria-label={translate('kadr.publishing.video_loading')} />
      ) : (
        <Box role="note" data-testid="video-failed" sx={{ display: 'contents' }}>
          <ErrorOutlineIcon />
          {translate('kadr.publishing.video_failed')}
        </Box>
      )}
    </Box>
  );
};
