import { useTranslate } from 'react-admin';
import { Alert, Typography, type SxProps, type Theme } from '@mui/material';
import { useStoredError } from './useStoredMessage';

/**
 * The platform's or AI provider's own words of an error, on a line of their own under the translated reason
 * ('Деталі: …'), wrapped rather than cut. Nothing when there are none.
 */
export const ErrorDetail = ({
  detail,
  label = 'kadr.common.error_detail',
}: {
  detail: string | null | undefined;
  /** The line's i18n key with a %{detail} placeholder. */
  label?: string;
}) => {
  const translate = useTranslate();
  if (!detail) return null;
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      component="div"
      data-detail
      sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
    >
      {translate(label, { detail })}
    </Typography>
  );
};

/** A stored error as an alert: the reason in the operator's language, the provider's own words under it. */
export const StoredErrorAlert = ({ stored, sx }: { stored: string; sx?: SxProps<Theme> }) => {
  const { message, detail } = useStoredError()(stored);
  return (
    <Alert severity="error" sx={{ overflowWrap: 'anywhere', minWidth: 0, ...sx }}>
      <div>{message}</div>
      <ErrorDetail detail={detail} />
    </Alert>
  );
};
