import type { Variation } from './variation';

/**
 * ffmpeg arguments for rendering outputs of the create-video request: the uploaded clip placed on a
 * 1080x1920 canvas over a background (photo, video, or a blurred copy of the clip), one filter graph and
 * one encode per output (docs: /work/shared/notes/video.md §2, §6). Pure functions, no I/O.
 *
 * Output format (fits YouTube Shorts, TikTok and Instagram Reels): 1080x1920, 30 fps, H.264 High yuv420p
 * (libx264 veryfast CRF 23), AAC-LC 128 kb/s 48 kHz stereo (silence when the clip has no sound), moov
 * atom first (+faststart), no metadata inherited from the upload.
 *
 * Placement rules (the same for every background kind):
 * - The clip is fitted inside the canvas (no crop), times the variation's zoom.
 * - A clip whose fitted size would cover at least 90 % of the canvas both ways (9:16 or nearly) would
 *   hide the background completely: it is shrunk to 86 % on purpose, so a margin of background (at least
 *   ~48 px at the sides and ~85 px above and below, even at the largest zoom) always shows around it. The
 *   background is then what makes outputs look different, as for any other clip.
 * - The variation's offset moves the clip, clamped so that the clip never leaves a sliver of background
 *   on a side where it overflows the canvas (zoomed landscape clip), and never leaves the canvas on a
 *   side where it fits.
 */

export const CANVAS = { width: 1080, height: 1920, fps: 30 } as const;
/** Scale applied to a clip that would otherwise cover the whole canvas (see the header). */
export const COVER_SHRINK = 0.86;
/** A fitted clip covering at least this share of the canvas in both directions counts as covering it. */
export const COVER_THRESHOLD = 0.9;

export type ClipInput = { path: string; width: number; height: number; durationSec: number; hasAudio: boolean };
export type BackgroundInput =
  { kind: 'photo'; path: string } | { kind: 'video'; path: string; durationSec: number } | { kind: 'blur' };
export type RenderOptions = { clip: ClipInput; background: BackgroundInput; variation: Variation | null; out: string };

/** Encoder tuning that does not change what the file looks like. */
export type EncodeTuning = {
  /** libx264 threads per output (ffmpeg's default, 0 = auto, when absent). */
  x264Threads?: number;
};

/** Where the clip lands on the canvas: its scaled size and top-left corner (may be negative when zoomed past an edge). */
export type Layout = { x: number; y: number; width: number; height: number; shrunk: boolean };

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const fmt = (n: number) => String(Number(n.toFixed(4)));
/** `file:` in front, so a path holding a colon is never read as a protocol (http:, concat:, ...). */
const fileUrl = (p: string) => (p.startsWith('file:') ? p : `file:${p}`);

export function planLayout(clip: Pick<ClipInput, 'width' | 'height'>, variation: Variation | null): Layout {
  const { width: W, height: H } = CANVAS;
  if (!(clip.width > 0 && clip.height > 0)) throw new Error(`clip size unknown (${clip.width}x${clip.height})`);
  const fit = Math.min(W / clip.width, H / clip.height);
  const shrunk = clip.width * fit >= COVER_THRESHOLD * W && clip.height * fit >= COVER_THRESHOLD * H;
  const s = fit * (shrunk ? COVER_SHRINK : 1) * (variation?.zoom ?? 1);
  const width = even(clip.width * s);
  const height = even(clip.height * s);
  const place = (canvas: number, size: number, d: number) => {
    const centred = Math.round((canvas - size) / 2);
    // Overflowing: keep both edges covered. Fitting: keep the whole clip on the canvas.
    return size >= canvas ? clamp(centred + d, canvas - size, 0) : clamp(centred + d, 0, canvas - size);
  };
  return { x: place(W, width, variation?.dx ?? 0), y: place(H, height, variation?.dy ?? 0), width, height, shrunk };
}

/** Length of the output: the clip minus the trimmed start, at the variation's speed. */
export function outputDurationSec(clip: Pick<ClipInput, 'durationSec'>, variation: Variation | null): number {
  const trim = variation?.trimStartSec ?? 0;
  const speed = variation?.speed ?? 1;
  return Math.max(0.1, (clip.durationSec - trim) / speed);
}

/** Start point in a background video: a seeded fraction of its length (0 without a variation). */
export function backgroundStartSec(bg: { durationSec: number }, variation: Variation | null): number {
  if (!variation || !(bg.durationSec > 1)) return 0;
  return Math.floor(variation.bgStart * (bg.durationSec - 0.5) * 100) / 100;
}

/** The ffmpeg arguments that render one output (`opts.out`, written as MP4 whatever its extension). */
export function planRender(opts: RenderOptions, tuning: EncodeTuning = {}): string[] {
  return planRenderBatch([opts], tuning);
}

/**
 * The ffmpeg arguments that render several outputs of the same clip in one process: the clip is decoded
 * once and split, each output has its own branch (trim, speed, zoom, colour, background) and its own
 * encoder. All options must share the clip.
 */
