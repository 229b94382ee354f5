import { forwardRef } from 'react';
import { IconButton, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { useTheme, useTranslate } from 'react-admin';
import { useIsSmall } from '../common/useIsSmall';

/**
 * The light/dark switch (issue 22). The choice goes into react-admin's store (`theme`), so it survives a reload,
 * and a logout keeps it (src/providers/store.ts); until one is made, the theme follows the system's (react-admin's
 * `prefers-color-scheme` default).
 */
const useDarkSwitch = () => {
  const translate = useTranslate();
  const [mode, setMode] = useTheme();
  const dark = mode === 'dark';
  return { dark, label: translate('kadr.layout.dark_theme'), flip: () => setMode(dark ? 'light' : 'dark') };
};

/** In the app bar from a tablet's width up: a toggle button, pressed while the dark theme is on. */
export const ThemeToggle = () => {
  const { dark, label, flip } = useDarkSwitch();
  if (useIsSmall()) return null;
  return (
    <IconButton color="inherit" aria-label={label} aria-pressed={dark} onClick={flip}>
      {dark ? <LightModeIcon /> : <DarkModeIcon />}
    </IconButton>
  );
};

/**
 * On a phone, in the user menu instead (a checkable item): the app bar has no room for one more button there
 * without cutting the page's title ('Набір тегів #1' would lose its id at 390 px).
 */
export const ThemeMenuItem = forwardRef<HTMLLIElement>((props, ref) => {
  const { dark, label, flip } = useDarkSwitch();
  // Not rendered at all on wider windows (a hidden item would still take the menu's arrow-key focus).
  if (!useIsSmall()) return null;
  return (
    <MenuItem ref={ref} {...props} role="menuitemcheckbox" aria-checked={dark} onClick={flip}>
      <ListItemIcon>{dark ? <LightModeIcon fontSize="small" /> : <DarkModeIcon fontSize="small" />}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
});
