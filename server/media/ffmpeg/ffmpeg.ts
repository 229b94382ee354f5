import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { MediaError } from './media-error';
import { FORMAT_WHITELIST, IMAGE_CODECS, IMAGE_FORMATS, parseProbe, type ProbeResult, type RawProbe } from './probe';
import { spawnChecked } from './spawn';

export { MediaError, type MediaErrorCode } from './media-error';
export { stderrTail } from './spawn';
export type { ProbeResult } from './probe';

/**
 * The ffmpeg/ffprobe binaries behind a small promise API. Every call spawns the binary with an argument
 * array (never a shell), reads machine-readable output, and turns failures into a `MediaError` whose message
 * holds only the last lines of stderr. The binaries' paths come from the caller (FFMPEG_PATH/FFPROBE_PATH
 * are read by server/config.ts, not here).
 */

export type RunOptions = {
  /** Expected output duration; progress is out_time / durationSec. Without it only 1 is reported at the end. */
  durationSec?: number;
  /** Called with a fraction in 0..1 that never decreases; 1 is reported once, on success. */
  onProgress?: (fraction: number) => void;
  /** Aborting kills ffmpeg (SIGKILL) and rejects with MediaError('aborted') once the process has exited. */
  signal?: AbortSignal;
};

export class Ffmpeg {
  readonly ffmpegPath: string;
  readonly ffprobePath: string;

  constructor(paths: { ffmpegPath: string; ffprobePath: string }) {
    this.ffmpegPath = paths.ffmpegPath;
    this.ffprobePath = paths.ffprobePath;
  }

  /** Reads a media file's streams and container. Rejects with MediaError('not_media') when it is not media. */
  async probe(file: string, opts: { signal?: AbortSignal } = {}): Promise<ProbeResult> {
    let out: string;
    try {
      out = await this.capture(
        this.ffprobePath,
        [
          '-v',
          'error',
          '-protocol_whitelist',
          'file',
          '-format_whitelist',
          FORMAT_WHITELIST,
          '-show_streams',
          '-show_format',
          '-of',
          'json',
          `file:${file}`,
        ],
        opts.signal,
      );
    } catch (err) {
      if (err instanceof MediaError && err.code === 'failed') {
        throw new MediaError(
          'not_media',
          `not a readable media file: ${basename(file)} (${err.details.stderrTail || 'ffprobe failed'})`,
          { ...err.details, file, cause: err },
        );
      }
      throw err;
    }
    let json: RawProbe;
    try {
      json = JSON.parse(out);
    } catch (cause) {
      throw new MediaError('not_media', `ffprobe gave unreadable output for ${basename(file)}`, { file, cause });
    }
    return parseProbe(json, file);
  }

  /**
   * Whether `file` is a still picture ffmpeg can decode (JPEG, PNG, WebP, BMP, TIFF, GIF), judged by its
   * content, not its name: the demuxer must be an image one, and one frame must decode.
   */
  async isImage(file: string): Promise<boolean> {
    const p = await this.probe(file).catch(() => null);
    if (!p || !p.videoCodec || !IMAGE_CODECS.has(p.videoCodec) || p.width <= 0 || p.height <= 0) return false;
    if (!p.formatName.split(',').some((f) => IMAGE_FORMATS.includes(f))) return false;
    return this.decodesFirstFrame(file);
  }

  /**
   * Whether `file` is a video (a moving picture in a video container), judged by content: a video stream
   * that is not cover art, a non-image container, a duration, and a first frame that decodes. A text file
   * named .mp4 and a JPEG named .mp4 are both refused.
   */
  async isVideo(file: string): Promise<boolean> {
    const p = await this.probe(file).catch(() => null);
    if (!p || !p.videoCodec || p.width <= 0 || p.height <= 0 || p.durationSec <= 0) return false;
    const fmts = p.formatName.split(',');
    if (fmts.some((f) => IMAGE_FORMATS.includes(f) && f !== 'gif')) return false;
    if (fmts.includes('gif') && p.frames === 1) return false;
    return this.decodesFirstFrame(file);
  }

