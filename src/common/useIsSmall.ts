import { useMediaQuery, type Theme } from '@mui/material';

/**
 * A phone-wide window (the theme's `sm` breakpoint, under 600 px): lists show fewer columns and stack what
 * they keep, so nothing makes the page wider than the window (issue 18).
 */
export const useIsSmall = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
