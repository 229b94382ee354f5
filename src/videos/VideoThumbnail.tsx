import { useEffect, useState } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** SPEC §9: the preview is the frame at 0.1 s. */
export const PREVIEW_AT_SEC = 0.1;

/** Grabs one frame of a local video file in the browser (a hidden <video>, then a canvas); null when it cannot. */
export function grabFrame(file: File, atSec = PREVIEW_AT_SEC, width = 240): Promise<string | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    let settled = false;
    const done = (v: string | null) => {
      if (settled) return;
      settled = true;
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      video.load();
      resolve(v);
    };
    video.muted = true;
    video.preload = 'auto';
    video.playsInline = true;
    video.onloadeddata = () => {
      video.currentTime = Math.min(atSec, Number.isFinite(video.duration) ? video.duration / 2 : atSec);
    };
    video.onseeked = () => {
      try {
        const h = Math.round((video.videoHeight / Math.max(1, video.videoWidth)) * width) || width;
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = h;
        canvas.getContext('2d')!.drawImage(video, 0, 0, width, h);
        done(canvas.toDataURL('image/jpeg', 0.8));
      } catch {
        done(null);
      }
    };
    video.onerror = () => done(null);
    setTimeout(() => done(null), 10_000);
    video.src = url;
  });
}

/**
 * A picked file's thumbnail: 'Загрузка превью видео...' while the frame is grabbed; the frame is shown whole
 * (letterboxed on a dark tile), wide or tall.
 */
export const VideoThumbnail = ({ file }: { file: File }) => {
  const translate = useTranslate();
  // The frame grabbed for `file`; a different file (or none grabbed yet) reads as loading.
  const [grabbed, setGrabbed] = useState<{ file: File; src: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    void grabFrame(file).then((src) => {
      if (live) setGrabbed({ file, src });
    });
    return () => {
      live = false;
    };
  }, [file]);
  const state = grabbed?.file === file ? { src: grabbed.src, loading: false } : { src: null, loading: true };
  return (
    <Box
      sx={{
        width: 120,
        height: 90,
        bgcolor: 'grey.900',
        color: 'grey.300',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        borderRadius: 1,
      }}
    >
      {state.loading ? (
        <Typography variant="caption" sx={{ p: 1 }}>
          {translate('kadr.videos.preview_loading')}
        </Typography>
      ) : state.src ? (
        <img
          src={state.src}
          alt={translate('kadr.videos.thumbnail', { name: file.name })}
          style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
        />
      ) : (
        <Typography variant="caption" sx={{ p: 1 }}>
          {file.name}
        </Typography>
      )}
    </Box>
  );
};
