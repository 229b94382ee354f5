import { Box, Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useIsSmall } from '../common/useIsSmall';

/**
 * A tag set's tags in the list (issue 18): the first few as chips, the rest as '+N' (all of them on hover), so a
 * set of forty tags keeps its row one line high and the table within the window.
 */
export const TagChips = () => {
  const tags = (useRecordContext()?.tags ?? []) as string[];
  const shown = useIsSmall() ? 2 : 5;
  if (!tags.length) return null;
  return (
    <Box
      data-testid="tag-chips"
      title={tags.join(', ')}
      sx={{
        display: 'flex',
        flexWrap: 'nowrap',
        gap: 0.5,
        alignItems: 'center',
        minWidth: 0,
        maxWidth: { xs: 170, sm: 420 },
      }}
    >
      {tags.slice(0, shown).map((t) => (
        <Chip key={t} size="small" label={t} sx={{ maxWidth: 120, minWidth: 0 }} />
      ))}
      {tags.length > shown && (
        <Box component="span" sx={{ whiteSpace: 'nowrap', color: 'text.secondary', fontSize: '0.8125rem' }}>
          +{tags.length - shown}
        </Box>
      )}
    </Box>
  );
};
