import {
  CANVAS,
  COVER_SHRINK,
  outputDurationSec,
  planLayout,
  planRender,
  planRenderBatch,
  type RenderOptions,
} from '../../server/media/render/render-plan';
import { makeVariation, mulberry32, pickBackground } from '../../server/media/render/variation';

/** Pure checks of the generator and of the ffmpeg arguments (no ffmpeg run). */

const land = { path: '/in/clip.mp4', width: 1280, height: 720, durationSec: 10, hasAudio: true };
const vert = { path: '/in/vert.mp4', width: 1080, height: 1920, durationSec: 10, hasAudio: false };
const base: RenderOptions = {
  clip: land,
  background: { kind: 'photo', path: '/bg/a.jpg' },
  variation: null,
  out: '/out/o.mp4',
};

const valueOf = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('makeVariation', () => {
  it('is deterministic per seed and stays in its ranges', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(makeVariation(5, { now })).toEqual(makeVariation(5, { now }));
    expect(makeVariation(5, { now })).not.toEqual(makeVariation(6, { now }));
    for (let seed = 0; seed < 2000; seed++) {
      const v = makeVariation(seed * 7919, { now });
      expect(v.zoom).toBeGreaterThanOrEqual(1);
      expect(v.zoom).toBeLessThanOrEqual(1.06);
      expect(Math.abs(v.dx)).toBeGreaterThanOrEqual(6);
      expect(Math.abs(v.dx)).toBeLessThanOrEqual(24);
      expect(Math.abs(v.dy)).toBeLessThanOrEqual(24);
      expect(v.speed).toBeGreaterThanOrEqual(0.97);
      expect(v.speed).toBeLessThanOrEqual(1.03);
      expect(Math.abs(v.speed - 1)).toBeGreaterThanOrEqual(0.0049);
      expect(v.trimStartSec).toBeGreaterThan(0);
      expect(v.trimStartSec).toBeLessThanOrEqual(0.15);
      expect(Math.abs(v.brightness)).toBeLessThanOrEqual(0.025);
      expect(v.contrast).toBeGreaterThanOrEqual(0.97);
      expect(v.saturation).toBeLessThanOrEqual(1.06);
      expect(v.noise).toBe(0);
      expect(v.bgStart).toBeGreaterThanOrEqual(0);
      expect(v.bgStart).toBeLessThan(1);
      const created = Date.parse(v.creationTime);
      expect(now.getTime() - created).toBeGreaterThanOrEqual(60_000);
      expect(now.getTime() - created).toBeLessThanOrEqual(3_600_000);
      expect(v.title).toMatch(/^VID_\d{8}_\d{6}$/);
    }
    expect(makeVariation(1, { noise: true }).noise).toBeGreaterThan(0);
  });

  it('mulberry32 is uniform enough', () => {
    const r = mulberry32(123);
    const xs = Array.from({ length: 10_000 }, r);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
  });
});

describe('pickBackground', () => {
  it('gives every output a different item while the folders have enough', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    for (let seed = 0; seed < 50; seed++) {
      const picked = Array.from({ length: 5 }, (_, i) => pickBackground(items, seed, i));
      expect(new Set(picked).size).toBe(5);
      // Past the end it keeps going, never the same item twice in a row.
      const more = Array.from({ length: 20 }, (_, i) => pickBackground(items, seed, i));
      for (let i = 1; i < more.length; i++) expect(more[i]).not.toBe(more[i - 1]);
    }
    expect(pickBackground([], 1, 0)).toBeUndefined();
    expect(pickBackground(['only'], 1, 7)).toBe('only');
    // Different requests (seeds) start in different places.
    expect(new Set(Array.from({ length: 20 }, (_, s) => pickBackground(items, s, 0))).size).toBeGreaterThan(1);
  });
});

describe('planLayout', () => {
  it('fits a landscape clip to the width and never leaves a sliver at an edge it overflows', () => {
    expect(planLayout(land, null)).toEqual({ x: 0, y: 656, width: 1080, height: 608, shrunk: false });
    for (let seed = 0; seed < 500; seed++) {
      const l = planLayout(land, makeVariation(seed));
      expect(l.x).toBeLessThanOrEqual(0);
      expect(l.x + l.width).toBeGreaterThanOrEqual(CANVAS.width);
      expect(l.y).toBeGreaterThan(0);
      expect((l.width % 2) + (l.height % 2)).toBe(0);
    }
  });

  it('shrinks a 9:16 clip on purpose, for every background and variation', () => {
    const plain = planLayout(vert, null);
    expect(plain.shrunk).toBe(true);
    expect(plain.width).toBe(2 * Math.round((1080 * COVER_SHRINK) / 2));
    for (let seed = 0; seed < 500; seed++) {
      const l = planLayout(vert, makeVariation(seed));
      expect(Math.min(l.x, l.y, CANVAS.width - l.x - l.width, CANVAS.height - l.y - l.height)).toBeGreaterThanOrEqual(
        24,
      );
    }
    // A nearly 9:16 phone clip too; a 4:5 clip leaves room by itself.
    expect(planLayout({ width: 720, height: 1284 }, null).shrunk).toBe(true);
    expect(planLayout({ width: 1080, height: 1350 }, null).shrunk).toBe(false);
  });
});

