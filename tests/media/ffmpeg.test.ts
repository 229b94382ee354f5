import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ffmpeg, MediaError, stderrTail } from '../../server/media/ffmpeg/ffmpeg';
import { FFMPEG, FFPROBE, isBlue, makeMediaFixtures, pixelAt, type MediaFixtures } from '../helpers/media-fixtures';

const ffmpeg = new Ffmpeg({ ffmpegPath: FFMPEG, ffprobePath: FFPROBE });
let fx: MediaFixtures;

beforeAll(async () => {
  fx = await makeMediaFixtures();
});
afterAll(async () => {
  await fx?.cleanup();
});

describe('Ffmpeg.probe', () => {
  it('reads a video with sound', async () => {
    const p = await ffmpeg.probe(fx.landscape);
    expect(p).toMatchObject({
      width: 1280,
      height: 720,
      fps: 30,
      hasAudio: true,
      videoCodec: 'h264',
      audioCodec: 'aac',
      pixFmt: 'yuv420p',
      sampleRate: 44100,
      rotation: 0,
    });
    expect(p.durationSec).toBeCloseTo(2, 1);
    expect(p.formatName).toContain('mp4');
    expect(p.profile).toBeTypeOf('string');
  });

  it('reads a video without sound', async () => {
    const p = await ffmpeg.probe(fx.vertical);
    expect(p).toMatchObject({ width: 720, height: 1280, hasAudio: false, audioCodec: null, sampleRate: 0 });
  });

  it('rejects a text file named .mp4 with a typed, readable error', async () => {
    const err = await ffmpeg.probe(fx.fakeMp4).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect((err as MediaError).code).toBe('not_media');
    expect((err as MediaError).message).toMatch(/not a readable media file: fake\.mp4/);
    expect((err as MediaError).message.length).toBeLessThan(600);
  });

  it('refuses demuxers that would open other files (an HLS playlist named .mp4)', async () => {
    const evil = join(fx.dir, 'playlist.mp4');
    await writeFile(evil, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${fx.landscape}\n#EXT-X-ENDLIST\n`);
    await expect(ffmpeg.probe(evil)).rejects.toMatchObject({ code: 'not_media' });
    expect(await ffmpeg.isVideo(evil)).toBe(false);
  });
});

describe('Ffmpeg.isImage / isVideo (upload validation by content)', () => {
  it('accepts real pictures as images only', async () => {
    for (const f of [fx.png, fx.jpeg, fx.webp]) {
      expect(await ffmpeg.isImage(f), f).toBe(true);
      expect(await ffmpeg.isVideo(f), f).toBe(false);
    }
  });

  it('accepts real videos as videos only', async () => {
    for (const f of [fx.landscape, fx.vertical, fx.bgVideo]) {
      expect(await ffmpeg.isVideo(f), f).toBe(true);
      expect(await ffmpeg.isImage(f), f).toBe(false);
    }
  });

  it('rejects disguised text files', async () => {
    expect(await ffmpeg.isVideo(fx.fakeMp4)).toBe(false);
    expect(await ffmpeg.isImage(fx.fakeMp4)).toBe(false);
    expect(await ffmpeg.isImage(fx.fakeJpg)).toBe(false);
    expect(await ffmpeg.isVideo(fx.fakeJpg)).toBe(false);
  });
});

describe('Ffmpeg.thumbnail', () => {
  it('grabs a JPEG frame, at most 720 px on the longer side', async () => {
    const land = join(fx.dir, 'thumb-land.jpg');
    const vert = join(fx.dir, 'thumb-vert.jpg');
    await ffmpeg.thumbnail(fx.landscape, land);
    await ffmpeg.thumbnail(fx.vertical, vert, 0.1);
    expect(await ffmpeg.probe(land)).toMatchObject({ videoCodec: 'mjpeg', width: 720, height: 406 });
    expect(await ffmpeg.probe(vert)).toMatchObject({ videoCodec: 'mjpeg', width: 406, height: 720 });
  });

  it('turns a picture stored sideways (EXIF orientation, as phones write it) upright', async () => {
    const out = join(fx.dir, 'thumb-upright.jpg');
    await ffmpeg.thumbnail(fx.sidewaysJpeg, out, 0);
    expect(await ffmpeg.probe(out)).toMatchObject({ width: 32, height: 64 });
    expect(isBlue(await pixelAt(out, 16, 4))).toBe(true); // the blue quarter is on top
    expect(isBlue(await pixelAt(out, 16, 56))).toBe(false);
  });

  it('falls back to the first frame when the clip is shorter than the time asked', async () => {
    const out = join(fx.dir, 'thumb-late.jpg');
    await ffmpeg.thumbnail(fx.landscape, out, 30);
    expect((await stat(out)).size).toBeGreaterThan(1000);
  });

  it('fails on a non-media file and leaves no file', async () => {
    const out = join(fx.dir, 'thumb-fake.jpg');
    await expect(ffmpeg.thumbnail(fx.fakeMp4, out)).rejects.toBeInstanceOf(MediaError);
    await expect(stat(out)).rejects.toThrow();
  });
});

describe('Ffmpeg.run', () => {
  const encode = (out: string, seconds: number) => [
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=640x360:r=30:d=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    out,
  ];

  it('reports progress from 0 to 1, never going back', async () => {
    const seen: number[] = [];
    await ffmpeg.run(encode(join(fx.dir, 'run.mp4'), 3), { durationSec: 3, onProgress: (f) => seen.push(f) });
    expect(seen.at(-1)).toBe(1);
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
    expect(seen.every((f) => f >= 0 && f <= 1)).toBe(true);
  });

  it('rejects with the last lines of stderr only', async () => {
    // -v verbose prints dozens of lines before the failure.
    const err = (await ffmpeg
      .run(['-v', 'verbose', '-f', 'lavfi', '-i', 'testsrc2=d=1', '-vf', 'nosuchfilter', '-f', 'null', '-'])
      .catch((e: unknown) => e)) as MediaError;
    expect(err).toBeInstanceOf(MediaError);
    expect(err.code).toBe('failed');
    expect(err.message).toMatch(/nosuchfilter/i);
    expect(err.details.stderrTail!.split(' | ').length).toBeLessThanOrEqual(6);
    expect(err.message.length).toBeLessThan(2000);
  });

  it('kills ffmpeg on abort', async () => {
    // A marker in the arguments finds the process in /proc: running before the abort, gone once the call rejects.
    const marker = `kadr-abort-${randomUUID()}`;
    const running = async () => {
      const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d));
      const lines = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
      return lines.some((l) => l.includes(marker));
    };
    const ac = new AbortController();
    let seenRunning = false;
    const args = [
      '-y',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=d=30',
      '-metadata',
      `comment=${marker}`,
      '-f',
      'null',
      '-',
    ];
    const p = ffmpeg.run(args, {
      signal: ac.signal,
      durationSec: 30,
      // The first progress line proves ffmpeg is encoding; abort then, not after a guessed delay.
      onProgress: () => {
        if (ac.signal.aborted) return;
        void running().then((yes) => {
          seenRunning = yes;
          ac.abort(new Error('stop'));
        });
      },
    });
    const err = (await p.catch((e: unknown) => e)) as MediaError;
    expect(seenRunning).toBe(true);
    expect(err).toBeInstanceOf(MediaError);
    expect(err.code).toBe('aborted');
    expect(err.details.exitCode).toBeNull(); // ended by the signal, not by finishing the 30 s input
    expect(await running()).toBe(false);
    await expect(ffmpeg.run(['-version'], { signal: ac.signal })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('says so when the binary is missing', async () => {
    const broken = new Ffmpeg({ ffmpegPath: join(fx.dir, 'no-ffmpeg'), ffprobePath: join(fx.dir, 'no-ffprobe') });
    await expect(broken.run(['-version'])).rejects.toMatchObject({ code: 'spawn_failed' });
    await expect(broken.probe(fx.landscape)).rejects.toMatchObject({ code: 'spawn_failed' });
  });

  it('stderrTail keeps the last non-empty lines', () => {
    expect(stderrTail('a\n\nb\nc\r\nd\n', 2)).toBe('c | d');
  });
});
