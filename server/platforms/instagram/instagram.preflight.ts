/**
 * Instagram's checks before anything is sent: the Reels file limits (Meta's Reels specifications for the Content
 * Publishing API) and the caption limits (2,200 characters, 30 hashtags, 20 @mentions).
 */
import { instagramPost, type MediaFacts, type PublishMeta } from '../publish-types';
import { PlatformError, type PlatformErrorKey } from '../types';
import { shownMeasure } from '../shown-measure';

export const INSTAGRAM_REELS_LIMITS = {
  /** ffprobe's format_name for MP4 and MOV is "mov,mp4,m4a,3gp,3g2,mj2". */
  containers: ['mp4', 'mov'],
  videoCodecs: ['h264', 'hevc'],
  audioCodecs: ['aac'],
  minDurationSec: 3,
  maxDurationSec: 15 * 60,
  maxSizeBytes: 300 * 1024 * 1024,
  minFps: 23,
  maxFps: 60,
  maxWidth: 1920,
  maxHeight: 3600,
  minAspect: 0.01,
  maxAspect: 10,
} as const;

export const INSTAGRAM_CAPTION_LIMITS = { maxLength: 2200, maxHashtags: 30, maxMentions: 20 } as const;

const refuse = (key: PlatformErrorKey, params: Record<string, string | number>) =>
  new PlatformError({ kind: 'bad-request', platform: 'instagram', code: key, key, params });

/** Refuses a file Instagram would refuse, with the reason; null when it fits. No size cap of Kadr's own. */
export function checkInstagramFile(facts: MediaFacts): PlatformError | null {
  const L = INSTAGRAM_REELS_LIMITS;
  const names = facts.container.toLowerCase().split(/[\s,]+/);
  if (!names.some((n) => (L.containers as readonly string[]).includes(n)))
    return refuse('instagram_file_container', { container: facts.container || '?' });
  if (!(L.videoCodecs as readonly string[]).includes(facts.videoCodec.toLowerCase())) {
    return refuse('instagram_file_video_codec', { codec: facts.videoCodec || '?' });
  }
  if (facts.audioCodec !== null && !(L.audioCodecs as readonly string[]).includes(facts.audioCodec.toLowerCase())) {
    return refuse('instagram_file_audio_codec', { codec: facts.audioCodec });
  }
  if (!(facts.durationSec >= L.minDurationSec && facts.durationSec <= L.maxDurationSec)) {
    return refuse('instagram_file_duration', {
      min: L.minDurationSec,
      max: L.maxDurationSec,
      duration: shownMeasure(facts.durationSec, { min: L.minDurationSec, max: L.maxDurationSec }),
    });
  }
  if (facts.sizeBytes > L.maxSizeBytes) {
    return refuse('instagram_file_size', {
      max: L.maxSizeBytes / 1024 / 1024,
      size: shownMeasure(facts.sizeBytes / 1024 / 1024, { max: L.maxSizeBytes / 1024 / 1024 }, 1),
    });
  }
  if (!(facts.fps >= L.minFps && facts.fps <= L.maxFps))
    return refuse('instagram_file_fps', {
      min: L.minFps,
      max: L.maxFps,
      fps: shownMeasure(facts.fps, { min: L.minFps, max: L.maxFps }),
    });
  if (facts.width > L.maxWidth) return refuse('instagram_file_width', { max: L.maxWidth, width: facts.width });
  if (facts.height > L.maxHeight) return refuse('instagram_file_height', { max: L.maxHeight, height: facts.height });
  const aspect = facts.height > 0 ? facts.width / facts.height : 0;
  if (!(aspect >= L.minAspect && aspect <= L.maxAspect))
    return refuse('instagram_file_aspect', { width: facts.width, height: facts.height });
  return null;
}

const HASHTAG = /(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]+)/gu;
const MENTION = /(?:^|[^\p{L}\p{N}_.])@([\p{L}\p{N}_.]+)/gu;

/** A tag as a hashtag: without a leading #, spaces and punctuation other than _ dropped (empty when nothing is left). */
export function toHashtag(tag: string): string {
  const body = tag
    .trim()
    .replace(/^#+/, '')
    .replace(/[^\p{L}\p{N}_]+/gu, '');
  return body ? `#${body}` : '';
}

/**
 * The caption Instagram gets: title, description and the tags as hashtags (those not already in the text), one
 * paragraph each. Throws PlatformError 'bad-request' naming the limit it breaks.
 */
export function buildInstagramCaption(meta: PublishMeta): string {
  const own = instagramPost(meta).caption;
  if (own?.trim()) {
    const refused = checkInstagramCaption(own);
    if (refused) throw refused;
    return own;
  }
  const text = [meta.title.trim(), meta.description.trim()].filter(Boolean).join('\n\n');
  const present = new Set([...text.matchAll(HASHTAG)].map((m) => m[1]!.toLowerCase()));
  const tags: string[] = [];
  for (const t of meta.tags) {
    const h = toHashtag(t);
    if (h && !present.has(h.slice(1).toLowerCase())) {
      present.add(h.slice(1).toLowerCase());
      tags.push(h);
    }
  }
  const caption = [text, tags.join(' ')].filter(Boolean).join('\n\n');
  const error = checkInstagramCaption(caption);
  if (error) throw error;
  return caption;
}

/** The caption limits; null when it fits. Length counts characters (code points), as Instagram does. */
export function checkInstagramCaption(caption: string): PlatformError | null {
  const L = INSTAGRAM_CAPTION_LIMITS;
  const length = [...caption].length;
  if (length > L.maxLength) return refuse('instagram_caption_too_long', { max: L.maxLength, length });
  const hashtags = [...caption.matchAll(HASHTAG)].length;
  if (hashtags > L.maxHashtags) return refuse('instagram_caption_hashtags', { max: L.maxHashtags, count: hashtags });
  const mentions = [...caption.matchAll(MENTION)].length;
  if (mentions > L.maxMentions) return refuse('instagram_caption_mentions', { max: L.maxMentions, count: mentions });
  return null;
}