describe('planRender', () => {
  it('one graph, one encode, the delivery settings', () => {
    const args = planRender(base);
    expect(args.filter((a) => a === '-filter_complex')).toHaveLength(1);
    expect(args.filter((a) => a === 'libx264')).toHaveLength(1);
    for (const [flag, value] of [
      ['-preset', 'veryfast'],
      ['-crf', '23'],
      ['-profile:v', 'high'],
      ['-pix_fmt', 'yuv420p'],
      ['-r', '30'],
      ['-c:a', 'aac'],
      ['-ar', '48000'],
      ['-ac', '2'],
      ['-movflags', '+faststart'],
      ['-map_metadata', '-1'],
      ['-f', 'mp4'],
    ] as const) {
      expect(valueOf(args, flag), flag).toBe(value);
    }
    expect(args.at(-1)).toBe('file:/out/o.mp4');
    expect(valueOf(args, '-t')).toBe('10');
  });

  it('photo: decoded once and looped, at 30 fps (no -loop 1)', () => {
    const args = planRender(base);
    expect(args).not.toContain('-loop');
    expect(args.slice(args.indexOf('-framerate'), args.indexOf('-framerate') + 4)).toEqual([
      '-framerate',
      '30',
      '-i',
      'file:/bg/a.jpg',
    ]);
    expect(valueOf(args, '-filter_complex')).toContain('loop=loop=-1:size=1:start=0');
  });

  it('video: looped forever from a seeded start point', () => {
    const v = makeVariation(9);
    const args = planRender({
      ...base,
      background: { kind: 'video', path: '/bg/v.mp4', durationSec: 20 },
      variation: v,
    });
    const i = args.indexOf('-stream_loop');
    expect(args.slice(i - 2, i + 4)).toEqual([
      '-ss',
      String(Math.floor(v.bgStart * 19.5 * 100) / 100),
      '-stream_loop',
      '-1',
      '-i',
      'file:/bg/v.mp4',
    ]);
    expect(planRender({ ...base, background: { kind: 'video', path: '/bg/v.mp4', durationSec: 20 } })).not.toContain(
      '-ss',
    );
  });

  it('blur: a quarter-resolution blurred copy of the clip, no extra input', () => {
    const args = planRender({ ...base, background: { kind: 'blur' } });
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(valueOf(args, '-filter_complex')).toMatch(
      /scale=270:480:force_original_aspect_ratio=increase,crop=270:480,boxblur/,
    );
  });

  it('applies the variation inside the same graph, and silence for a clip without sound', () => {
    const v = makeVariation(3);
    const args = planRender({ ...base, clip: vert, variation: v });
    const g = valueOf(args, '-filter_complex')!;
    expect(g).toContain(`trim=start=${v.trimStartSec}`);
    expect(g).toContain(`setpts=(PTS-STARTPTS)/${v.speed}`);
    expect(g).toMatch(/eq=brightness=/);
    expect(g).toContain('anullsrc=r=48000:cl=stereo');
    expect(g).not.toContain('[0:a]');
    expect(args).toContain(`creation_time=${v.creationTime}`);
    expect(args).toContain(`title=${v.title}`);
    expect(Number(valueOf(args, '-t'))).toBeCloseTo(outputDurationSec(vert, v), 3);
    const withSound = valueOf(planRender({ ...base, variation: v }), '-filter_complex')!;
    expect(withSound).toContain(`atempo=${v.speed}`);
  });

  it('batches several outputs of one clip into one process, decoding the clip once', () => {
    const list = [0, 1, 2].map((i) => ({ ...base, variation: makeVariation(i), out: `/out/${i}.mp4` }));
    const args = planRenderBatch(list);
    expect(args.filter((a) => a === 'libx264')).toHaveLength(3);
    expect(args.filter((a) => a === '-i')).toHaveLength(4);
    expect(valueOf(args, '-filter_complex')).toContain('[0:v]split=3');
    expect(valueOf(args, '-filter_complex')).toContain('[0:a]asplit=3');
    expect(() => planRenderBatch([base, { ...base, clip: vert }])).toThrow(/share one clip/);
  });
});
