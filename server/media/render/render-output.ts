import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MediaError, type Ffmpeg } from '../ffmpeg/ffmpeg';
import { outputDurationSec, planRender, planRenderBatch, type EncodeTuning, type RenderOptions } from './render-plan';

export type RenderCallbacks = {
  /** 0..1, never decreasing; 1 once the file is in place. */
  onProgress?: (fraction: number) => void;
  /** Aborting kills ffmpeg; the promise rejects with MediaError('aborted') and nothing is left on disk. */
  signal?: AbortSignal;
  tuning?: EncodeTuning;
};

/** A temp name beside `out` (same directory, so same filesystem: the final rename is atomic). Hidden, and not *.mp4. */
export function tempPathFor(out: string): string {
  return join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.part`);
}

/** Flushes a finished file to disk before it gets its final name, so a power cut never leaves a named but empty file. */
async function fsyncFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Renders one output. ffmpeg writes a temp file beside `opts.out`; only when it exits successfully is the
 * file flushed and renamed to `opts.out` (replacing an older one atomically). On failure or abort the temp
 * file is removed, so a half-written file never appears under the final name.
 */
export async function renderOutput(ffmpeg: Ffmpeg, opts: RenderOptions, cb: RenderCallbacks = {}): Promise<void> {
  await renderGroup(ffmpeg, [opts], cb);
}

/**
 * Renders several outputs of one clip in one ffmpeg process (render-plan.ts planRenderBatch), with the
 * same temp-then-rename guarantee for each file. All or nothing: if ffmpeg fails, no output is kept.
 * @internal used by renderOutput and renderBatch
 */
export async function renderGroup(
  ffmpeg: Ffmpeg,
  list: readonly RenderOptions[],
  cb: RenderCallbacks = {},
): Promise<void> {
  if (cb.signal?.aborted) throw new MediaError('aborted', 'render aborted before start', { cause: cb.signal.reason });
  const temps = list.map((o) => tempPathFor(o.out));
  const planned = list.map((o, i) => ({ ...o, out: temps[i]! }));
  const args = planned.length === 1 ? planRender(planned[0]!, cb.tuning) : planRenderBatch(planned, cb.tuning);
  const durationSec = Math.max(...list.map((o) => outputDurationSec(o.clip, o.variation)));
  try {
    await ffmpeg.run(args, {
      durationSec,
      signal: cb.signal,
      // run() reports 1 when ffmpeg exits; hold 1 back until the files are in place.
      onProgress: cb.onProgress ? (f) => f < 1 && cb.onProgress!(f) : undefined,
    });
    await Promise.all(temps.map(fsyncFile));
    if (cb.signal?.aborted) throw new MediaError('aborted', 'render aborted', { cause: cb.signal.reason });
    for (let i = 0; i < list.length; i++) await rename(temps[i]!, list[i]!.out);
  } catch (err) {
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    throw err;
  }
  cb.onProgress?.(1);
}
