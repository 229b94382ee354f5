import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

export type Part = { name: string; value?: string; filename?: string; type?: string; data?: Buffer };

/** A multipart/form-data body, built by hand (the way a browser sends FormData). */
export function multipart(parts: Part[]) {
  const boundary = '----kadrCv' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.filename !== undefined ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), p.data ?? Buffer.from(p.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every file under a folder (relative paths). */
export function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p, `${rel}${n}/`);
      else out.push(`${rel}${n}`);
    }
  };
  walk(root, '');
  return out;
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
