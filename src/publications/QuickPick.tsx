import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SELECT_MENU_MAX_HEIGHT } from '../groups/AccountsSelectInput';

/**
 * A quick-pick: choosing an entry acts at once (fills profiles from a group, adds a tag set's tags) and the
 * select goes back to empty, ready for the next pick. Empty list: 'Не знайдено' (SPEC §9).
 */
export const QuickPick = <T extends { id: number; name: string }>({
  label,
  items,
  onPick,
  loading,
}: {
  label: string;
  items: T[] | undefined;
  onPick: (item: T) => void;
  loading?: boolean;
}) => {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      fullWidth
      label={translate(label)}
      value=""
      onChange={(e) => {
        const item = items?.find((i) => String(i.id) === e.target.value);
        if (item) onPick(item);
      }}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { style: { maxHeight: SELECT_MENU_MAX_HEIGHT } } } } } }}
    >
      {loading && (
        <MenuItem disabled value="-">
          {translate('kadr.common.loading')}
        </MenuItem>
      )}
      {!loading && !items?.length && (
        <MenuItem disabled value="-">
          {translate('kadr.common.not_found_option')}
        </MenuItem>
      )}
      {items?.map((i) => (
        <MenuItem key={i.id} value={String(i.id)}>
          {i.name}
        </MenuItem>
      ))}
    </TextField>
  );
};
