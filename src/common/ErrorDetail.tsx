import { useTranslate } from 'react-admin';
import { Alert, Box, Typography, type SxProps, type Theme } from '@mui/material';
import type { DetailSource } from '../contract/stored-message';

/** Whose words a detail is: a platform's, an AI provider's, a tool's (ffmpeg), or unsaid. */
export type DetailLabel = DetailSource | 'technical' | 'details';

/**
 * The platform's, AI provider's or tool's own words of an error, apart from the translated reason: a label
 * ('Відповідь провайдера:') and the words as they are, in a monospace block that wraps anywhere (a long token
 * never widens its box). Nothing when there are none.
 */
export const ErrorDetail = ({
  detail,
  label = 'details',
}: {
  detail: string | null | undefined;
  label?: DetailLabel;
}) => {
  const translate = useTranslate();
  if (!detail) return null;
  return (
    <Box data-detail sx={{ mt: 0.5, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="span">
        {translate(`kadr.common.detail_label.${label}`)}{' '}
      </Typography>
      <Box
        component="code"
        sx={{
          display: 'block',
          fontFamily: 'monospace',
          fontSize: '0.75rem',
          color: 'text.primary',
          bgcolor: 'action.hover',
          borderRadius: 0.5,
          px: 0.75,
          py: 0.25,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {detail}
      </Box>
    </Box>
  );
};

/** An error as an alert: the reason in the reader's language, whoever's own words under it. */
export const ErrorAlert = ({
  message,
  detail,
  label,
  sx,
}: {
  message: string;
  detail: string | null | undefined;
  label: DetailLabel;
  sx?: SxProps<Theme>;
}) => (
  <Alert severity="error" sx={{ overflowWrap: 'anywhere', minWidth: 0, ...sx, '& .MuiAlert-message': { minWidth: 0 } }}>
    <div>{message}</div>
    <ErrorDetail detail={detail} label={label} />
  </Alert>
);
