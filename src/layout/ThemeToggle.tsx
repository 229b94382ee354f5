import { IconButton } from '@mui/material';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { useTheme, useTranslate } from 'react-admin';

/**
 * The app bar's light/dark switch (issue 22): a toggle button, pressed while the dark theme is on. The choice goes
 * into react-admin's store (`theme`), so it survives a reload, and a logout keeps it (src/providers/store.ts);
 * until one is made, the theme follows the system's (react-admin's `prefers-color-scheme` default).
 */
export const ThemeToggle = () => {
  const translate = useTranslate();
  const [mode, setMode] = useTheme();
  const dark = mode === 'dark';
  return (
    <IconButton
      color="inherit"
      aria-label={translate('kadr.layout.dark_theme')}
      aria-pressed={dark}
      data-theme-mode={mode}
      onClick={() => setMode(dark ? 'light' : 'dark')}
    >
      {dark ? <LightModeIcon /> : <DarkModeIcon />}
    </IconButton>
  );
};
