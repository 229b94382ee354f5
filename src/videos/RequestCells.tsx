import { Chip, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { CreateVideoRequest } from '../contract/videos';
import { OneLine } from '../common/OneLine';

/** The request list's clip name column: one line, the whole name on hover. */
export const ClipCell = () => (
  <OneLine text={useRecordContext<CreateVideoRequest>()?.clipName} maxWidth={{ xs: 130, sm: 140 }} />
);

/** What the request asked for: the count, the toggles that were on and the background folders. */
export const RequestOptions = ({ request, wide = false }: { request: CreateVideoRequest; wide?: boolean }) => {
  const translate = useTranslate();
  const { options } = request;
  const toggles = [
    options.isVideo && 'kadr.videos.is_video',
    options.isPhoto && 'kadr.videos.is_photo',
    options.isGenerator && 'kadr.videos.is_generator',
  ].filter((k): k is string => Boolean(k));
  const folders = request.folderNames ?? options.folders.map((id) => `#${id}`);
  const line = [
    translate('kadr.lists.videos_count', { smart_count: request.count }),
    ...toggles.map((k) => translate(k)),
  ];
  return (
    <Stack spacing={0.25} data-options={request.id} sx={{ maxWidth: wide ? undefined : 200 }}>
      {wide ? (
        <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" alignItems="center">
          <Typography variant="body2" component="span" sx={{ mr: 0.5 }}>
            {line[0]}
          </Typography>
          {line.slice(1).map((t) => (
            <Chip key={t} size="small" variant="outlined" label={t} />
          ))}
        </Stack>
      ) : (
        <OneLine text={line.join(' · ')} maxWidth={200} />
      )}
      {folders.length > 0 && (
        <Typography variant="body2" color="text.secondary" component="div">
          <OneLine text={`${translate('kadr.videos.folders')}: ${folders.join(', ')}`} maxWidth={wide ? 600 : 200} />
        </Typography>
      )}
    </Stack>
  );
};

export const OptionsCell = () => {
  const r = useRecordContext<CreateVideoRequest>();
  return r ? <RequestOptions request={r} /> : null;
};
