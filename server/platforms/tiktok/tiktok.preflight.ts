/**
 * The pre-flight gate for TikTok: refuses a file TikTok would refuse (fail_reason file_format_check_failed,
 * duration_check_failed, frame_rate_check_failed, picture_size_check_failed) before a byte is sent.
 *
 * Limits of the Media Transfer Guide ("Video restrictions"): MP4 (recommended), WebM or MOV; H.264 (recommended),
 * H.265, VP8 or VP9; 23–60 fps; 360–4096 px on each side; at most 4 GB; at most 10 minutes, and at most the
 * creator's own `max_video_post_duration_sec` (creator_info) when it is known. TikTok documents no aspect ratio
 * and no audio codec limit for the API, so neither is refused here (vertical 9:16 is what the app shows best).
 */
import type { MediaFacts } from '../publish-types';
import { PlatformError, type PlatformErrorKey } from '../types';
import { shownMeasure } from '../shown-measure';
import { TIKTOK_MAX_VIDEO_BYTES, formatBytes } from './tiktok.limits';
import type { MessageParams } from '../../../src/contract/stored-message';

/** ffprobe's format_name lists every name of a demuxer ("mov,mp4,m4a,3gp,3g2,mj2"; "matroska,webm"). */
const CONTAINERS = ['mp4', 'mov', 'webm', 'quicktime'];
const VIDEO_CODECS: Record<string, string> = {
  h264: 'H.264',
  avc1: 'H.264',
  hevc: 'H.265',
  h265: 'H.265',
  vp8: 'VP8',
  vp9: 'VP9',
};

export const TIKTOK_FILE_LIMITS = {
  minFps: 23,
  maxFps: 60,
  minSide: 360,
  maxSide: 4096,
  /** Every creator may post 3 minutes; some 5 or 10. creator_info says which. */
  maxDurationSec: 600,
  maxBytes: TIKTOK_MAX_VIDEO_BYTES,
} as const;

const refuse = (key: PlatformErrorKey, code: string, params: MessageParams) =>
  new PlatformError({ kind: 'bad-request', platform: 'tiktok', code, key, params });

export interface TikTokFileCheckOptions {
  /** creator_info's max_video_post_duration_sec for the account that will post. */
  maxDurationSec?: number;
}

/** Null when TikTok should accept the file; otherwise a 'bad-request' PlatformError naming what is wrong. */
export function checkTikTokFile(facts: MediaFacts, opts: TikTokFileCheckOptions = {}): PlatformError | null {
  const L = TIKTOK_FILE_LIMITS;
  if (!(facts.sizeBytes > 0)) return refuse('tiktok_file_empty', 'empty_file', {});
  if (facts.sizeBytes > L.maxBytes) {
    return refuse('tiktok_file_size', 'file_too_large', {
      size: formatBytes(facts.sizeBytes),
      max: formatBytes(L.maxBytes),
    });
  }
  const names = facts.container
    .toLowerCase()
    .split(/[,\s]+/)
    .filter(Boolean);
  if (!names.some((n) => CONTAINERS.includes(n))) {
    return refuse('tiktok_file_container', 'file_format_check_failed', { container: facts.container || '?' });
  }
  if (!VIDEO_CODECS[facts.videoCodec.toLowerCase()]) {
    return refuse('tiktok_file_codec', 'file_format_check_failed', { codec: facts.videoCodec || '?' });
  }
  const max = Math.min(
    L.maxDurationSec,
    opts.maxDurationSec && opts.maxDurationSec > 0 ? opts.maxDurationSec : L.maxDurationSec,
  );
  if (!(facts.durationSec > 0) || facts.durationSec > max) {
    return refuse('tiktok_file_duration', 'duration_check_failed', {
      duration: shownMeasure(facts.durationSec, { max }),
      max,
    });
  }
  if (!(facts.fps >= L.minFps && facts.fps <= L.maxFps)) {
    return refuse('tiktok_file_fps', 'frame_rate_check_failed', {
      fps: shownMeasure(facts.fps, { min: L.minFps, max: L.maxFps }),
    });
  }
  const sides = [facts.width, facts.height];
  if (sides.some((s) => !(s >= L.minSide && s <= L.maxSide))) {
    return refuse('tiktok_file_resolution', 'picture_size_check_failed', { width: facts.width, height: facts.height });
  }
  return null;
}
