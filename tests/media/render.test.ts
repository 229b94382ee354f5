import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Ffmpeg, MediaError } from '../../server/media/ffmpeg/ffmpeg';
import { renderBatch } from '../../server/media/render/render-batch';
import { renderOutput } from '../../server/media/render/render-output';
import {
  CANVAS,
  outputDurationSec,
  planLayout,
  type ClipInput,
  type RenderOptions,
} from '../../server/media/render/render-plan';
import { makeVariation, type Variation } from '../../server/media/render/variation';
import { mediaRenderEngine } from '../../server/videos/media-render-engine';
import {
  FFMPEG,
  FFPROBE,
  isBlue,
  makeMediaFixtures,
  mp4TopLevelBoxes,
  pixelAt,
  psnr,
  sha256,
  ssimRegion,
  type MediaFixtures,
} from '../helpers/media-fixtures';

/**
 * Real renders of 2-second generated clips: output format, faststart, uniqueness (hashes, PSNR),
 * faithfulness (SSIM of the clip region against an unvaried render), each background kind, the 9:16 clip,
 * the clip without sound, crash safety (abort and failure leave nothing).
 */

const ffmpeg = new Ffmpeg({ ffmpegPath: FFMPEG, ffprobePath: FFPROBE });
const NOW = new Date('2025-06-01T12:00:00Z');
const FRAME = 1 / CANVAS.fps;
let fx: MediaFixtures;
let land: ClipInput;
let vert: ClipInput;

async function clipOf(path: string): Promise<ClipInput> {
  const p = await ffmpeg.probe(path);
  return { path, width: p.width, height: p.height, durationSec: p.durationSec, hasAudio: p.hasAudio };
}

/** The delivery format every output must have. */
async function expectDeliverable(file: string, expectedSec: number) {
  const p = await ffmpeg.probe(file);
  expect(p, file).toMatchObject({
    width: 1080,
    height: 1920,
    fps: 30,
    videoCodec: 'h264',
    profile: 'High',
    pixFmt: 'yuv420p',
    hasAudio: true,
    audioCodec: 'aac',
    sampleRate: 48000,
    audioChannels: 2,
    rotation: 0,
  });
  expect(
    Math.abs(p.durationSec - expectedSec),
    `${file}: ${p.durationSec} s, expected ${expectedSec} s`,
  ).toBeLessThanOrEqual(FRAME + 0.001);
  expect(Math.abs(p.frames - expectedSec * CANVAS.fps), `${file}: ${p.frames} frames`).toBeLessThanOrEqual(1);
  const boxes = await mp4TopLevelBoxes(file);
  expect(boxes.indexOf('moov'), boxes.join(',')).toBeGreaterThanOrEqual(0);
  expect(boxes.indexOf('moov'), `faststart: ${boxes.join(',')}`).toBeLessThan(boxes.indexOf('mdat'));
}

/**
 * SSIM of the clip as shown in `varied` against the same part of the clip in `reference` (rendered with
 * no variation): the visible part of the varied clip is cropped, the matching rectangle is cropped from the
 * reference, and the reference is put on the varied timeline (same trim and speed) so frames pair up.
 */
async function clipRegionSsim(
  clip: ClipInput,
  variedFile: string,
  v: Variation,
  referenceFile: string,
): Promise<number> {
  const a = planLayout(clip, v);
  const b = planLayout(clip, null);
  const x0 = Math.max(0, a.x),
    x1 = Math.min(CANVAS.width, a.x + a.width);
  const y0 = Math.max(0, a.y),
    y1 = Math.min(CANVAS.height, a.y + a.height);
  const u0 = (x0 - a.x) / a.width,
    u1 = (x1 - a.x) / a.width;
  const v0 = (y0 - a.y) / a.height,
    v1 = (y1 - a.y) / a.height;
  const aRect = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  const bRect = {
    x: Math.round(b.x + u0 * b.width),
    y: Math.round(b.y + v0 * b.height),
    w: Math.round((u1 - u0) * b.width),
    h: Math.round((v1 - v0) * b.height),
  };
  const size = { w: 2 * Math.round(aRect.w / 4), h: 2 * Math.round(aRect.h / 4) };
  const align = `trim=start=${v.trimStartSec},setpts=(PTS-STARTPTS)/${v.speed},fps=30`;
  return ssimRegion(variedFile, aRect, referenceFile, bRect, size, align);
}

async function leftovers(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.part') || f.includes('.tmp'));
}

