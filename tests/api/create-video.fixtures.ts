import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Tiny real inputs made with ffmpeg's lavfi sources (create-video tests, crash test, e2e). */
export function makeFixtures() {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-cv-fx-'));
  const ff = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=640x360:r=30:d=2',
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=2',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    '-shortest',
    join(dir, 'clip.mp4'),
  );
  ff(
    '-f',
    'lavfi',
    '-i',
    'mandelbrot=s=720x1280:r=30',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    join(dir, 'bg.mp4'),
  );
  ff('-f', 'lavfi', '-i', 'gradients=s=800x1200:seed=3', '-frames:v', '1', join(dir, 'bg1.jpg'));
  ff('-f', 'lavfi', '-i', 'gradients=s=800x1200:seed=9', '-frames:v', '1', join(dir, 'bg2.jpg'));
  return {
    dir,
    clipPath: join(dir, 'clip.mp4'),
    clip: readFileSync(join(dir, 'clip.mp4')),
    bgVideo: readFileSync(join(dir, 'bg.mp4')),
    bg1: readFileSync(join(dir, 'bg1.jpg')),
    bg2: readFileSync(join(dir, 'bg2.jpg')),
  };
}

export type Probe = {
  width: number;
  height: number;
  vcodec: string;
  acodec?: string;
  pixFmt: string;
  profile: string;
  duration: number;
  fps: string;
  sampleRate?: string;
};

export function probe(path: string): Probe {
  const j = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path]).toString(),
  );
  const v = j.streams.find((s: any) => s.codec_type === 'video');
  const a = j.streams.find((s: any) => s.codec_type === 'audio');
  return {
    width: v.width,
    height: v.height,
    vcodec: v.codec_name,
    acodec: a?.codec_name,
    pixFmt: v.pix_fmt,
    profile: v.profile,
    duration: Number(j.format.duration),
    fps: v.r_frame_rate,
    sampleRate: a?.sample_rate,
  };
}

export const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
