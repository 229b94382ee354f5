import { Box } from '@mui/material';

/** Long text in a list cell: one line cut with an ellipsis, the whole text on hover (title). */
export const OneLine = ({ text, maxWidth = 360 }: { text?: string | null; maxWidth?: number | string }) =>
  text ? (
    <Box
      component="span"
      title={text}
      sx={{ display: 'block', maxWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {text}
    </Box>
  ) : null;
