import { Card, CardContent, Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { usageSize } from './usageSize';
import { useMediaUsage } from './useMediaUsage';

/** The settings page's card: the space the signed-in user's own media takes (uploads, rendered videos, backgrounds). */
export const OwnMediaUsage = () => {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const { data } = useMediaUsage();
  const own = identity && data?.items.find((u) => u.userId === Number(identity.id));
  if (!own) return null;
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.media.usage_section')}
        </Typography>
        <Typography data-testid="own-media-usage">
          {translate('kadr.media.usage', { size: usageSize(own, translate), smart_count: own.files })}
        </Typography>
        {own.unmeasured > 0 && (
          <Typography variant="body2" color="text.secondary">
            {translate('kadr.media.unmeasured', { count: own.unmeasured })}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
};