export function planRenderBatch(list: readonly RenderOptions[], tuning: EncodeTuning = {}): string[] {
  if (list.length === 0) throw new Error('planRenderBatch: nothing to render');
  const clip = list[0]!.clip;
  for (const o of list) {
    if (o.clip.path !== clip.path) throw new Error('planRenderBatch: all outputs must share one clip');
  }
  const { width: W, height: H, fps: FPS } = CANVAS;
  const n = list.length;
  const inputs: string[] = ['-i', fileUrl(clip.path)];
  let nextInput = 1;
  const graph: string[] = [];
  const vSrc = n === 1 ? ['0:v'] : list.map((_, i) => `c${i}`);
  if (n > 1) graph.push(`[0:v]split=${n}${vSrc.map((l) => `[${l}]`).join('')}`);
  const aSrc = clip.hasAudio ? (n === 1 ? ['0:a'] : list.map((_, i) => `ca${i}`)) : [];
  if (clip.hasAudio && n > 1) graph.push(`[0:a]asplit=${n}${aSrc.map((l) => `[${l}]`).join('')}`);
  const outputs: string[] = [];

  list.forEach((o, i) => {
    const v = o.variation;
    const layout = planLayout(clip, v);
    const duration = outputDurationSec(clip, v);
    const trim = v?.trimStartSec ?? 0;
    const speed = v?.speed ?? 1;
    const timing = [
      ...(trim > 0 ? [`trim=start=${fmt(trim)}`] : []),
      speed !== 1 ? `setpts=(PTS-STARTPTS)/${fmt(speed)}` : 'setpts=PTS-STARTPTS',
      // Resampled to 30 fps here, on the decoder's timestamps: an fps filter after the overlay would drop
      // the last frame (the overlay's end timestamp is its last frame's, without that frame's duration).
      `fps=${FPS}`,
    ].join(',');

    // Background
    const bg = o.background;
    if (bg.kind === 'blur') {
      // A blurred copy of the (trimmed, sped) clip, blurred at quarter resolution then scaled up (3x cheaper).
      graph.push(`[${vSrc[i]}]${timing},split=2[f${i}][b${i}]`);
      graph.push(
        `[b${i}]scale=${W / 4}:${H / 4}:force_original_aspect_ratio=increase,crop=${W / 4}:${H / 4},boxblur=10:1,scale=${W}:${H},setsar=1[bg${i}]`,
      );
    } else {
      graph.push(`[${vSrc[i]}]${timing}[f${i}]`);
      const k = nextInput++;
      if (bg.kind === 'photo') {
        // Decoded and scaled once, then the one frame repeats (`-loop 1` would decode it for every frame).
        inputs.push('-framerate', String(FPS), '-i', fileUrl(bg.path));
        graph.push(
          `[${k}:v]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1,format=yuv420p,loop=loop=-1:size=1:start=0[bg${i}]`,
        );
      } else {
        const start = backgroundStartSec(bg, v);
        inputs.push(...(start > 0 ? ['-ss', fmt(start)] : []), '-stream_loop', '-1', '-i', fileUrl(bg.path));
        graph.push(
          `[${k}:v]fps=${FPS},scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1,setpts=PTS-STARTPTS[bg${i}]`,
        );
      }
    }

    // Foreground: one scale (fit x shrink x zoom), colour jitter on the clip only (cheaper than the frame).
    const eq =
      v && (v.brightness !== 0 || v.contrast !== 1 || v.saturation !== 1)
        ? `,eq=brightness=${fmt(v.brightness)}:contrast=${fmt(v.contrast)}:saturation=${fmt(v.saturation)}`
        : '';
    graph.push(`[f${i}]scale=${layout.width}:${layout.height},setsar=1${eq}[fg${i}]`);
    const noise = v && v.noise > 0 ? `,noise=alls=${Math.round(v.noise)}:allf=t` : '';
    graph.push(`[bg${i}][fg${i}]overlay=x=${layout.x}:y=${layout.y}${noise},format=yuv420p[v${i}]`);

    // Sound: the clip's, trimmed and tempo-matched (pitch kept), padded to length; or silence.
    const aTiming = [
      ...(trim > 0 ? [`atrim=start=${fmt(trim)}`] : []),
      'asetpts=PTS-STARTPTS',
      ...(speed !== 1 ? [`atempo=${fmt(speed)}`] : []),
    ].join(',');
    if (clip.hasAudio)
      graph.push(`[${aSrc[i]}]${aTiming},aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad[a${i}]`);
    else graph.push(`anullsrc=r=48000:cl=stereo,atrim=duration=${fmt(duration + 0.1)}[a${i}]`);

    outputs.push(
      '-map',
      `[v${i}]`,
      '-map',
      `[a${i}]`,
      '-t',
      fmt(duration),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(FPS),
      ...(tuning.x264Threads ? ['-threads:v', String(tuning.x264Threads)] : []),
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      ...(v ? ['-metadata', `creation_time=${v.creationTime}`, '-metadata', `title=${v.title}`] : []),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      fileUrl(o.out),
    );
  });

  return ['-y', ...inputs, '-filter_complex', graph.join(';'), ...outputs];
}
