import { forwardRef } from 'react';
import { IconButton, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import SettingsBrightnessIcon from '@mui/icons-material/SettingsBrightness';
import { useRemoveFromStore, useStore, useTheme, useTranslate } from 'react-admin';
import { useIsSmall } from '../common/useIsSmall';

/**
 * The light/dark switch (issue 22). The choice goes into react-admin's store (`theme`), so it survives a reload,
 * and a logout keeps it (src/providers/store.ts); until one is made, or once "follow the system" is ticked again
 * (SystemThemeMenuItem), the theme follows the system's (react-admin's `prefers-color-scheme` default).
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

/**
 * In the user menu at every width: "theme as the system's", ticked while no theme is chosen. Ticking it forgets
 * the choice, so the panel follows the system's light or dark again (also when the system changes); unticking it
 * keeps the theme shown now as the choice.
 */
export const SystemThemeMenuItem = forwardRef<HTMLLIElement>((props, ref) => {
  const translate = useTranslate();
  const [chosen] = useStore<'light' | 'dark' | undefined>('theme');
  const [mode, setMode] = useTheme();
  const forget = useRemoveFromStore();
  const following = chosen === undefined;
  return (
    <MenuItem
      ref={ref}
      {...props}
      role="menuitemcheckbox"
      aria-checked={following}
      onClick={() => (following ? setMode(mode) : forget('theme'))}
    >
      <ListItemIcon>
        <SettingsBrightnessIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('kadr.layout.system_theme')}</ListItemText>
      {following && <CheckIcon fontSize="small" sx={{ ml: 2 }} />}
    </MenuItem>
  );
});
