import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Ffmpeg } from '../server/media/ffmpeg/ffmpeg';
import { BATCH_DEFAULTS, renderBatch, type BatchOptions } from '../server/media/render/render-batch';
import { renderOutput } from '../server/media/render/render-output';
import { planLayout, type RenderOptions } from '../server/media/render/render-plan';
import { makeVariation } from '../server/media/render/variation';
import { FFMPEG, FFPROBE, makeMediaFixtures, psnr } from '../tests/helpers/media-fixtures';

/**
 * Render bench (`npm run bench`, or alone:
 * `npx tsx -e "import('./bench/render.bench.ts').then(m=>m.renderBench())"`), on 5-second generated inputs:
 * (a) one output through renderOutput against the same picture made by one hand-written ffmpeg command
 *     (the floor: no Node, no temp file, no rename); target ratio ≤ 1.10x;
 * (b) 4 outputs (generator on, 4 different photo backgrounds) with the batching strategies, against 4
 *     single renders in sequence; target ≥ 25 % faster for renderBatch's defaults (the worker's).
 * Timings alternate between contenders in rounds, and the median is printed.
 */

const ROUNDS = Number(process.env.RENDER_BENCH_ROUNDS ?? 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pad = (s: string, n: number) => s.padEnd(n);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);

function spawnFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-2000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exit ${code}: ${err}`))));
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function renderBench(): Promise<void> {
  const ffmpeg = new Ffmpeg({ ffmpegPath: FFMPEG, ffprobePath: FFPROBE });
  const fx = await makeMediaFixtures({ durationSec: 5, bgDurationSec: 8 });
  try {
    const p = await ffmpeg.probe(fx.landscape);
    const clip = {
      path: fx.landscape,
      width: p.width,
      height: p.height,
      durationSec: p.durationSec,
      hasAudio: p.hasAudio,
    };
    const out = (name: string) => join(fx.dir, name);
    console.log(
      `render bench: ${cpus().length} CPU(s), ${cpus()[0]?.model.trim() ?? '?'}; clip ${p.width}x${p.height} ${p.durationSec.toFixed(1)} s with sound; ${ROUNDS} rounds, medians`,
    );

    // (a) renderOutput against the floor: the same picture (photo background, no variation) by hand.
    const plain: RenderOptions = {
      clip,
      background: { kind: 'photo', path: fx.jpeg },
      variation: null,
      out: out('a-kadr.mp4'),
    };
    const L = planLayout(clip, null);
    const floorArgs = [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-i',
      fx.landscape,
      '-framerate',
      '30',
      '-i',
      fx.jpeg,
      '-filter_complex',
      `[1:v]scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,setsar=1,format=yuv420p,loop=loop=-1:size=1:start=0[bg];` +
        `[0:v]fps=30,scale=${L.width}:${L.height},setsar=1[fg];[bg][fg]overlay=(W-w)/2:(H-h)/2,format=yuv420p[v]`,
      '-map',
      '[v]',
      '-map',
      '0:a',
      '-t',
      String(clip.durationSec),
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
      '30',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      '-map_metadata',
      '-1',
      out('a-floor.mp4'),
    ];
    const varied: RenderOptions = { ...plain, variation: makeVariation(7), out: out('a-varied.mp4') };
    const ta: Record<'kadr' | 'floor' | 'varied', number[]> = { kadr: [], floor: [], varied: [] };
    for (let r = 0; r < 2 * ROUNDS; r++) {
      // single renders are short: twice the rounds, for a steadier median
      ta.floor.push(await timed(() => spawnFfmpeg(floorArgs)));
      ta.kadr.push(await timed(() => renderOutput(ffmpeg, plain)));
      ta.varied.push(await timed(() => renderOutput(ffmpeg, varied)));
    }
    const same = await psnr(plain.out, out('a-floor.mp4'));
    const ratio = median(ta.kadr) / median(ta.floor);
    console.log('(a) one output, photo background, 5 s clip');
    console.log(`    ${pad('hand-written ffmpeg command (floor)', 44)}${secs(median(ta.floor))}`);
    console.log(
      `    ${pad('renderOutput, no variation', 44)}${secs(median(ta.kadr))}   ratio ${ratio.toFixed(2)}x (target <= 1.10x)  ${ratio <= 1.1 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `    ${pad('renderOutput, generator on', 44)}${secs(median(ta.varied))}   ratio ${(median(ta.varied) / median(ta.floor)).toFixed(2)}x`,
    );
    console.log(
      `    ${pad('same picture as the floor (PSNR)', 44)}${same === Infinity ? 'identical' : `${same.toFixed(1)} dB`}`,
    );

    // (b) 4 outputs of one request.
    const photos = [fx.jpeg, fx.png, fx.webp, fx.jpeg];
    const four = (tag: string): RenderOptions[] =>
      photos.map((path, i) => ({
        clip,
        background: { kind: 'photo', path },
        variation: makeVariation(1000 + i),
        out: out(`b-${tag}-${i}.mp4`),
      }));
    const strategies: Array<[name: string, opts: BatchOptions]> = [
      ['4 in sequence, 1 process each (baseline)', { concurrency: 1, outputsPerProcess: 1 }],
      ['2 processes at a time, 2 outputs each', { concurrency: 2, outputsPerProcess: 2 }],
      ['1 process, 4 outputs (split)', { concurrency: 1, outputsPerProcess: 4 }],
      [`${BATCH_DEFAULTS.concurrency} processes at a time, 1 output each, 1 x264 thread`, {}], // renderBatch's defaults
    ];
    const tb = strategies.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, [name, opts]] of strategies.entries()) {
        const list = four(String(k));
        tb[k]!.push(
          await timed(async () => {
            const res = await renderBatch(ffmpeg, list, opts);
            const bad = res.find((x) => !x.ok);
            if (bad && !bad.ok) throw new Error(`${name}: ${bad.error.message}`);
          }),
        );
      }
    }
    const base = median(tb[0]!);
    console.log('(b) 4 outputs, generator on, 4 photo backgrounds, 5 s clip');
    for (const [k, [name, opts]] of strategies.entries()) {
      const m = median(tb[k]!);
      const chosen = Object.keys(opts).length === 0;
      const faster = ((base - m) / base) * 100;
      console.log(
        `    ${pad(name, 44)}${secs(m)}   ${k === 0 ? '' : `${faster >= 0 ? faster.toFixed(0) + ' % faster' : (-faster).toFixed(0) + ' % slower'}`}` +
          `${chosen ? `   <- renderBatch default (target >= 25 %) ${faster >= 25 ? 'OK' : 'MISSED'}` : ''}`,
      );
    }
  } finally {
    await fx.cleanup();
  }
}
