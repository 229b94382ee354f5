import { createTheme, type ThemeOptions } from '@mui/material/styles';
import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** SPEC §9 select menus: max height 300. Every mutation is pessimistic (see notes/react-admin.md §3). */
export const SELECT_MAX_HEIGHT = 300;
export const SELECT_PAGE_SIZE = 5;

const pessimistic = { defaultProps: { mutationMode: 'pessimistic' } } as const;

export const theme: RaThemeOptions = {
  ...defaultTheme,
  sidebar: { width: 240, closedWidth: 55 },
  components: {
    ...(defaultTheme.components as object),
    RaEdit: pessimistic,
    RaDeleteButton: pessimistic,
    RaBulkDeleteButton: pessimistic,
    RaUpdateButton: pessimistic,
    RaBulkUpdateButton: pessimistic,
    MuiSelect: { defaultProps: { MenuProps: { slotProps: { paper: { sx: { maxHeight: SELECT_MAX_HEIGHT } } } } } },
    MuiAutocomplete: { defaultProps: { slotProps: { listbox: { sx: { maxHeight: SELECT_MAX_HEIGHT } } } } },
  } as any,
};

/**
 * The same theme as a MUI theme object, for what renders outside <Admin> (the first-load login form), so the
 * login looks the same before and after a logout.
 */
export const muiTheme = createTheme(theme as ThemeOptions);
