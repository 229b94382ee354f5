import { Box, Stack } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AccountVideoItem } from '../contract/accounts';
import { OneLine } from '../common/OneLine';
import { PREVIEW_AT_SEC } from '../videos/VideoThumbnail';

/**
 * A video of the profile's list (issue 18): its frame at 0.1 s (SPEC §9 previews) from the signed media link of
 * the rendered file (a media fragment: the browser fetches only the range it needs), and its title.
 */
export const AccountVideoTitle = () => {
  const v = useRecordContext<AccountVideoItem>();
  const translate = useTranslate();
  if (!v) return null;
  const title = v.title || translate('kadr.common.not_available');
  return (
    <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 0 }}>
      {v.mediaUrl ? (
        <Box
          component="video"
          src={`${v.mediaUrl}#t=${PREVIEW_AT_SEC}`}
          muted
          playsInline
          preload="metadata"
          aria-label={translate('kadr.lists.thumbnail')}
          data-testid="video-thumbnail"
          sx={{ width: 36, height: 64, flex: 'none', objectFit: 'cover', bgcolor: 'black', borderRadius: 0.5 }}
        />
      ) : (
        <Box sx={{ width: 36, height: 64, flex: 'none', bgcolor: 'action.hover', borderRadius: 0.5 }} />
      )}
      <OneLine text={title} />
    </Stack>
  );
};
