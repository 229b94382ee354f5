import { describe, expect, it } from 'vitest';
import { createTheme, getContrastRatio, getOverlayAlpha, type ThemeOptions } from '@mui/material/styles';
import { blend } from '@mui/system/colorManipulator';
import { darkTheme, theme } from '../../src/common/theme';
import { PLATFORMS, PLATFORM_LOOKS } from '../../src/contract/platforms';
import { store } from '../../src/providers/store';

/**
 * Issue 22, "readable in the dark": each platform's chart colour has WCAG's 3:1 for graphics against its theme's
 * paper, on the dark theme also on raised paper (a card, a menu, a tooltip: the dark theme lightens paper by its
 * elevation); both themes come from one function with the panel's settings; the chosen theme survives a logout.
 */
describe('chart colours in both themes', () => {
  const light = createTheme(theme as ThemeOptions);
  const dark = createTheme(darkTheme as ThemeOptions);

  it('light: every platform is at least 3:1 against the page and the paper', () => {
    for (const p of PLATFORMS)
      for (const bg of [light.palette.background.paper, light.palette.background.default])
        expect(getContrastRatio(PLATFORM_LOOKS[p].chartColor, bg), `${p} on ${bg}`).toBeGreaterThanOrEqual(3);
  });

  it('dark: every platform is at least 3:1 against the page and paper raised up to a tooltip', () => {
    const paper = dark.palette.background.paper;
    const surfaces = [
      dark.palette.background.default,
      ...[0, 1, 2, 4, 8, 16].map((e) => blend(paper, '#fff', Number(getOverlayAlpha(e)))),
    ];
    for (const p of PLATFORMS)
      for (const bg of surfaces)
        expect(getContrastRatio(PLATFORM_LOOKS[p].chartColorDark, bg), `${p} on ${bg}`).toBeGreaterThanOrEqual(3);
  });

  it("a request's variants chart wears the theme's primary and warning colours: 3:1 on either paper", () => {
    for (const t of [light, dark])
      for (const c of [t.palette.primary.main, t.palette.warning.main])
        expect(getContrastRatio(c, t.palette.background.paper), c).toBeGreaterThanOrEqual(3);
  });

  it("a filled chip's or button's text has 4.5:1 on its colour in the dark theme (a dead job's red chip too)", () => {
    for (const k of ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const)
      expect(
        getContrastRatio(dark.palette[k].contrastText, dark.palette[k].main),
        `${k}: ${dark.palette[k].contrastText} on ${dark.palette[k].main}`,
      ).toBeGreaterThanOrEqual(4.5);
  });

  it('the two themes differ in their palette only: the same components, fonts and pessimistic defaults', () => {
    expect(light.palette.mode).toBe('light');
    expect(dark.palette.mode).toBe('dark');
    // The panel's own settings (react-admin's light theme adds its filled inputs' look, its dark one does not).
    const own = ['MuiCssBaseline', 'RaEdit', 'RaDeleteButton', 'RaBulkDeleteButton', 'RaUpdateButton'];
    own.push('RaBulkUpdateButton', 'RaLayout', 'RaList', 'MuiAlert', 'MuiTableCell', 'MuiSelect', 'MuiAutocomplete');
    const of = (t: typeof theme, k: string) => JSON.stringify((t.components as Record<string, unknown>)[k]);
    for (const k of own) expect(of(darkTheme, k), k).toBe(of(theme, k));
    expect(darkTheme.components?.RaEdit).toEqual({ defaultProps: { mutationMode: 'pessimistic' } });
    expect(darkTheme.sidebar).toEqual(theme.sidebar);
    expect(dark.typography.fontFamily).toBe(light.typography.fontFamily);
    expect(dark.typography.fontFamily).toContain('Kadr Emoji');
  });
});

describe('the store at logout', () => {
  it('keeps the chosen theme and resets the rest', () => {
    store.setup();
    store.setItem('theme', 'dark');
    store.setItem('sidebar.open', false);
    store.reset();
    expect(store.getItem('theme')).toBe('dark');
    expect(store.getItem('sidebar.open')).toBeUndefined();
    store.teardown();
  });
});
