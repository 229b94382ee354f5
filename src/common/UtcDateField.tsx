import { Typography } from '@mui/material';
import { useFieldValue } from 'ra-core';
import { formatUtc } from './formatUtc';

export const UtcDateField = ({ source }: { source: string; label?: string }) => {
  const value = useFieldValue({ source });
  return (
    <Typography component="span" variant="body2">
      {formatUtc(value)}
    </Typography>
  );
};
