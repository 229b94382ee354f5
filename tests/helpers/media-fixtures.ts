import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Media inputs generated with ffmpeg's lavfi sources into a temp dir (nothing binary is checked in),
 * plus small measuring helpers (PSNR, SSIM, SHA-256, MP4 box order) shared by tests and the bench.
 */

const run = promisify(execFile);
export const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

export type MediaFixtures = {
  dir: string;
  /** 1280x720, 30 fps, H.264, with a 440 Hz sine at 44.1 kHz (resampled to 48 kHz by a render). */
  landscape: string;
  /** 720x1280 (9:16), 30 fps, no audio stream. */
  vertical: string;
  /** Pictures: 1200x1600 PNG, 1920x1080 JPEG, 800x800 WebP. */
  png: string;
  jpeg: string;
  webp: string;
  /** 960x540 background video at 25 fps, no audio, `bgDurationSec` long. */
  bgVideo: string;
  /** A text file named .mp4 (and one named .jpg). */
  fakeMp4: string;
  fakeJpg: string;
  durationSec: number;
  bgDurationSec: number;
  cleanup: () => Promise<void>;
};

async function ff(args: string[]): Promise<void> {
  await run(FFMPEG, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

export async function makeMediaFixtures(opts: { durationSec?: number; bgDurationSec?: number } = {}): Promise<MediaFixtures> {
  const d = opts.durationSec ?? 2;
  const bgD = opts.bgDurationSec ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'kadr-media-'));
  const p = (name: string) => join(dir, name);
  const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p'];
  await Promise.all([
    ff(['-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=30:d=${d}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${d}`,
      ...x264, '-c:a', 'aac', '-b:a', '96k', '-shortest', p('landscape.mp4')]),
    ff(['-f', 'lavfi', '-i', `testsrc2=s=720x1280:r=30:d=${d}`, '-vf', 'hue=h=120', ...x264, p('vertical.mp4')]),
    ff(['-f', 'lavfi', '-i', 'testsrc=s=1200x1600', '-frames:v', '1', p('photo.png')]),
    ff(['-f', 'lavfi', '-i', 'smptehdbars=s=1920x1080', '-frames:v', '1', '-q:v', '3', p('photo.jpg')]),
    ff(['-f', 'lavfi', '-i', 'rgbtestsrc=s=800x800', '-frames:v', '1', '-c:v', 'libwebp', p('photo.webp')]),
    ff(['-f', 'lavfi', '-i', `testsrc2=s=960x540:r=25:d=${bgD}`, '-vf', 'hue=h=90*t:s=1.5', ...x264, p('bg.mp4')]),
    writeFile(p('fake.mp4'), 'This is a text file, not a video.\n'.repeat(50)),
    writeFile(p('fake.jpg'), 'Not a picture either.\n'.repeat(50)),
  ]);
  return {
    dir, landscape: p('landscape.mp4'), vertical: p('vertical.mp4'), png: p('photo.png'), jpeg: p('photo.jpg'), webp: p('photo.webp'),
    bgVideo: p('bg.mp4'), fakeMp4: p('fake.mp4'), fakeJpg: p('fake.jpg'), durationSec: d, bgDurationSec: bgD,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function sha256(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

/** Top-level MP4 box types in file order (to check that moov comes before mdat). */
export async function mp4TopLevelBoxes(file: string): Promise<string[]> {
  const b = await readFile(file);
  const boxes: string[] = [];
  let off = 0;
  while (off + 8 <= b.length) {
    let size = b.readUInt32BE(off);
    const type = b.toString('latin1', off + 4, off + 8);
    if (size === 1) size = Number(b.readBigUInt64BE(off + 8));
    else if (size === 0) size = b.length - off;
    boxes.push(type);
    if (size < 8) break;
    off += size;
  }
  return boxes;
}

/** Average PSNR (dB) between the pictures of two files, frame by frame (ffmpeg's psnr filter). Infinity when identical. */
export async function psnr(a: string, b: string): Promise<number> {
  const { stderr } = await run(FFMPEG, ['-nostdin', '-hide_banner', '-i', a, '-i', b, '-lavfi', '[0:v][1:v]psnr', '-f', 'null', '-']);
  const m = /PSNR .*average:(inf|[\d.]+)/.exec(stderr);
  if (!m) throw new Error(`no PSNR in: ${stderr.slice(-500)}`);
  return m[1] === 'inf' ? Infinity : Number(m[1]);
}

/**
 * Average SSIM (All) between a region of `a` and a region of `b`, both scaled to `size` first (the
 * comparison scale; SSIM is usually taken below full resolution). `bPre` is a filter chain applied to
 * `b` before its crop (e.g. a trim and speed change that align it in time with `a`).
 */
export async function ssimRegion(
  a: string,
  aRect: { x: number; y: number; w: number; h: number },
  b: string,
  bRect: { x: number; y: number; w: number; h: number },
  size: { w: number; h: number },
  bPre = 'null',
): Promise<number> {
  const crop = (r: { x: number; y: number; w: number; h: number }) => `crop=${r.w}:${r.h}:${r.x}:${r.y}`;
  const graph = `[0:v]${crop(aRect)},scale=${size.w}:${size.h}:flags=area,setsar=1[a];` +
    `[1:v]${bPre},${crop(bRect)},scale=${size.w}:${size.h}:flags=area,setsar=1[b];[a][b]ssim`;
  const { stderr } = await run(FFMPEG, ['-nostdin', '-hide_banner', '-i', a, '-i', b, '-lavfi', graph, '-f', 'null', '-']);
  const m = /SSIM .*All:([\d.]+)/.exec(stderr);
  if (!m) throw new Error(`no SSIM in: ${stderr.slice(-500)}`);
  return Number(m[1]);
}
