import { useTheme } from '@mui/material/styles';
import { PLATFORM_LOOKS, type PlatformKey } from '../contract/platforms';

/**
 * A platform's colour in the charts for the theme in use (issue 22, "readable in the dark"): its brand's hue, a
 * darker shade on the light paper and a lighter one on the dark paper, each at least 3:1 against it.
 */
export function useChartColor(): (platform: PlatformKey) => string {
  const dark = useTheme().palette.mode === 'dark';
  return (platform) => (dark ? PLATFORM_LOOKS[platform].chartColorDark : PLATFORM_LOOKS[platform].chartColor);
}
