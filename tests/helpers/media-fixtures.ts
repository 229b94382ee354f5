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
  /**
   * A phone-style JPEG stored sideways: 64x32 pixels, the left quarter blue, the rest red, with EXIF
   * orientation 6 (turn 90° clockwise to view). Upright it is 32x64 with the blue quarter on top.
   */
  sidewaysJpeg: string;
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

export async function makeMediaFixtures(
  opts: { durationSec?: number; bgDurationSec?: number } = {},
): Promise<MediaFixtures> {
  const d = opts.durationSec ?? 2;
  const bgD = opts.bgDurationSec ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'kadr-media-'));
  const p = (name: string) => join(dir, name);
  const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p'];
  await Promise.all([
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=s=1280x720:r=30:d=${d}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${d}`,
      ...x264,
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-shortest',
      p('landscape.mp4'),
    ]),
    ff(['-f', 'lavfi', '-i', `testsrc2=s=720x1280:r=30:d=${d}`, '-vf', 'hue=h=120', ...x264, p('vertical.mp4')]),
    ff(['-f', 'lavfi', '-i', 'testsrc=s=1200x1600', '-frames:v', '1', p('photo.png')]),
    ff(['-f', 'lavfi', '-i', 'smptehdbars=s=1920x1080', '-frames:v', '1', '-q:v', '3', p('photo.jpg')]),
    ff(['-f', 'lavfi', '-i', 'rgbtestsrc=s=800x800', '-frames:v', '1', '-c:v', 'libwebp', p('photo.webp')]),
    ff(['-f', 'lavfi', '-i', `testsrc2=s=960x540:r=25:d=${bgD}`, '-vf', 'hue=h=90*t:s=1.5', ...x264, p('bg.mp4')]),
    ff([
      '-f',
      'lavfi',
      '-i',
      'color=red:s=64x32,drawbox=x=0:y=0:w=16:h=32:color=blue:t=fill',
      '-frames:v',
      '1',
      '-q:v',
      '2',
      p('plain.jpg'),
    ]).then(() => withExifOrientation(p('plain.jpg'), p('sideways.jpg'), 6)),
    writeFile(p('fake.mp4'), 'This is a text file, not a video.\n'.repeat(50)),
    writeFile(p('fake.jpg'), 'Not a picture either.\n'.repeat(50)),
  ]);
  return {
    dir,
    landscape: p('landscape.mp4'),
    vertical: p('vertical.mp4'),
    png: p('photo.png'),
    sidewaysJpeg: p('sideways.jpg'),
    jpeg: p('photo.jpg'),
    webp: p('photo.webp'),
    bgVideo: p('bg.mp4'),
    fakeMp4: p('fake.mp4'),
    fakeJpg: p('fake.jpg'),
    durationSec: d,
    bgDurationSec: bgD,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Copies a JPEG, adding an EXIF (APP1) segment whose only entry is the Orientation tag. */
export async function withExifOrientation(jpeg: string, out: string, orientation: number): Promise<void> {
  const src = await readFile(jpeg);
  const ifd = Buffer.alloc(18);
  ifd.writeUInt16BE(1, 0); // one entry
  ifd.writeUInt16BE(0x0112, 2); // Orientation
  ifd.writeUInt16BE(3, 4); // SHORT
  ifd.writeUInt32BE(1, 6); // one value
  ifd.writeUInt16BE(orientation, 10);
  ifd.writeUInt32BE(0, 14); // no next IFD
  const tiff = Buffer.concat([Buffer.from('MM\0\x2a', 'latin1'), Buffer.from([0, 0, 0, 8]), ifd]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  await writeFile(out, Buffer.concat([src.subarray(0, 2), head, body, src.subarray(2)]));
}

/** The RGB colour of one pixel of a picture or of a video's first frame. */
export async function pixelAt(file: string, x: number, y: number): Promise<[number, number, number]> {
  const { stdout } = await run(
    FFMPEG,
    [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      file,
      '-vf',
      `format=rgb24,crop=1:1:${x}:${y}`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-',
    ],
    { encoding: 'buffer' },
  );
  return [stdout[0]!, stdout[1]!, stdout[2]!];
}

/** Whether a colour is mostly blue (true) or mostly red (false), as the sideways fixture's two parts. */
export const isBlue = ([r, , b]: [number, number, number]) => b > 150 && r < 100;

export async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
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
  const { stderr } = await run(FFMPEG, [
    '-nostdin',
    '-hide_banner',
    '-i',
    a,
    '-i',
    b,
    '-lavfi',
    '[0:v][1:v]psnr',
    '-f',
    'null',
    '-',
  ]);
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
  const graph =
    `[0:v]${crop(aRect)},scale=${size.w}:${size.h}:flags=area,setsar=1[a];` +
    `[1:v]${bPre},${crop(bRect)},scale=${size.w}:${size.h}:flags=area,setsar=1[b];[a][b]ssim`;
  const { stderr } = await run(FFMPEG, [
    '-nostdin',
    '-hide_banner',
    '-i',
    a,
    '-i',
    b,
    '-lavfi',
    graph,
    '-f',
    'null',
    '-',
  ]);
  const m = /SSIM .*All:([\d.]+)/.exec(stderr);
  if (!m) throw new Error(`no SSIM in: ${stderr.slice(-500)}`);
  return Number(m[1]);
}
