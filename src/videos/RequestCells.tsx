import { Box, Chip, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { CreateVideoRequest } from '../contract/videos';
import { OneLine } from '../common/OneLine';

/** The request list's clip name column: one line, the whole name on hover. */
export const ClipCell = () => <OneLine text={useRecordContext<CreateVideoRequest>()?.clipName} maxWidth={220} />;

/** What the request asked for: the count, the toggles that were on and the background folders. */
export const RequestOptions = ({ request }: { request: CreateVideoRequest }) => {
  const translate = useTranslate();
  const { options } = request;
  const toggles = [
    options.isVideo && 'kadr.videos.is_video',
    options.isPhoto && 'kadr.videos.is_photo',
    options.isGenerator && 'kadr.videos.is_generator',
  ].filter((k): k is string => Boolean(k));
  const folders = request.folderNames ?? options.folders.map((id) => `#${id}`);
  return (
    <Stack spacing={0.5} data-options={request.id}>
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" alignItems="center">
        <Typography variant="body2" component="span" sx={{ mr: 0.5 }}>
          {translate('kadr.lists.videos_count', { count: request.count })}
        </Typography>
        {toggles.map((k) => (
          <Chip key={k} size="small" variant="outlined" label={translate(k)} />
        ))}
      </Stack>
      {folders.length > 0 && (
        <Box sx={{ maxWidth: 280 }}>
          <OneLine text={`${translate('kadr.videos.folders')}: ${folders.join(', ')}`} maxWidth={280} />
        </Box>
      )}
    </Stack>
  );
};

export const OptionsCell = () => {
  const r = useRecordContext<CreateVideoRequest>();
  return r ? <RequestOptions request={r} /> : null;
};
