import type { PlatformKey } from '../contract/platforms';

/** Each platform's line in every chart: its brand's hue, light enough to read on the dark theme too. */
export const PLATFORM_COLORS: Record<PlatformKey, string> = {
  youtube: '#e53935',
  tiktok: '#00acc1',
  instagram: '#ab47bc',
};
