/**
 * What the render worker needs from the render layer: probe a clip, and render one output file. The worker
 * only sees this interface; media-render-engine.ts implements it on server/media/render, tests stub it.
 */
/** A background video starts at a seeded point of its length (the variation's), or at 0 without the generator. */
export type Background =
  { kind: 'blur' } | { kind: 'image'; path: string } | { kind: 'video'; path: string; durationSec: number };
export type OutputPlan = {
  index: number;
  seed: number;
  clipPath: string;
  background: Background;
  vary: boolean;
  outPath: string;
};
export type ClipInfo = { duration: number; width: number; height: number; hasAudio: boolean };
export type RenderManyOptions = {
  signal: AbortSignal;
  /** ffmpeg processes at once. */
  concurrency: number;
  /** Progress of the whole set, 0..1. */
  onProgress: (fraction: number) => void;
  /** Each output once its file is final at plan.outPath (error unset) or has failed; awaited before renderMany resolves. */
  onOutput: (index: number, error?: Error) => Promise<void>;
};
export interface RenderEngine {
  probe(path: string): Promise<ClipInfo>;
  /**
   * Renders every plan (all of one clip). Each file appears at its outPath only when complete (temp + rename).
   * Resolves when all have settled (a failed output is reported through onOutput); rejects on abort.
   */
  renderMany(plans: OutputPlan[], clip: ClipInfo, opts: RenderManyOptions): Promise<void>;
}