beforeAll(async () => {
  fx = await makeMediaFixtures();
  [land, vert] = await Promise.all([clipOf(fx.landscape), clipOf(fx.vertical)]);
});
afterAll(async () => {
  await fx?.cleanup();
});

describe('a landscape clip with sound, generator on', () => {
  const out = (name: string) => join(fx.dir, name);
  let reference: RenderOptions;
  let varied: RenderOptions[];

  beforeAll(async () => {
    // The unvaried reference (renderOutput), and 4 varied outputs in one batch: every background kind,
    // plus two outputs on the same photo (they differ only by the generator).
    reference = { clip: land, background: { kind: 'photo', path: fx.jpeg }, variation: null, out: out('ref.mp4') };
    await renderOutput(ffmpeg, reference);
    const bgs: RenderOptions['background'][] = [
      { kind: 'photo', path: fx.jpeg },
      { kind: 'photo', path: fx.jpeg },
      { kind: 'blur' },
      { kind: 'video', path: fx.bgVideo, durationSec: fx.bgDurationSec },
    ];
    varied = bgs.map((background, i) => ({
      clip: land,
      background,
      variation: makeVariation(1000 + i, { now: NOW }),
      out: out(`var-${i}.mp4`),
    }));
    const res = await renderBatch(ffmpeg, varied, { outputsPerProcess: 4 });
    expect(res.map((r) => r.ok)).toEqual([true, true, true, true]);
  });

  it('every output is deliverable: 1080x1920 30 fps H.264 High yuv420p, AAC 48 kHz stereo, faststart, right length', async () => {
    await expectDeliverable(reference.out, land.durationSec);
    for (const o of varied) await expectDeliverable(o.out, outputDurationSec(o.clip, o.variation));
  });

  it('outputs are distinct files with distinct pictures (PSNR < 45 dB pairwise)', async () => {
    const files = [reference.out, ...varied.map((o) => o.out)];
    const hashes = await Promise.all(files.map(sha256));
    expect(new Set(hashes).size).toBe(files.length);
    for (let i = 0; i < files.length; i++) {
      for (let j = i + 1; j < files.length; j++) {
        const db = await psnr(files[i]!, files[j]!);
        if (process.env.MEDIA_TEST_VERBOSE) console.log(`PSNR ${files[i]} vs ${files[j]}: ${db.toFixed(2)} dB`);
        expect(db, `${files[i]} vs ${files[j]}`).toBeLessThan(45);
      }
    }
  });

  it('the clip stays faithful: SSIM of the clip region >= 0.97 against the unvaried render', async () => {
    for (const o of varied.slice(0, 2)) {
      const s = await clipRegionSsim(land, o.out, o.variation!, reference.out);
      if (process.env.MEDIA_TEST_VERBOSE) console.log(`SSIM ${o.out}: ${s.toFixed(4)}`);
      expect(s, o.out).toBeGreaterThanOrEqual(0.97);
    }
  });

  it('carries fresh metadata only', async () => {
    const { execFile } = await import('node:child_process');
    const tags = await new Promise<string>((resolve, reject) =>
      execFile(FFPROBE, ['-v', 'error', '-show_entries', 'format_tags', '-of', 'json', varied[0]!.out], (e, so) =>
        e ? reject(e) : resolve(so),
      ),
    );
    const t = JSON.parse(tags).format.tags as Record<string, string>;
    expect(t.title).toBe(varied[0]!.variation!.title);
    expect(t.creation_time).toMatch(new RegExp(`^${varied[0]!.variation!.creationTime.slice(0, 19)}`));
  });
});

describe('a 9:16 clip without sound', () => {
  it('is shrunk so the background shows around it, gets a silent track, and stays faithful', async () => {
    const layout = planLayout(vert, null);
    expect(layout.shrunk).toBe(true);
    expect(layout.x).toBeGreaterThanOrEqual(48);
    expect(layout.y).toBeGreaterThanOrEqual(85);
    const v = makeVariation(77, { now: NOW });
    const lv = planLayout(vert, v);
    expect(
      Math.min(lv.x, lv.y, CANVAS.width - lv.x - lv.width, CANVAS.height - lv.y - lv.height),
    ).toBeGreaterThanOrEqual(24);

    const a: RenderOptions = {
      clip: vert,
      background: { kind: 'photo', path: fx.png },
      variation: null,
      out: join(fx.dir, 'vert-a.mp4'),
    };
    const b: RenderOptions = { ...a, background: { kind: 'photo', path: fx.webp }, out: join(fx.dir, 'vert-b.mp4') };
    const c: RenderOptions = { ...a, background: { kind: 'blur' }, variation: v, out: join(fx.dir, 'vert-c.mp4') };
    const res = await renderBatch(ffmpeg, [a, b, c], { outputsPerProcess: 1, concurrency: 2 });
    expect(res.map((r) => r.ok)).toEqual([true, true, true]);
    await expectDeliverable(a.out, vert.durationSec);
    await expectDeliverable(c.out, outputDurationSec(vert, v));
    // Same clip, same placement, different photos: only a visible background can make these differ.
    expect(await psnr(a.out, b.out)).toBeLessThan(45);
    expect(await clipRegionSsim(vert, c.out, v, a.out)).toBeGreaterThanOrEqual(0.97);
  });
});

