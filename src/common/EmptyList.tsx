import { Link } from 'react-router-dom';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { NothingFound } from './NothingFound';

/**
 * A list with nothing in it (issue 18): what the list holds and how to start, with its create button where it has
 * one. A search or filter that matches nothing keeps 'Нічого не знайдено' (SPEC §2).
 */
export const EmptyList = ({
  list,
  create,
  action,
}: {
  list: string;
  create?: { to: string; label: string };
  /** Where to go to get some, for a list whose records are made elsewhere (AI sessions start on a profile). */
  action?: { to: string; label: string };
}) => {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  if (Object.values(filterValues ?? {}).some((v) => v !== undefined && v !== '')) return <NothingFound />;
  return (
    <Box
      data-testid="empty-list"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 1 }}
    >
      <Typography variant="subtitle1">{translate(`kadr.lists.empty.${list}.title`)}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(`kadr.lists.empty.${list}.hint`)}
      </Typography>
      {create && (
        <Button component={Link} to={create.to} variant="contained" size="small" startIcon={<AddIcon />}>
          {translate(create.label)}
        </Button>
      )}
      {action && (
        <Button component={Link} to={action.to} variant="outlined" size="small">
          {translate(action.label)}
        </Button>
      )}
    </Box>
  );
};
