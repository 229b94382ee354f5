import { Typography } from '@mui/material';
import { useFieldValue } from 'ra-core';
import { useFormatUtc } from './useFormatUtc';

export const UtcDateField = ({ source }: { source: string; label?: string }) => {
  const formatDate = useFormatUtc();
  const value = useFieldValue({ source });
  return (
    <Typography component="span" variant="body2">
      {formatDate(value)}
    </Typography>
  );
};
