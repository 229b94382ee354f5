import { PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import type { PlatformId } from '../platforms/types';
import { PM } from '../../src/contract/publications';
import { encodeMessage } from '../../src/contract/stored-message';
import { AppError } from '../http/errors';

/** The partial unique index of migration 037 over live posts: (file_key, account_id, platform, repeat_of). */
export const DUPLICATE_INDEX = 'video_publishes_no_repeat';
/** 008's one row per video and platform: the same placement of a file twice is a duplicate too. */
const VIDEO_PLATFORM_INDEX = 'video_publishes_video_platform';

/** What a duplicate is about: the video, the profile and the platform. */
export type DuplicateOf = { video: number; account: number | null; platform: PlatformId };

/**
 * The same rendered file to the same profile and platform twice (issue 21 item 5): a 409 naming the video, the
 * profile and the platform, on `field` (the form's switch, the import's row) so the panel shows it there.
 */
export function duplicatePost(d: DuplicateOf, field = 'video'): AppError {
  const args = {
    video: d.video,
    account: d.account ?? 0,
    platform: PLATFORM_TITLES[d.platform as PlatformKey] ?? d.platform,
  };
  return new AppError(409, PM.duplicatePost, { [field]: encodeMessage(PM.duplicatePost, args) }, args);
}

/**
 * Whether `e` is the database refusing a row by the duplicate index: SQLite names the index's columns
 * ("UNIQUE constraint failed: video_publishes.file_key, …"), PostgreSQL the constraint (23505).
 */
export function isDuplicateViolation(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; message?: string } | null;
  if (!err) return false;
  if (err.code === '23505') return err.constraint === DUPLICATE_INDEX || err.constraint === VIDEO_PLATFORM_INDEX;
  return (
    typeof err.code === 'string' &&
    err.code.startsWith('SQLITE_CONSTRAINT') &&
    /video_publishes\.(file_key|video_id, video_publishes\.platform)/.test(err.message ?? '')
  );
}