  /**
   * A JPEG preview frame of a video (or a picture) at `atSec` (0.1 s by default: the first frame is often
   * black), at most 720 px on its longer side. Falls back to the first frame when the clip is shorter than
   * `atSec`. Written beside `outJpeg` first and renamed, so a reader never sees half a file.
   */
  async thumbnail(input: string, outJpeg: string, atSec = 0.1): Promise<void> {
    const tmp = join(dirname(outJpeg), `.${basename(outJpeg)}.${randomBytes(4).toString('hex')}.tmp.jpg`);
    const fit = "scale=w='if(gte(iw,ih),min(720,iw),-2)':h='if(gte(iw,ih),-2,min(720,ih))'";
    const grab = (at: number) =>
      this.run([
        '-y',
        '-loglevel',
        'error',
        ...(at > 0 ? ['-ss', at.toFixed(3)] : []),
        '-i',
        `file:${input}`,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-vf',
        `${fit},format=yuvj420p`,
        '-q:v',
        '3',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        tmp,
      ]);
    try {
      await grab(atSec);
      // A seek past the end "succeeds" with no frame written.
      const size = await stat(tmp).then(
        (s) => s.size,
        () => 0,
      );
      if (size === 0 && atSec > 0) await grab(0);
      if (
        (await stat(tmp).then(
          (s) => s.size,
          () => 0,
        )) === 0
      )
        throw new MediaError('no_video', `no frame to grab in ${basename(input)}`, { file: input });
      await rename(tmp, outJpeg);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * Runs ffmpeg with `args` (the caller's arguments; `-nostdin -hide_banner -nostats -progress pipe:1`
   * are put in front). Resolves when ffmpeg exits 0; rejects with MediaError('failed') carrying the last
   * lines of stderr, or MediaError('aborted') after the signal fired and the process is gone.
   */
  run(args: string[], opts: RunOptions = {}): Promise<void> {
    const { durationSec, onProgress, signal } = opts;
    const full = ['-nostdin', '-hide_banner', '-nostats', '-progress', 'pipe:1', ...args];
    if (!args.includes('-loglevel') && !args.includes('-v')) full.unshift('-loglevel', 'error');
    let last = 0;
    const report = (f: number) => {
      if (!onProgress) return;
      const clamped = Math.min(1, Math.max(0, f));
      // 1 is reserved for success; progress lines can reach the end before the trailer is written.
      const v = Math.min(clamped, 0.999);
      if (v > last) {
        last = v;
        onProgress(v);
      }
    };
    let buf = '';
    return spawnChecked(this.ffmpegPath, full, signal, (chunk) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!durationSec || durationSec <= 0) continue;
        const m = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
        if (m) report(Number(m[1]) / 1e6 / durationSec);
      }
    }).then(() => {
      onProgress?.(1);
    });
  }

  /** Decodes the first video frame (and nothing else): catches files whose headers parse but whose data does not. */
  private async decodesFirstFrame(file: string): Promise<boolean> {
    try {
      await spawnChecked(
        this.ffmpegPath,
        [
          '-nostdin',
          '-hide_banner',
          '-v',
          'error',
          '-xerror',
          '-protocol_whitelist',
          'file',
          '-format_whitelist',
          FORMAT_WHITELIST,
          '-i',
          `file:${file}`,
          '-map',
          '0:v:0',
          '-frames:v',
          '1',
          '-f',
          'null',
          '-',
        ],
        undefined,
        () => {},
      );
      return true;
    } catch {
      return false;
    }
  }

  private async capture(bin: string, args: string[], signal?: AbortSignal): Promise<string> {
    const chunks: string[] = [];
    await spawnChecked(bin, args, signal, (c) => chunks.push(c));
    return chunks.join('');
  }
}
