import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The ffmpeg/ffprobe binaries behind a small promise API. Every call spawns the binary with an argument
 * array (never a shell), reads machine-readable output, and turns failures into a `MediaError` whose message
 * holds only the last lines of stderr. The binaries' paths come from the caller (FFMPEG_PATH/FFPROBE_PATH
 * are read by server/config.ts, not here).
 */

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

export type ProbeResult = {
  /** Container duration (seconds); 0 for a still picture. */
  durationSec: number;
  /** Displayed size of the first video stream: rotation (phone clips) and sample aspect ratio applied. 0 when there is no video. */
  width: number;
  height: number;
  /** Average frame rate of the video stream (0 when unknown or a still picture). */
  fps: number;
  hasAudio: boolean;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Video profile as ffprobe names it ('High', 'Main', ...), or null. */
  profile: string | null;
  pixFmt: string | null;
  /** Audio sample rate in Hz (0 without audio). */
  sampleRate: number;
  audioChannels: number;
  /** ffprobe's demuxer name, e.g. 'mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm', 'image2', 'png_pipe'. */
  formatName: string;
  /** Rotation in degrees from the display matrix or the rotate tag (0, 90, 180, 270). */
  rotation: number;
  /** Stored (coded) size before rotation. */
  codedWidth: number;
  codedHeight: number;
  /** Number of video frames when the container says so (0 when unknown). */
  frames: number;
};

export type RunOptions = {
  /** Expected output duration; progress is out_time / durationSec. Without it only 1 is reported at the end. */
  durationSec?: number;
  /** Called with a fraction in 0..1 that never decreases; 1 is reported once, on success. */
  onProgress?: (fraction: number) => void;
  /** Aborting kills ffmpeg (SIGKILL) and rejects with MediaError('aborted') once the process has exited. */
  signal?: AbortSignal;
};

/**
 * Demuxers ffprobe may use on uploaded files. A whitelist, because some demuxers (HLS, concat, ...)
 * would open other files or URLs named inside an uploaded "video" (local-file disclosure / SSRF).
 */
const IMAGE_FORMATS = ['image2', 'jpeg_pipe', 'png_pipe', 'webp_pipe', 'bmp_pipe', 'tiff_pipe', 'gif'];
const VIDEO_FORMATS = ['mov', 'matroska', 'avi', 'flv', 'mpegts', 'mpeg', 'asf', 'ogg', 'gif'];
const FORMAT_WHITELIST = [...new Set([...VIDEO_FORMATS, ...IMAGE_FORMATS])].join(',');
const IMAGE_CODECS = new Set(['mjpeg', 'png', 'webp', 'bmp', 'tiff', 'gif']);

/** How much of stderr is kept: the tail only (an ffmpeg failure can print megabytes). */
const STDERR_KEEP_BYTES = 8192;
const STDERR_TAIL_LINES = 6;

const num = (v: unknown): number => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v !== 'string' || v === '' || v === 'N/A') return 0;
  if (v.includes('/')) {
    const [a, b] = v.split('/').map(Number);
    return a !== undefined && b ? a / b : 0;
  }
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};

/** The last non-empty lines of a stderr buffer, joined with ' | ' (what goes into an error message). */
export function stderrTail(stderr: string, lines = STDERR_TAIL_LINES): string {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' | ');
}

