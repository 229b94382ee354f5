import { Card, CardContent, Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { noneMeasured, usageSize } from './usageSize';
import { useMediaUsage } from './useMediaUsage';

/** The settings page's card: the space the signed-in user's own media takes (uploads, rendered videos, backgrounds). */
export const OwnMediaUsage = () => {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const { data } = useMediaUsage();
  const own = identity && data?.items.find((u) => u.userId === Number(identity.id));
  if (!own) return null;
  // No file measured yet: said in words (a table's '—' would read "— in 8 files" in a sentence).
  const unknown = noneMeasured(own);
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.media.usage_section')}
        </Typography>
        <Typography data-testid="own-media-usage">
          {unknown
            ? translate('kadr.media.usage_unmeasured', { smart_count: own.files })
            : translate('kadr.media.usage', { size: usageSize(own, translate), smart_count: own.files })}
        </Typography>
        {own.unmeasured > 0 && !unknown && (
          <Typography variant="body2" color="text.secondary">
            {translate('kadr.media.unmeasured', { count: own.unmeasured })}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
};
