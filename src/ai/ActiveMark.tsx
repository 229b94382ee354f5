import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A session's isActive flag: a green tick or an empty circle, with its words for screen readers. */
export const ActiveMark = ({ active }: { active?: boolean }) => {
  const translate = useTranslate();
  const label = translate(active ? 'kadr.ai.active' : 'kadr.ai.inactive');
  return (
    <Box component="span" title={label} aria-label={label} role="img" data-active={active ? 'true' : 'false'}>
      {active ? (
        <CheckCircleIcon color="success" fontSize="small" />
      ) : (
        <RadioButtonUncheckedIcon color="disabled" fontSize="small" />
      )}
    </Box>
  );
};
