import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import type { KadrDataProvider } from '../providers/dataProvider';
import { VideoPlayer } from './VideoPlayer';

/** The rendered videos of a finished request, to watch and download before publishing (the request list's button). */
export const RequestVideosButton = ({ idUpload, id }: { idUpload: string; id: number }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data, isPending } = useQuery({
    queryKey: ['create-video/request', idUpload],
    queryFn: ({ signal }) => dataProvider.renderRequest(idUpload, signal),
    enabled: open,
  });
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {translate('kadr.publishing.view_videos')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth>
        <DialogTitle>{translate('kadr.publishing.request_videos', { id })}</DialogTitle>
        <DialogContent>
          {isPending ? (
            <CircularProgress size={24} />
          ) : (
            <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap>
              {data?.video.map((v) => (
                <VideoPlayer
                  key={v.id}
                  url={v.url}
                  removed={v.removed}
                  name={translate('kadr.publishing.video_n', { n: v.index + 1, id: v.id })}
                />
              ))}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('kadr.publishing.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
