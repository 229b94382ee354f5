import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RemoveIcon from '@mui/icons-material/Remove';
import { useTranslate } from 'react-admin';

/** The green tick shown when a platform is active (SPEC §2); a grey dash otherwise. */
export const PlatformTick = ({ active }: { active?: boolean }) => {
  const translate = useTranslate();
  return active ? (
    <CheckCircleIcon
      color="success"
      fontSize="small"
      titleAccess={translate('kadr.accounts.active')}
      data-active="true"
    />
  ) : (
    <RemoveIcon color="disabled" fontSize="small" data-active="false" />
  );
};
