/** The platforms Kadr publishes to: one list for the panel, the API and the drivers. */
export const PLATFORMS = ['youtube', 'tiktok', 'instagram'] as const;
export type PlatformKey = (typeof PLATFORMS)[number];

/** The platforms' own names (brand names, the same in every language). */
export const PLATFORM_TITLES: Record<PlatformKey, string> = {
  youtube: 'YouTube',
  tiktok: 'TikTok',
  instagram: 'Instagram',
};

export const isPlatformKey = (raw: unknown): raw is PlatformKey => PLATFORMS.includes(raw as PlatformKey);
