import { Box, Button, Stack } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';

/**
 * A rendered video: the browser's player on the signed media link (the media route answers Range, so it
 * seeks without loading the whole file) and a download link.
 */
export const VideoPlayer = ({
  url,
  name,
  width = 180,
}: {
  url: string | null | undefined;
  name: string;
  width?: number;
}) => {
  const translate = useTranslate();
  if (!url) return null;
  return (
    <Stack spacing={0.5} sx={{ width, flexShrink: 0 }}>
      <Box
        component="video"
        src={url}
        controls
        preload="metadata"
        playsInline
        aria-label={translate('kadr.publishing.player', { name })}
        sx={{ width, aspectRatio: '9 / 16', bgcolor: 'black', borderRadius: 1 }}
      />
      <Button size="small" startIcon={<DownloadIcon />} href={url} download={`${name}.mp4`}>
        {translate('kadr.publishing.download')}
      </Button>
    </Stack>
  );
};
