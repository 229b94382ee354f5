export type MediaErrorCode =
  /** ffprobe could not read the file as media (text file, truncated file, unknown or refused format). */
  | 'not_media'
  /** The file is media but lacks what the call needs (e.g. no video stream). */
  | 'no_video'
  /** ffmpeg/ffprobe exited with an error. */
  | 'failed'
  /** The caller's AbortSignal fired; the process was killed. */
  | 'aborted'
  /** The binary could not be started (wrong path, not installed). */
  | 'spawn_failed';

export class MediaError extends Error {
  override name = 'MediaError';
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    readonly details: { file?: string; exitCode?: number | null; stderrTail?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}
