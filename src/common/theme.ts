import { createTheme, type PaletteMode, type Theme, type ThemeOptions } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** SPEC §9 select menus: max height 300. Every mutation is pessimistic (see notes/react-admin.md §3). */
export const SELECT_MAX_HEIGHT = 300;
export const SELECT_PAGE_SIZE = 5;

const pessimistic = { defaultProps: { mutationMode: 'pessimistic' } } as const;

/**
 * Emoji (an emoji in an AI video's title is drawn, not an empty box): one face made of the system's colour emoji
 * font (Debian's fonts-noto-color-emoji, which scripts/system-check.sh installs; Apple's or Segoe's elsewhere),
 * limited to the emoji ranges so that letters, digits and spaces keep the text font and its widths (listed
 * after the text fonts as a family of its own, Noto Color Emoji would otherwise draw digits and spaces too).
 */
const EMOJI_FACE = 'Kadr Emoji';
const EMOJI_FONT_FACE = {
  fontFamily: EMOJI_FACE,
  src: "local('Noto Color Emoji'), local('NotoColorEmoji'), local('Apple Color Emoji'), local('Segoe UI Emoji')",
  unicodeRange: 'U+00A9, U+00AE, U+203C-3299, U+1F000-1FAFF, U+FE0F, U+200D',
};

/** MUI's own text fonts, then the emoji face. */
export const FONT_FAMILY = `"Roboto", "Helvetica", "Arial", sans-serif, "${EMOJI_FACE}"`;

/**
 * The dark variant's page and paper (issue 22, "readable in the dark"): Material's dark surfaces, a card a step
 * lighter than the page (react-admin's own dark theme has a lighter page than its cards). The analytics charts'
 * colours are checked against these (src/analytics/chartColors.ts).
 */
export const DARK_BACKGROUND = { default: '#121212', paper: '#1e1e1e' };

/**
 * The panel's theme in one mode: react-admin's light or dark theme with the panel's own settings on top, the same
 * in both (one function, so the two cannot drift apart).
 */
const panelTheme = (mode: PaletteMode): RaThemeOptions => {
  const base = mode === 'dark' ? defaultDarkTheme : defaultLightTheme;
  return {
    ...base,
    // On the dark theme a filled chip or button's text picks black or white for WCAG's 4.5:1 (MUI's default 3
    // put white on its bright red error: 3.7:1, a dead job's chip); the light theme's colours already pass.
    palette: mode === 'dark' ? { ...base.palette, background: DARK_BACKGROUND, contrastThreshold: 4.5 } : base.palette,
    typography: { ...(base.typography as object), fontFamily: FONT_FAMILY },
    sidebar: { width: 240, closedWidth: 55 },
    components: {
      ...(base.components as object),
      MuiCssBaseline: { styleOverrides: { '@font-face': EMOJI_FONT_FACE } },
      RaEdit: pessimistic,
      RaDeleteButton: pessimistic,
      RaBulkDeleteButton: pessimistic,
      RaUpdateButton: pessimistic,
      RaBulkUpdateButton: pessimistic,
      // Nothing on a page may widen it past the window (issue 18): react-admin's layout is `min-width: fit-content`,
      // so one wide table used to push the app bar's bell and user menu off-screen. The layout and its content now
      // keep the window's width, and what is too wide wraps, cuts or scrolls inside its own box.
      RaLayout: { styleOverrides: { root: { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } } } },
      RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
      // A provider's long error (one unbroken token of 100+ characters) wraps inside its box instead of running out.
      MuiAlert: { styleOverrides: { message: { minWidth: 0, overflowWrap: 'anywhere' } } },
      // Compact cells: a list's columns fit a 1280 px laptop beside the open sidebar, and fewer of them a phone.
      MuiTableCell: {
        styleOverrides: {
          root: ({ theme: t }: { theme: Theme }) => ({
            paddingLeft: 8,
            paddingRight: 8,
            [t.breakpoints.down('sm')]: { paddingLeft: 4, paddingRight: 4 },
          }),
        },
      },
      MuiSelect: { defaultProps: { MenuProps: { slotProps: { paper: { sx: { maxHeight: SELECT_MAX_HEIGHT } } } } } },
      MuiAutocomplete: { defaultProps: { slotProps: { listbox: { sx: { maxHeight: SELECT_MAX_HEIGHT } } } } },
    },
  };
};

/** The light theme (react-admin's `theme`) and the dark one (its `darkTheme`). */
export const theme = panelTheme('light');
export const darkTheme = panelTheme('dark');

/**
 * The same themes as MUI theme objects, for what renders outside <Admin> (the first-load login form), so the
 * login looks the same before and after a logout. Each is made when first asked for.
 */
const made: Partial<Record<PaletteMode, Theme>> = {};
export const muiThemeOf = (mode: PaletteMode): Theme =>
  (made[mode] ??= createTheme((mode === 'dark' ? darkTheme : theme) as ThemeOptions));
