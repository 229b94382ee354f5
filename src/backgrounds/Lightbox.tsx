import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Dialog, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import PrevIcon from '@mui/icons-material/ChevronLeft';
import NextIcon from '@mui/icons-material/ChevronRight';
import type { BackgroundItem } from '../contract/backgrounds';

type Props = { images: BackgroundItem[]; index: number | null; onChange: (index: number | null) => void };

const arrowSx = {
  position: 'absolute',
  top: '50%',
  transform: 'translateY(-50%)',
  color: 'common.white',
  bgcolor: 'rgba(0,0,0,0.45)',
  '&:hover': { bgcolor: 'rgba(0,0,0,0.7)' },
} as const;

/**
 * A folder's picture shown large on a dark backdrop, whole (letterboxed). Esc, the close button or a click
 * outside the picture closes it; the arrows (buttons or keys) go to the previous and next picture of the page.
 */
export const Lightbox = ({ images, index, onChange }: Props) => {
  const translate = useTranslate();
  const item = index === null ? undefined : images[index];
  const step = (by: number) => index !== null && onChange((index + by + images.length) % images.length);
  useEffect(() => {
    if (index === null || images.length < 2) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') onChange((index - 1 + images.length) % images.length);
      if (e.key === 'ArrowRight') onChange((index + 1) % images.length);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, images.length, onChange]);
  return (
    <Dialog
      open={!!item}
      onClose={() => onChange(null)}
      maxWidth={false}
      slotProps={{
        paper: {
          'aria-label': translate('kadr.look.image_viewer'),
          sx: { bgcolor: 'grey.900', m: 2, overflow: 'hidden' },
        },
      }}
    >
      {item && (
        <Box sx={{ position: 'relative', display: 'flex', flexDirection: 'column' }}>
          <Box
            component="img"
            src={item.url}
            alt={item.name}
            sx={{
              display: 'block',
              maxWidth: 'calc(100vw - 64px)',
              maxHeight: 'calc(100vh - 112px)',
              objectFit: 'contain',
            }}
          />
          <Typography variant="caption" sx={{ color: 'grey.300', px: 1.5, py: 1 }}>
            {item.name}
            {images.length > 1 && ` · ${translate('kadr.look.position', { n: index! + 1, total: images.length })}`}
          </Typography>
          <IconButton
            aria-label={translate('kadr.look.close')}
            onClick={() => onChange(null)}
            sx={{ ...arrowSx, top: 8, right: 8, transform: 'none' }}
          >
            <CloseIcon />
          </IconButton>
          {images.length > 1 && (
            <>
              <IconButton
                aria-label={translate('kadr.look.previous')}
                onClick={() => step(-1)}
                sx={{ ...arrowSx, left: 8 }}
              >
                <PrevIcon />
              </IconButton>
              <IconButton
                aria-label={translate('kadr.look.next')}
                onClick={() => step(1)}
                sx={{ ...arrowSx, right: 8 }}
              >
                <NextIcon />
              </IconButton>
            </>
          )}
        </Box>
      )}
    </Dialog>
  );
};
