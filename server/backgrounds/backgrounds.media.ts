import type { Ffmpeg } from '../media/ffmpeg/ffmpeg';

/**
 * What the background service needs from ffmpeg: real-content checks and preview thumbnails. Tests and
 * the service see only this interface; `createMediaTools` adapts the shared wrapper (server/media/ffmpeg).
 */
export interface MediaTools {
  /** The file decodes as a still picture (judged by content, not name). */
  isImage(path: string): Promise<boolean>;
  /** The file holds a real video stream whose first frame decodes (not only a cover picture). */
  isVideo(path: string): Promise<boolean>;
  /** A JPEG preview: the frame at `atSec` for a video, the picture itself for an image (at most 720 px on its longer side). */
  thumbnail(input: string, output: string, opts: { atSec?: number }): Promise<void>;
}

/** The background service's view of the one shared ffmpeg wrapper. */
export function createMediaTools(ff: Ffmpeg): MediaTools {
  return {
    isImage: (path) => ff.isImage(path),
    isVideo: (path) => ff.isVideo(path),
    thumbnail: (input, output, { atSec }) => ff.thumbnail(input, output, atSec ?? 0),
  };
}
