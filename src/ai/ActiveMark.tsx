import CheckIcon from '@mui/icons-material/Check';
import RemoveIcon from '@mui/icons-material/Remove';
import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * A session's isActive flag as words, not a control (issue 18): a green 'Активна' chip with a tick, or an outlined
 * grey 'Не активна' one with a dash.
 */
export const ActiveMark = ({ active }: { active?: boolean }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      data-active={active ? 'true' : 'false'}
      color={active ? 'success' : 'default'}
      variant={active ? 'filled' : 'outlined'}
      icon={active ? <CheckIcon /> : <RemoveIcon />}
      label={translate(active ? 'kadr.ai.active' : 'kadr.ai.inactive')}
    />
  );
};
