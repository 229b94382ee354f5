import { useState } from 'react';
import { Box, Dialog, DialogContent, DialogTitle, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import type { AiScreenshot } from '../contract/ai';
import { useFormatUtc } from '../common/useFormatUtc';

/** The session's screenshots as thumbnails, newest first; a click opens one large. */
export const ScreenshotGallery = ({ shots }: { shots: AiScreenshot[] }) => {
  const formatDate = useFormatUtc();
  const translate = useTranslate();
  const [open, setOpen] = useState<AiScreenshot | null>(null);
  if (!shots.length) return null;
  const sorted = [...shots].sort((a, b) => b.id - a.id);
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {translate('kadr.ai.screenshots', { count: shots.length })}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, overflowX: 'auto', pb: 1 }} role="list">
        {sorted.map((s) => (
          <Box
            key={s.id}
            component="button"
            type="button"
            role="listitem"
            onClick={() => setOpen(s)}
            aria-label={translate('kadr.ai.screenshot_n', { id: s.id, date: formatDate(s.createdAt) })}
            sx={{
              p: 0,
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              cursor: 'zoom-in',
              bgcolor: 'action.hover',
            }}
          >
            <Box
              component="img"
              src={s.url}
              alt=""
              loading="lazy"
              sx={{ display: 'block', width: 160, height: 100, objectFit: 'cover' }}
            />
          </Box>
        ))}
      </Box>
      <Dialog open={!!open} onClose={() => setOpen(null)} maxWidth="lg" fullWidth>
        <DialogTitle sx={{ pr: 6 }}>
          {open && translate('kadr.ai.screenshot_n', { id: open.id, date: formatDate(open.createdAt) })}
          <IconButton
            aria-label={translate('ra.action.close')}
            onClick={() => setOpen(null)}
            sx={{ position: 'absolute', right: 8, top: 8 }}
          >
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent>
          {open && (
            <Box
              component="img"
              src={open.url}
              alt={translate('kadr.ai.screenshot_n', { id: open.id, date: formatDate(open.createdAt) })}
              sx={{ display: 'block', width: '100%', height: 'auto', maxHeight: '80vh', objectFit: 'contain' }}
            />
          )}
        </DialogContent>
      </Dialog>
    </Box>
  );
};
