import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ErrorDetail } from '../common/ErrorDetail';
import { renderFailure } from './renderFailure';

/** A failed render's reason, translated, with the raw text it came from (ffmpeg's words) as a smaller detail line. */
export const RenderFailureText = ({ error, small = false }: { error: string; small?: boolean }) => {
  const translate = useTranslate();
  const { key, detail } = renderFailure(error);
  return (
    <>
      <Typography variant={small ? 'caption' : 'body1'} color="error" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {translate(key, { _: key })}
      </Typography>
      {detail && (
        <Box data-testid="render-failure-detail" sx={{ minWidth: 0 }}>
          <ErrorDetail detail={detail} label="technical" />
        </Box>
      )}
    </>
  );
};
