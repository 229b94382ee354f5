import { useTranslate } from 'react-admin';
import { Box, Typography } from '@mui/material';
import InsightsIcon from '@mui/icons-material/Insights';

/**
 * What a chart or a top list shows before anything was read: an icon and a sentence in the chart's place, never
 * an empty frame of axes. `tall` keeps a chart's height so the cards beside it stay level.
 */
export const NoStats = ({ tall = false }: { tall?: boolean }) => {
  const translate = useTranslate();
  return (
    <Box
      data-no-stats
      sx={{
        minHeight: tall ? 200 : undefined,
        py: 3,
        px: 2,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        textAlign: 'center',
        color: 'text.secondary',
        border: 1,
        borderColor: 'divider',
        borderStyle: 'dashed',
        borderRadius: 1,
      }}
    >
      <InsightsIcon color="disabled" fontSize="large" />
      <Typography variant="body2">{translate('kadr.analytics.empty')}</Typography>
    </Box>
  );
};
