/**
 * The panel's platform list: one entry per platform Kadr publishes to, for the panel, the API and the drivers.
 * Adding a platform is one entry here (its id, its name, its colours), its folder under server/platforms and
 * its line in the registry (server/platforms/registry.ts); see docs/architecture.md, "Adding a platform".
 */
export const PLATFORMS = ['youtube', 'tiktok', 'instagram'] as const;
export type PlatformKey = (typeof PLATFORMS)[number];

/** How the panel shows a platform. */
export interface PlatformLook {
  /** The platform's own name (a brand name, the same in every language). */
  title: string;
  /**
   * Its line in every chart on the light theme, and on the dark one: its brand's hue, each with a contrast of at
   * least 3:1 against its theme's paper (WCAG's for graphics; tests/unit/chart-colors.test.ts).
   */
  chartColor: string;
  chartColorDark: string;
  /** The background of a profile's avatar on it (and of its initial when it has no avatar). */
  avatarColor: string;
}

/** Each platform of the list as the panel shows it. */
export const PLATFORM_LOOKS: Record<PlatformKey, PlatformLook> = {
  youtube: { title: 'YouTube', chartColor: '#e53935', chartColorDark: '#ff7961', avatarColor: '#c4302b' },
  tiktok: { title: 'TikTok', chartColor: '#0097a7', chartColorDark: '#4dd0e1', avatarColor: '#111' },
  instagram: { title: 'Instagram', chartColor: '#ab47bc', chartColorDark: '#ce93d8', avatarColor: '#c13584' },
};

/** The platforms' own names (brand names, the same in every language). */
export const PLATFORM_TITLES = Object.fromEntries(PLATFORMS.map((p) => [p, PLATFORM_LOOKS[p].title])) as Record<
  PlatformKey,
  string
>;

export const isPlatformKey = (raw: unknown): raw is PlatformKey => PLATFORMS.includes(raw as PlatformKey);

/** Platform ids in the list's order, any other after them in the order given. */
export const inListOrder = <P extends string>(ids: Iterable<P>): P[] => {
  const all = [...new Set(ids)];
  return [...PLATFORMS.filter((p) => all.includes(p as P)), ...all.filter((p) => !isPlatformKey(p))] as P[];
};

/**
 * The platforms the spec's API shape names with fields of their own (inYouTube, urlTikTok, isActiveInstagram,
 * errorTikTok, …): exactly these three, whatever the list above holds. Every mapping onto such a field is typed
 * over them; any other platform travels in the API's generic per-platform shapes (rows and maps by platform id).
 */
export const SPEC_PLATFORMS = ['youtube', 'tiktok', 'instagram'] as const satisfies readonly PlatformKey[];
export type SpecPlatform = (typeof SPEC_PLATFORMS)[number];

export const isSpecPlatform = (raw: unknown): raw is SpecPlatform => SPEC_PLATFORMS.includes(raw as SpecPlatform);
