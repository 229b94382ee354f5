import { availableParallelism } from 'node:os';
import { MediaError, type Ffmpeg } from '../ffmpeg/ffmpeg';
import { renderGroup } from './render-output';
import { outputDurationSec, type EncodeTuning, type RenderOptions } from './render-plan';

/**
 * How the worker renders the N outputs of a request (measured by bench/render.bench.ts on 2 vCPUs):
 * one ffmpeg process per output, `concurrency` of them at a time, each with a single-threaded x264.
 * An ffmpeg filter graph runs on one thread, and x264's frame threads cost more CPU per frame than one
 * thread does, so several single-threaded processes keep the cores busier, and do less work for the same
 * files, than one process with several outputs or one multi-threaded encode after another: on 2 vCPUs,
 * 4 processes at a time render 4 outputs 11-18 % faster than 4 single renders in sequence (one process
 * with the 4 outputs split: 6-7 %). x264 is most of the work and outputs share only the clip's decode.
 * A lone output (one lane) keeps x264's own threading. Grouping several outputs into one process
 * (`outputsPerProcess`, the clip decoded once and split) stays available; if a group's process fails
 * (not an abort), its outputs are retried one by one, so a single bad background costs only its output.
 */
export const defaultRenderConcurrency = (cores = availableParallelism()) => Math.min(8, Math.max(2, 2 * cores));
export const BATCH_DEFAULTS = { concurrency: defaultRenderConcurrency(), outputsPerProcess: 1 } as const;

export type BatchResult =
  { index: number; out: string; ok: true } | { index: number; out: string; ok: false; error: MediaError };

export type BatchOptions = {
  /** ffmpeg processes at a time (default: twice the cores, 2 to 8). */
  concurrency?: number;
  /** Outputs rendered by one ffmpeg process (default 1). */
  outputsPerProcess?: number;
  /** Overall progress 0..1 (weighted by output length), never decreasing. */
  onProgress?: (fraction: number) => void;
  /** Each output as soon as it is final (in place under its name) or has failed. */
  onOutput?: (result: BatchResult) => void;
  /** Aborting kills every running ffmpeg, removes temp files, and rejects with MediaError('aborted'). */
  signal?: AbortSignal;
  /** Default: x264 on one thread per output whenever more than one process runs at a time. */
  tuning?: EncodeTuning;
};

/**
 * Renders every output of `optsList` (all of one clip). Resolves with one result per output, in input
 * order: a failed output does not fail the others. Rejects only on abort (outputs already finished stay).
 */
export async function renderBatch(
  ffmpeg: Ffmpeg,
  optsList: readonly RenderOptions[],
  opts: BatchOptions = {},
): Promise<BatchResult[]> {
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? BATCH_DEFAULTS.concurrency));
  const perProcess = Math.max(1, Math.floor(opts.outputsPerProcess ?? BATCH_DEFAULTS.outputsPerProcess));
  const { signal } = opts;
  const results: BatchResult[] = new Array(optsList.length);
  const weights = optsList.map((o) => outputDurationSec(o.clip, o.variation));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const done = new Array<number>(optsList.length).fill(0);
  let reported = 0;
  const report = () => {
    if (!opts.onProgress) return;
    const f = done.reduce((a, d, i) => a + d * weights[i]!, 0) / total;
    if (f > reported) {
      reported = f;
      opts.onProgress(f);
    }
  };
  const settle = (r: BatchResult) => {
    results[r.index] = r;
    done[r.index] = 1;
    report();
    opts.onOutput?.(r);
  };

  const groups: number[][] = [];
  for (let i = 0; i < optsList.length; i += perProcess)
    groups.push(Array.from({ length: Math.min(perProcess, optsList.length - i) }, (_, k) => i + k));

  const lanes = Math.min(concurrency, groups.length);
  const tuning = opts.tuning ?? (lanes > 1 ? { x264Threads: 1 } : undefined);

  const runGroup = async (idx: number[]): Promise<void> => {
    const list = idx.map((i) => optsList[i]!);
    const onProgress = (f: number) => {
      for (const i of idx) done[i] = Math.max(done[i]!, Math.min(f, 0.999));
      report();
    };
    try {
      await renderGroup(ffmpeg, list, { signal, onProgress, tuning });
      for (const i of idx) settle({ index: i, out: optsList[i]!.out, ok: true });
    } catch (err) {
      if (signal?.aborted || (err instanceof MediaError && err.code === 'aborted')) throw err;
      if (idx.length === 1) {
        settle({ index: idx[0]!, out: optsList[idx[0]!]!.out, ok: false, error: asMediaError(err) });
        return;
      }
      // One process for several outputs failed: find out which output is at fault by rendering each alone.
      for (const i of idx) done[i] = 0;
      for (const i of idx) await runGroup([i]);
    }
  };

  let next = 0;
  const lane = async () => {
    while (next < groups.length) {
      if (signal?.aborted) throw new MediaError('aborted', 'render aborted', { cause: signal.reason });
      await runGroup(groups[next++]!);
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: lanes }, lane));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}

function asMediaError(err: unknown): MediaError {
  return err instanceof MediaError
    ? err
    : new MediaError('failed', err instanceof Error ? err.message : String(err), { cause: err });
}
