import { useEffect, useRef } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import { useVideoLoad } from './useVideoLoad';
import { VideoLoadOverlay } from './VideoLoadOverlay';

/** At most `lines` lines of text, cut with an ellipsis. */
const clamp = (lines: number) =>
  ({
    wordBreak: 'break-word',
    display: '-webkit-box',
    WebkitLineClamp: lines,
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  }) as const;

/**
 * A post as its platform shows it on a phone: a vertical 9:16 frame with the video (on its cover frame when one
 * is chosen; a spinner while it loads, a failed file said so), the profile's name (previewName) and the caption
 * over the bottom of the picture (YouTube Shorts: the title).
 */
export const PostPreview = ({
  platform,
  url,
  profile,
  text,
  coverMs,
}: {
  platform: PlatformKey;
  url: string | null;
  profile: string;
  text: string;
  coverMs?: number | undefined;
}) => {
  const translate = useTranslate();
  const video = useRef<HTMLVideoElement>(null);
  const load = useVideoLoad(url);
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const seek = () => {
      v.currentTime = (coverMs ?? 0) / 1000;
    };
    if (v.readyState >= 1) seek();
    else v.addEventListener('loadedmetadata', seek, { once: true });
    return () => v.removeEventListener('loadedmetadata', seek);
  }, [coverMs, url]);
  const label = translate('kadr.platform_posts.preview', { platform: PLATFORM_TITLES[platform] });
  return (
    <Box
      role="figure"
      aria-label={label}
      data-preview={platform}
      data-video-state={url ? load.state : undefined}
      sx={{
        position: 'relative',
        width: 180,
        aspectRatio: '9 / 16',
        flexShrink: 0,
        bgcolor: 'black',
        borderRadius: 2,
        overflow: 'hidden',
        color: 'common.white',
      }}
    >
      {url && (
        <Box
          component="video"
          ref={video}
          src={url}
          muted
          playsInline
          preload="metadata"
          {...load.events}
          sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
        />
      )}
      {/* The caption takes at most the bottom 45% (the name 2 lines, the text 4): a spinner or a failed file is said above it. */}
      {url && <VideoLoadOverlay state={load.state} clearBottom="45%" />}
      <Box
        sx={{
          position: 'absolute',
          left: 0,
          right: 0,
          bottom: 0,
          p: 1,
          background: 'linear-gradient(transparent, rgba(0,0,0,0.75))',
        }}
      >
        {profile && (
          <Typography variant="caption" component="div" sx={{ fontWeight: 700, ...clamp(2) }} data-preview-name>
            {profile}
          </Typography>
        )}
        <Typography variant="caption" component="div" data-preview-text sx={{ whiteSpace: 'pre-wrap', ...clamp(4) }}>
          {text}
        </Typography>
      </Box>
    </Box>
  );
};
