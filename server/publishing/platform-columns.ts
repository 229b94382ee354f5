/**
 * The per-platform columns of `publications` (a toggle each) and `videos` (a link and an error each, SPEC §3 Video
 * item), in one place: every reader and writer of them maps a platform through here.
 */
import { PLATFORMS, type PlatformKey } from '../../src/contract/platforms';

/** The publication's toggle of a platform. */
export const TOGGLE_COLUMN = {
  youtube: 'inYoutube',
  tiktok: 'inTiktok',
  instagram: 'inInstagram',
} as const satisfies Record<PlatformKey, string>;

/** The `videos` column that holds a platform's link. */
export const URL_COLUMN = {
  youtube: 'urlYouTube',
  tiktok: 'urlTikTok',
  instagram: 'urlInstagram',
} as const satisfies Record<PlatformKey, string>;

/** The `videos` column that holds a platform's error. */
export const ERROR_COLUMN = {
  youtube: 'error',
  tiktok: 'errorTikTok',
  instagram: 'errorInstagram',
} as const satisfies Record<PlatformKey, string>;

type Toggles = { [K in PlatformKey as (typeof TOGGLE_COLUMN)[K]]: number | boolean | undefined };

/** The publication's platform toggles as a list. */
export const platformsOf = (p: Toggles): PlatformKey[] => PLATFORMS.filter((k) => !!p[TOGGLE_COLUMN[k]]);

/** The toggle columns for the platforms that are on (1) and off (0). */
export const togglesOf = (on: (k: PlatformKey) => boolean) =>
  Object.fromEntries(PLATFORMS.map((k) => [TOGGLE_COLUMN[k], +on(k)])) as { [C in keyof Toggles]: number };
