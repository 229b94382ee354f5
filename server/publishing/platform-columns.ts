/**
 * The per-platform columns of `videos` (a link and an error each, SPEC §3 Video item), in one place: every reader
 * and writer of them maps a platform through here.
 */
import type { PlatformKey } from '../../src/contract/platforms';

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
