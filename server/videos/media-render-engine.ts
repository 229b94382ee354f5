import { MediaError, type Ffmpeg } from '../media/ffmpeg/ffmpeg';
import { makeVariation } from '../media/render/variation';
import { renderBatch } from '../media/render/render-batch';
import type { BackgroundInput, ClipInput, RenderOptions } from '../media/render/render-plan';
import type { Background, ClipInfo, OutputPlan, RenderEngine } from './render-engine';

/**
 * The render worker's engine on the shared render layer (server/media/render): planRender's filter graph
 * and makeVariation's seeded jitter, renderBatch's grouping (several outputs per ffmpeg process, each
 * file written to a temp name and renamed when final).
 */
export function mediaRenderEngine(ffmpeg: Ffmpeg, opts: { outputsPerProcess?: number } = {}): RenderEngine {
  const bgOf = (b: Background): BackgroundInput =>
    b.kind === 'blur'
      ? { kind: 'blur' }
      : b.kind === 'image'
        ? { kind: 'photo', path: b.path }
        : { kind: 'video', path: b.path, durationSec: b.durationSec };
  return {
    async probe(path) {
      const p = await ffmpeg.probe(path);
      if (!(p.width > 0 && p.height > 0)) throw new MediaError('no_video', 'no video stream');
      return { duration: p.durationSec, width: p.width, height: p.height, hasAudio: p.hasAudio };
    },
    async renderMany(plans: OutputPlan[], clip: ClipInfo, { signal, concurrency, onProgress, onOutput }) {
      const clipInput: ClipInput = {
        path: plans[0]?.clipPath ?? '',
        width: clip.width,
        height: clip.height,
        durationSec: clip.duration,
        hasAudio: clip.hasAudio,
      };
      const list: RenderOptions[] = plans.map((p) => ({
        clip: clipInput,
        background: bgOf(p.background),
        variation: p.vary ? makeVariation(p.seed) : null,
        out: p.outPath,
      }));
      // Outputs are recorded in order of completion; a failure in recording (e.g. the disk) fails the batch.
      let chain = Promise.resolve();
      let recordError: unknown;
      await renderBatch(ffmpeg, list, {
        signal,
        concurrency,
        outputsPerProcess: opts.outputsPerProcess,
        onProgress,
        onOutput: (r) => {
          chain = chain
            .then(() => onOutput(plans[r.index]!.index, r.ok ? undefined : r.error))
            .catch((e) => {
              recordError ??= e;
            });
        },
      }).finally(() => chain);
      await chain;
      if (recordError) throw recordError;
    },
  };
}