type RawStream = {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
  disposition?: { attached_pic?: number };
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
        ['-v', 'error', '-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST,
          '-show_streams', '-show_format', '-of', 'json', `file:${file}`],
        opts.signal,
      );
    } catch (err) {
      if (err instanceof MediaError && err.code === 'failed') {
        throw new MediaError('not_media', `not a readable media file: ${basename(file)} (${err.details.stderrTail || 'ffprobe failed'})`, { ...err.details, file, cause: err });
      }
      throw err;
    }
    let json: { streams?: RawStream[]; format?: { format_name?: string; duration?: string } };
    try {
      json = JSON.parse(out);
    } catch (cause) {
      throw new MediaError('not_media', `ffprobe gave unreadable output for ${basename(file)}`, { file, cause });
    }
    const streams = json.streams ?? [];
    const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
    const a = streams.find((s) => s.codec_type === 'audio');
    if (!json.format?.format_name || (!v && !a)) throw new MediaError('not_media', `no audio or video stream in ${basename(file)}`, { file });
    const rotRaw = v?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? num(v?.tags?.rotate);
    const rotation = (((Math.round(rotRaw / 90) * 90) % 360) + 360) % 360;
    const codedWidth = v?.width ?? 0;
    const codedHeight = v?.height ?? 0;
    const sar = num(v?.sample_aspect_ratio) || 1;
    let width = Math.round(codedWidth * sar);
    let height = codedHeight;
    if (rotation === 90 || rotation === 270) [width, height] = [height, width];
    return {
      durationSec: num(json.format.duration) || num(v?.duration) || num(a?.duration),
      width,
      height,
      fps: num(v?.avg_frame_rate) || num(v?.r_frame_rate),
      hasAudio: !!a,
      videoCodec: v?.codec_name ?? null,
      audioCodec: a?.codec_name ?? null,
      profile: v?.profile ?? null,
      pixFmt: v?.pix_fmt ?? null,
      sampleRate: num(a?.sample_rate),
      audioChannels: a?.channels ?? 0,
      formatName: json.format.format_name,
      rotation,
      codedWidth,
      codedHeight,
      frames: Math.round(num(v?.nb_frames)),
    };
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
      this.run(['-y', '-loglevel', 'error', ...(at > 0 ? ['-ss', at.toFixed(3)] : []), '-i', `file:${input}`,
        '-map', '0:v:0', '-frames:v', '1', '-vf', `${fit},format=yuvj420p`, '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', tmp]);
    try {
      await grab(atSec);
      // A seek past the end "succeeds" with no frame written.
      const size = await stat(tmp).then((s) => s.size, () => 0);
      if (size === 0 && atSec > 0) await grab(0);
      if ((await stat(tmp).then((s) => s.size, () => 0)) === 0) throw new MediaError('no_video', `no frame to grab in ${basename(input)}`, { file: input });
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
    return this.spawnChecked(this.ffmpegPath, full, signal, (chunk) => {
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
      await this.spawnChecked(this.ffmpegPath,
        ['-nostdin', '-hide_banner', '-v', 'error', '-xerror', '-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST,
          '-i', `file:${file}`, '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-'], undefined, () => {});
      return true;
    } catch {
      return false;
    }
  }

  private async capture(bin: string, args: string[], signal?: AbortSignal): Promise<string> {
    const chunks: string[] = [];
    await this.spawnChecked(bin, args, signal, (c) => chunks.push(c));
    return chunks.join('');
  }

  /** Spawns `bin args` (no shell), streams stdout to `onStdout`, keeps the stderr tail, honours `signal`. */
  private spawnChecked(bin: string, args: string[], signal: AbortSignal | undefined, onStdout: (chunk: string) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const tool = basename(bin);
      if (signal?.aborted) {
        reject(new MediaError('aborted', `${tool} aborted before start`, { cause: signal.reason }));
        return;
      }
      const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let stderr = '';
      let spawnError: Error | undefined;
      const onAbort = () => child.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (c: string) => onStdout(c));
      child.stderr.on('data', (c: string) => {
        stderr += c;
        if (stderr.length > STDERR_KEEP_BYTES * 2) stderr = stderr.slice(-STDERR_KEEP_BYTES);
      });
      child.on('error', (err) => {
        spawnError = err;
      });
      child.on('close', (code, sig) => {
        signal?.removeEventListener('abort', onAbort);
        if (spawnError) {
          reject(new MediaError('spawn_failed', `cannot start ${bin}: ${spawnError.message}`, { cause: spawnError }));
        } else if (signal?.aborted) {
          reject(new MediaError('aborted', `${tool} aborted`, { exitCode: code, cause: signal.reason }));
        } else if (code === 0) {
          resolve();
        } else {
          const tail = stderrTail(stderr);
          reject(new MediaError('failed', `${tool} failed (${code === null ? `signal ${sig}` : `exit ${code}`})${tail ? `: ${tail}` : ''}`, {
            exitCode: code,
            stderrTail: tail,
          }));
        }
      });
    });
  }
}