describe('a phone photo stored sideways', () => {
  it('is turned upright by its EXIF orientation before it fills the background', async () => {
    const engine = mediaRenderEngine(new Ffmpeg({ ffmpegPath: FFMPEG, ffprobePath: FFPROBE }));
    const out = join(fx.dir, 'sideways-bg.mp4');
    const done: number[] = [];
    await engine.renderMany(
      [
        {
          index: 0,
          seed: 1,
          clipPath: land.path,
          background: { kind: 'image', path: fx.sidewaysJpeg },
          vary: false,
          outPath: out,
        },
      ],
      { duration: land.durationSec, width: land.width, height: land.height, hasAudio: land.hasAudio },
      {
        signal: new AbortController().signal,
        concurrency: 1,
        onProgress: () => {},
        onOutput: async (i, err) => {
          if (err) throw err;
          done.push(i);
        },
      },
    );
    expect(done).toEqual([0]);
    await expectDeliverable(out, land.durationSec);
    // Upright, the picture's blue quarter is on top and covers the canvas above the (centred, landscape)
    // clip; read sideways, the centre crop of the picture would be red only.
    expect(isBlue(await pixelAt(out, 540, 100))).toBe(true);
    expect(isBlue(await pixelAt(out, 540, 1800))).toBe(false);
  });
});

describe('crash safety', () => {
  it('an aborted render leaves no file, under the final name or a temp one', async () => {
    const out = join(fx.dir, 'aborted.mp4');
    const ac = new AbortController();
    const p = renderOutput(
      ffmpeg,
      { clip: land, background: { kind: 'blur' }, variation: makeVariation(5), out },
      {
        signal: ac.signal,
        onProgress: (f) => f > 0 && ac.abort(new Error('cancelled')),
      },
    );
    await expect(p).rejects.toMatchObject({ code: 'aborted' });
    await expect(stat(out)).rejects.toThrow();
    expect(await leftovers(fx.dir)).toEqual([]);
  });

  it('an aborted batch rejects and leaves no temp file', async () => {
    const ac = new AbortController();
    const list = [0, 1, 2].map((i) => ({
      clip: land,
      background: { kind: 'blur' } as const,
      variation: makeVariation(i),
      out: join(fx.dir, `ab-${i}.mp4`),
    }));
    const p = renderBatch(ffmpeg, list, {
      signal: ac.signal,
      concurrency: 2,
      outputsPerProcess: 1,
      onProgress: (f) => f > 0 && ac.abort(),
    });
    await expect(p).rejects.toBeInstanceOf(MediaError);
    expect(await leftovers(fx.dir)).toEqual([]);
  });

  it('a failed render rejects with a readable reason and leaves no file; in a batch it fails only its own output', async () => {
    const out = join(fx.dir, 'failed.mp4');
    const bad: RenderOptions = {
      clip: land,
      background: { kind: 'photo', path: join(fx.dir, 'missing.jpg') },
      variation: null,
      out,
    };
    const err = (await renderOutput(ffmpeg, bad).catch((e: unknown) => e)) as MediaError;
    expect(err).toBeInstanceOf(MediaError);
    expect(err.message).toMatch(/missing\.jpg.*No such file/);
    await expect(stat(out)).rejects.toThrow();

    const good: RenderOptions = {
      clip: vert,
      background: { kind: 'blur' },
      variation: null,
      out: join(fx.dir, 'good.mp4'),
    };
    const res = await renderBatch(ffmpeg, [{ ...bad, clip: vert }, good], { outputsPerProcess: 2 });
    expect(res.map((r) => r.ok)).toEqual([false, true]);
    await expect(stat(out)).rejects.toThrow();
    expect((await stat(good.out)).size).toBeGreaterThan(10_000);
    expect(await leftovers(fx.dir)).toEqual([]);
  });
});
