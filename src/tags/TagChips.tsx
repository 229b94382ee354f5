import { Box, Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useIsSmall } from '../common/useIsSmall';
import { FIT_CELL } from '../common/OneLine';

/**
 * A tag set's tags in the list (issue 18): the first few as chips, the rest as '+N' (all of them on hover), so a
 * set of forty tags keeps its row one line high and the table within the window; on a phone they wrap under the
 * set's name.
 */
export const TagChips = () => {
  const tags = (useRecordContext()?.tags ?? []) as string[];
  const isSmall = useIsSmall();
  const shown = isSmall ? 3 : 5;
  if (!tags.length) return null;
  return (
    // As wide as the column's share of the room (FIT_CELL): chips are cut only when the room runs out.
    <Box sx={FIT_CELL}>
      <Box
        data-testid="tag-chips"
        title={tags.join(', ')}
        sx={{
          display: 'flex',
          flexWrap: isSmall ? 'wrap' : 'nowrap',
          gap: 0.5,
          alignItems: 'center',
          minWidth: 0,
          mt: isSmall ? 0.5 : 0,
        }}
      >
        {tags.slice(0, shown).map((t) => (
          <Chip key={t} size="small" label={t} sx={{ maxWidth: '100%', minWidth: 0 }} />
        ))}
        {tags.length > shown && (
          <Box component="span" sx={{ whiteSpace: 'nowrap', color: 'text.secondary', fontSize: '0.8125rem' }}>
            +{tags.length - shown}
          </Box>
        )}
      </Box>
    </Box>
  );
};
