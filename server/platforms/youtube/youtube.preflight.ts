/**
 * The pre-flight gate for YouTube: what ffprobe says of a file, against YouTube's documented limits
 * (support.google.com/youtube/answer/4603579 supported formats, /1722171 recommended encoding, videos.insert
 * "files up to 256 GB", 12 hours at most), so a file YouTube would refuse is refused with a reason before any
 * upload. Any aspect ratio is accepted: a vertical or square video up to 3 minutes becomes a Short, any other a
 * regular video. No size cap of Kadr's own.
 */
import type { MediaFacts } from '../publish-types';
import { PlatformError, type PlatformErrorKey } from '../types';
import { shownMeasure } from '../shown-measure';

/** ffprobe format names (and the file extensions people write) of the containers YouTube accepts. */
const CONTAINERS = new Set([
  'mov',
  'mp4',
  'm4a',
  'm4v',
  '3gp',
  '3g2',
  '3gpp',
  'mj2',
  'quicktime',
  'mpeg',
  'mpg',
  'mpegps',
  'mpegts',
  'mpegvideo',
  'avi',
  'asf',
  'wmv',
  'flv',
  'webm',
  'matroska',
  'mkv',
  'mxf',
]);

/** ffprobe codec names of the video codecs YouTube decodes. */
const VIDEO_CODECS = new Set([
  'h264',
  'hevc',
  'vp8',
  'vp9',
  'av1',
  'mpeg4',
  'mpeg2video',
  'mpeg1video',
  'prores',
  'dnxhd',
  'cfhd',
  'h263',
  'flv1',
  'wmv1',
  'wmv2',
  'wmv3',
  'vc1',
  'mjpeg',
  'msmpeg4v2',
  'msmpeg4v3',
]);

const AUDIO_CODECS = new Set([
  'aac',
  'mp3',
  'mp2',
  'opus',
  'vorbis',
  'ac3',
  'eac3',
  'flac',
  'alac',
  'wmav1',
  'wmav2',
  'amr_nb',
  'amr_wb',
]);

export const YOUTUBE_FILE_LIMITS = {
  /** videos.insert: files up to 256 GB. */
  maxBytes: 256 * 1000 ** 3,
  /** 12 hours (longer than 15 minutes needs a verified channel, which only YouTube knows). */
  maxDurationSec: 12 * 3600,
  /** YouTube plays at most 60 frames per second. */
  maxFps: 60,
  /** 8K (7680×4320) on the longer side. */
  maxSide: 7680,
} as const;

const refuse = (key: PlatformErrorKey, params: Record<string, string | number>) =>
  new PlatformError({ kind: 'bad-request', platform: 'youtube', code: 'preflight', key, params });

const names = (s: string) =>
  s
    .toLowerCase()
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);

/** Null when YouTube takes the file; otherwise a 'bad-request' PlatformError saying which limit it breaks. */
export function checkYouTubeFile(facts: MediaFacts): PlatformError | null {
  const container = names(facts.container ?? '');
  if (!container.some((c) => CONTAINERS.has(c)))
    return refuse('youtube_file_container', { container: facts.container || '?' });
  if (!VIDEO_CODECS.has((facts.videoCodec ?? '').toLowerCase())) {
    return refuse('youtube_file_video_codec', { codec: facts.videoCodec || '?' });
  }
  const audio = facts.audioCodec?.toLowerCase() ?? null;
  if (audio !== null && !AUDIO_CODECS.has(audio) && !audio.startsWith('pcm_')) {
    return refuse('youtube_file_audio_codec', { codec: facts.audioCodec! });
  }
  const L = YOUTUBE_FILE_LIMITS;
  if (!(facts.sizeBytes > 0 && facts.sizeBytes <= L.maxBytes))
    return refuse('youtube_file_size', { max: L.maxBytes / 1000 ** 3 });
  if (!(facts.durationSec > 0 && facts.durationSec <= L.maxDurationSec)) {
    return refuse('youtube_file_duration', {
      seconds: shownMeasure(facts.durationSec, { max: L.maxDurationSec }, 1),
      max: L.maxDurationSec,
    });
  }
  if (!(facts.fps > 0 && facts.fps <= L.maxFps + 0.01)) {
    return refuse('youtube_file_fps', { fps: shownMeasure(facts.fps, { max: L.maxFps }), max: L.maxFps });
  }
  const longer = Math.max(facts.width, facts.height);
  if (!(facts.width > 0 && facts.height > 0 && longer <= L.maxSide)) {
    return refuse('youtube_file_resolution', { width: facts.width, height: facts.height, max: L.maxSide });
  }
  return null;
}
