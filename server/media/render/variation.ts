/**
 * The uniqueness generator ("isGenerator" on /video/create).
 *
 * What it promises:
 * - Every output of a request gets its own seeded variation: a zoom of 1.00–1.06 and an offset of up to
 *   ±24 px of the clip on the canvas, a small brightness/contrast/saturation change, a playback speed of
 *   0.97–1.03 (picture and sound together, pitch kept), a start trimmed by up to 0.15 s, a different
 *   background (photo/video folders permitting, and a random start point in a background video), and fresh
 *   container metadata (creation_time, title; everything inherited from the upload is stripped).
 * - So the outputs are different files with different pixels (distinct SHA-256; pairwise PSNR well below
 *   45 dB), while the clip itself stays faithful: the clip region keeps an SSIM of at least 0.97 against an
 *   unvaried render (checked by tests/media/render.test.ts).
 * - The same seed gives the same variation, and the same inputs give byte-identical files, so a re-run of
 *   a crashed render reproduces what it would have made.
 *
 * What it does not promise:
 * - It does not make outputs perceptually distinct for content-ID systems: zoom, colour and speed jitter
 *   still match a perceptual fingerprint (MPEG-7 signature, dHash). Only a different background (or a
 *   mirror, which we do not do because it flips text) made outputs perceptually distinct in our
 *   measurements, so with one background item and no generator, outputs will look alike.
 * - It is not a way to "defeat" platform duplicate detection, and it adds no noise by default (noise costs
 *   about +40 % encode time and did not change fingerprint matching).
 */

/** One output's variation. Numbers are applied by render-plan.ts inside the single filter graph. */
export type Variation = {
  seed: number;
  /** Extra scale of the clip, 1.00–1.06, folded into the fit scale (costs nothing). */
  zoom: number;
  /** Offset of the clip's centre on the 1080x1920 canvas, pixels, −24..24. */
  dx: number;
  dy: number;
  /** eq filter: brightness −0.025..0.025, contrast 0.97..1.04, saturation 0.95..1.06. */
  brightness: number;
  contrast: number;
  saturation: number;
  /** Playback speed 0.97–1.03 (setpts on the picture, atempo on the sound). */
  speed: number;
  /** Seconds cut from the start of the clip, 0.03–0.15 (1–4 frames at 30 fps). */
  trimStartSec: number;
  /** Strength of temporal noise (ffmpeg `noise=alls=`); 0 = off, which is the default. */
  noise: number;
  /** Where a background video starts, as a fraction 0..1 of its length. */
  bgStart: number;
  /** Fresh container metadata. */
  creationTime: string;
  title: string;
};

/** mulberry32: a tiny 32-bit seeded PRNG, uniform in [0, 1). Same seed, same sequence, on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes a seed with an index (or any integer) into a new well-spread 32-bit seed. */
export function mixSeed(seed: number, n: number): number {
  let h = (seed ^ Math.imul(n + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * The variation for one output. `now` anchors creation_time (it lands 1–60 minutes before `now`, a
 * believable "recorded just before upload"); pass a fixed date for byte-reproducible files.
 * `noise: true` turns on light temporal noise (off by default, see the header).
 */
export function makeVariation(seed: number, opts: { now?: Date; noise?: boolean } = {}): Variation {
  const r = mulberry32(seed);
  const span = (lo: number, hi: number) => lo + (hi - lo) * r();
  const sign = () => (r() < 0.5 ? -1 : 1);
  const zoom = round(span(1.0, 1.06), 4);
  // Offsets of at least 6 px, so no output sits exactly where the unvaried one would.
  const dx = sign() * Math.round(span(6, 24));
  const dy = sign() * Math.round(span(6, 24));
  const brightness = round(span(-0.025, 0.025), 4);
  const contrast = round(span(0.97, 1.04), 4);
  const saturation = round(span(0.95, 1.06), 4);
  // Speed away from exactly 1 (at least ±0.5 %), so durations differ too.
  const speed = round(1 + sign() * span(0.005, 0.03), 4);
  const trimStartSec = round(Math.round(span(1, 4.49)) / 30, 4);
  const noiseLevel = opts.noise ? Math.round(span(1, 3)) : (r(), 0);
  const bgStart = round(r(), 4);
  const created = new Date((opts.now ?? new Date()).getTime() - Math.round(span(60, 3600)) * 1000);
  created.setUTCMilliseconds(0);
  const creationTime = created.toISOString().replace('.000Z', 'Z');
  const title = `VID_${created.getUTCFullYear()}${pad(created.getUTCMonth() + 1)}${pad(created.getUTCDate())}_${pad(created.getUTCHours())}${pad(created.getUTCMinutes())}${pad(created.getUTCSeconds())}`;
  return {
    seed: seed >>> 0,
    zoom,
    dx,
    dy,
    brightness,
    contrast,
    saturation,
    speed,
    trimStartSec,
    noise: noiseLevel,
    bgStart,
    creationTime,
    title,
  };
}

/**
 * The background of output `index` among `items` (already filtered to the kinds the request allows):
 * a seeded shuffle, walked in order, so outputs 0..n−1 all get different items when there are n of them;
 * past n a fresh shuffle starts (never repeating the previous cycle's last item first, when n > 1).
 * Returns undefined for an empty list.
 */
export function pickBackground<T>(items: readonly T[], seed: number, index: number): T | undefined {
  const n = items.length;
  if (n === 0) return undefined;
  if (n === 1) return items[0];
  const cycle = Math.floor(index / n);
  const perm = shuffledIndexes(n, mixSeed(seed, cycle));
  if (cycle > 0) {
    const prev = shuffledIndexes(n, mixSeed(seed, cycle - 1));
    if (perm[0] === prev[n - 1]) [perm[0], perm[1]] = [perm[1]!, perm[0]!];
  }
  return items[perm[index % n]!];
}

function shuffledIndexes(n: number, seed: number): number[] {
  const r = mulberry32(seed);
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
