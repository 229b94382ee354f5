import { Box, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Grid, Stack, Typography } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import type { AiVideo } from '../contract/ai';
import { StatusBadge } from '../common/StatusBadge';
import { VideoButtons } from './VideoButtons';

const Field = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Box>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {children}
    </Typography>
  </Box>
);

/** The play modal (SPEC §2): the video letterboxed in a fixed frame, its prompt, title, description and tags. */
export const VideoPlayDialog = ({ video, onClose }: { video: AiVideo | null; onClose: () => void }) => {
  const translate = useTranslate();
  const f = (k: string) => translate(`kadr.ai.fields.${k}`);
  return (
    <Dialog open={!!video} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="ai-video-title">
      {video && (
        <>
          <DialogTitle id="ai-video-title">
            <Stack direction="row" spacing={1} alignItems="center">
              <span>{translate('kadr.ai.video_n', { id: video.id })}</span>
              <StatusBadge kind="aiVideo" status={video.status} />
            </Stack>
          </DialogTitle>
          <DialogContent dividers>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 5 }}>
                <Box sx={{ bgcolor: 'black', borderRadius: 1, aspectRatio: '9 / 16', maxHeight: '65vh', mx: 'auto' }}>
                  {video.videoUrl ? (
                    <Box
                      component="video"
                      src={video.videoUrl}
                      controls
                      autoPlay
                      playsInline
                      preload="metadata"
                      aria-label={translate('kadr.ai.player', { id: video.id })}
                      sx={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
                    />
                  ) : (
                    <Typography color="grey.400" sx={{ p: 2 }}>
                      {translate('kadr.ai.no_video_file')}
                    </Typography>
                  )}
                </Box>
              </Grid>
              <Grid size={{ xs: 12, sm: 7 }}>
                <Stack spacing={1.5}>
                  <Field label={f('title')}>{video.title || '—'}</Field>
                  <Field label={f('description')}>{video.description || '—'}</Field>
                  <Field label={f('tags')}>
                    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
                      {video.tags.length ? video.tags.map((t) => <Chip key={t} size="small" label={`#${t}`} />) : '—'}
                    </Stack>
                  </Field>
                  <Field label={f('prompt')}>{video.prompt || '—'}</Field>
                </Stack>
              </Grid>
            </Grid>
          </DialogContent>
          <DialogActions sx={{ justifyContent: 'space-between', px: 3 }}>
            <VideoButtons video={video} onDone={onClose} />
            <Button label="ra.action.close" onClick={onClose} />
          </DialogActions>
        </>
      )}
    </Dialog>
  );
};
