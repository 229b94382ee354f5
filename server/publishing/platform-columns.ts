/**
 * The per-platform columns of `videos` (a link and an error each, SPEC §3 Video item), in one place: every reader
 * and writer of them maps a platform through here. They mirror the spec's platforms' `video_publishes` rows; any
 * other platform of the registry keeps its link and error on its row alone (`columnOf` gives no column).
 */
import type { SpecPlatform } from '../../src/contract/platforms';
import type { PlatformId } from '../platforms/types';

/** The `videos` column that holds a platform's link. */
export const URL_COLUMN = {
  youtube: 'urlYouTube',
  tiktok: 'urlTikTok',
  instagram: 'urlInstagram',
} as const satisfies Record<SpecPlatform, string>;

/** The `videos` column that holds a platform's error. */
export const ERROR_COLUMN = {
  youtube: 'error',
  tiktok: 'errorTikTok',
  instagram: 'errorInstagram',
} as const satisfies Record<SpecPlatform, string>;

/** The `videos` column of a platform's link or error, or undefined for a platform the spec does not name. */
export const columnOf = <C extends Record<SpecPlatform, string>>(
  columns: C,
  platform: PlatformId,
): C[SpecPlatform] | undefined => (Object.hasOwn(columns, platform) ? columns[platform as SpecPlatform] : undefined);
