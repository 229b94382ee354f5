import { Box } from '@mui/material';

type Width = number | string | Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl', number | string>>;

/**
 * A one-track grid that asks nothing of its column's minimum (so a long text never widens a table past its card)
 * and all of its text as its preferred width: a table's columns share the room there is by what their texts want,
 * and a text is cut only when the room runs out (issue 18).
 */
export const FIT_CELL = { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', minWidth: 0 } as const;

/** Long text in a list cell: one line, as wide as its column lets it be, cut with an ellipsis, the whole text on hover (title). */
export const OneLine = ({ text, maxWidth }: { text?: string | null; maxWidth?: Width }) =>
  text ? (
    <Box component="span" title={text} sx={{ ...FIT_CELL, maxWidth }}>
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {text}
      </Box>
    </Box>
  ) : null;
