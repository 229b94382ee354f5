import { Box } from '@mui/material';

type Width = number | string | Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl', number | string>>;

/**
 * Long text in a list cell: one line cut with an ellipsis, the whole text on hover (title). The default width
 * is narrower on a phone, so a long name never makes the table wider than the window.
 */
export const OneLine = ({
  text,
  maxWidth = { xs: 150, sm: 240, lg: 300 },
}: {
  text?: string | null;
  maxWidth?: Width;
}) =>
  text ? (
    <Box
      component="span"
      title={text}
      sx={{ display: 'block', maxWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {text}
    </Box>
  ) : null;
