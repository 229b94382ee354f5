import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Media } from '../media/storage/index';
import type { BackgroundLibrary, FolderItemForRender } from '../backgrounds/index';
import { PermanentJobError, type JobHandler } from '../jobs/index';
import type { RenderCancels } from './render-cancels';
import { saveRenderOutput, saveRenderState, type RenderWrites } from './render-report';
import { pickBackground } from '../media/render/variation';
import type { Background, ClipInfo, OutputPlan, RenderEngine } from './render-engine';
import type { RequestRow, VideosRepository } from './videos.repository';
import { outputKeyOf, workDirOf } from './video-files';
import { RM } from '../../src/contract/media';

export type RenderDeps = RenderWrites & {
  cancels: RenderCancels;
  media: Media;
  backgrounds: BackgroundLibrary;
  engine: RenderEngine;
  workRoot: string;
  concurrency: number;
  log?: FastifyBaseLogger;
};

/** Readable reasons stored on a failed request (i18n keys; the panel translates them). */
export const RENDER_ERRORS = {
  clipUnreadable: 'kadr.videos.errors.clip_unreadable',
  noBackgrounds: 'kadr.videos.errors.no_backgrounds',
  renderFailed: 'kadr.videos.errors.render_failed',
  clipRemoved: RM.clipRemoved,
} as const;

/** A 32-bit seed per (request, output): stable across re-runs, different for every output. */
export const seedOf = (idUpload: string, index: number) =>
  createHash('sha256').update(`${idUpload}:${index}`).digest().readUInt32LE(0);

/**
 * Backgrounds per output: isPhoto → a picture; isVideo → a background video (looped; the generator picks
 * its start); both → outputs alternate picture / video (even indexes pictures, odd videos; when the folders
 * hold only one kind, that kind); neither → a blurred copy of the clip. Within a kind, pickBackground walks
 * a seeded shuffle, so outputs get different backgrounds as long as the folders hold enough of them.
 * `local` gives the picked item's file for ffmpeg (asked once per item: on S3 it is a download).
 */
export async function planBackgrounds(
  req: Pick<RequestRow, 'idUpload' | 'count' | 'isPhoto' | 'isVideo'>,
  items: FolderItemForRender[],
  probe: (p: string) => Promise<ClipInfo>,
  local: (key: string) => Promise<string>,
): Promise<Background[]> {
  if (!req.isPhoto && !req.isVideo) return Array.from({ length: req.count }, () => ({ kind: 'blur' as const }));
  const images = req.isPhoto ? items.filter((i) => i.type === 'image') : [];
  const videos = req.isVideo ? items.filter((i) => i.type === 'video') : [];
  if (!images.length && !videos.length) throw new PermanentJobError(RENDER_ERRORS.noBackgrounds);
  const seed = seedOf(req.idUpload, -1);
  const paths = new Map<string, Promise<string>>();
  const pathOf = (key: string) => paths.get(key) ?? paths.set(key, local(key)).get(key)!;
  const durations = new Map<string, number>();
  const used = { image: 0, video: 0 };
  const out: Background[] = [];
  for (let i = 0; i < req.count; i++) {
    const wantVideo = videos.length > 0 && (!images.length || i % 2 === 1);
    if (!wantVideo) {
      out.push({ kind: 'image', path: await pathOf(pickBackground(images, seed, used.image++)!.key) });
      continue;
    }
    const path = await pathOf(pickBackground(videos, seed ^ 0x5bd1e995, used.video++)!.key);
    if (!durations.has(path))
      durations.set(
        path,
        await probe(path).then(
          (c) => c.duration,
          () => 0,
        ),
      );
    out.push({ kind: 'video', path, durationSec: durations.get(path)! });
  }
  return out;
}

/**
 * The 'video.render' job: renders every output of the request that is not recorded yet. Crash safety:
 * output i always goes to the same storage key (outputKeyOf) through an atomic rename, and is recorded by
 * a unique (request, index) row, so a re-run skips what exists and overwrites what was half done. ffmpeg reads
 * and writes in the request's scratch folder (the clip and the picked backgrounds are downloaded there when
 * storage is S3; outputs are written there and then stored), which is wiped when the job starts and ends.
 */
export function renderHandler(deps: RenderDeps): JobHandler<{ requestId: number }> {
  const { repo } = deps;
  return async ({ requestId }, { signal, job }) => {
    const req = await repo.get(null, { id: requestId });
    if (!req || req.status === 'success') return; // deleted meanwhile, or finished by an earlier run
    const ac = new AbortController();
    const forward = () => ac.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    const unregister = deps.cancels.register(requestId, ac);
    const work = workDirOf(deps.workRoot, requestId);
    const run = join(work, randomBytes(4).toString('hex'));
    let lastWrite = 0;
    try {
      await rm(work, { recursive: true, force: true });
      // A fresh sub-folder per run: an ffmpeg orphaned by a killed process can never touch this run's files.
      await mkdir(run, { recursive: true });
      const already = new Set((await repo.outputs(requestId)).map((o) => o.outputIndex));
      const started = await saveRenderState(deps, requestId, {
        status: 'loading',
        error: null,
        progress: Math.floor((already.size / req.count) * 100),
      });
      // Refused once retention removed the clip (server/media/retention): nothing to render from.
      if (!started) {
        if (!(await repo.get(null, { id: requestId }))) return;
        throw new PermanentJobError(RENDER_ERRORS.clipRemoved);
      }
      const unreadable = (err: unknown) =>
        new PermanentJobError(`${RENDER_ERRORS.clipUnreadable}: ${(err as Error).message}`);
      const clipPath = await deps.media.storage.inputPath(req.clipKey, run).catch((err) => {
        throw (err as NodeJS.ErrnoException).code === 'ENOENT' ? unreadable(err) : err;
      });
      const clip = await deps.engine.probe(clipPath).catch((err) => {
        throw unreadable(err);
      });
      const items =
        req.isPhoto || req.isVideo ? await deps.backgrounds.listFolderItems(JSON.parse(req.folders), null) : [];
      const backgrounds = await planBackgrounds(
        req,
        items,
        (p) => deps.engine.probe(p),
        (key) => deps.media.storage.inputPath(key, run),
      );
      const todo: OutputPlan[] = [];
      for (let i = 0; i < req.count; i++) {
        if (already.has(i)) continue;
        todo.push({
          index: i,
          seed: seedOf(req.idUpload, i),
          clipPath,
          background: backgrounds[i]!,
          vary: !!req.isGenerator,
          outPath: join(run, `${i}.mp4`),
        });
      }
      const base = already.size;
      const report = (fraction: number, force = false) => {
        const now = Date.now();
        if (!force && now - lastWrite < 500) return;
        lastWrite = now;
        const sum = Math.max(already.size, base + fraction * todo.length);
        const progress = Math.min(99, Math.floor((sum / req.count) * 100));
        void saveRenderState(deps, requestId, { progress }).catch(() => {});
      };
      const failures: string[] = [];
      // Outputs are recorded one by one as their files become final: a crash keeps every finished one.
      await deps.engine
        .renderMany(todo, clip, {
          signal: ac.signal,
          concurrency: deps.concurrency,
          onProgress: (f) => report(f),
          onOutput: async (index, error) => {
            if (error) {
              failures.push(`output ${index}: ${error.message}`);
              return;
            }
            const key = outputKeyOf(req.userId, req.idUpload, index);
            const { size } = await deps.media.storage.putFile(key, todo.find((p) => p.index === index)!.outPath);
            if (!(await saveRenderOutput(deps, req, index, { key, size }))) {
              await deps.media.storage.delete(key); // the request was deleted while this output rendered
              ac.abort('cancelled');
              return;
            }
            already.add(index);
            report(0, true);
          },
        })
        .catch(async (err) => {
          if (ac.signal.aborted && !(await repo.get(null, { id: requestId }))) return; // deleted: nothing left to record
          throw err;
        });
      if (ac.signal.aborted) {
        if (!(await repo.get(null, { id: requestId }))) return;
        throw new Error(`render aborted (${String(ac.signal.reason)})`);
      }
      if (failures.length) throw new Error(failures.join('; '));
      const outputs = await repo.outputs(requestId);
      if (outputs.length !== req.count) throw new Error(`expected ${req.count} outputs, found ${outputs.length}`);
      await saveRenderState(deps, requestId, { status: 'success', progress: 100, error: null });
    } catch (err) {
      if (!ac.signal.aborted) {
        const message = err instanceof Error ? err.message : String(err);
        const last = err instanceof PermanentJobError || job.attempts >= job.maxAttempts;
        deps.log?.warn({ requestId, attempt: job.attempts, error: message }, 'render failed');
        if (last) await saveRenderState(deps, requestId, { status: 'error', error: readable(message) }).catch(() => {});
      }
      throw err;
    } finally {
      signal.removeEventListener('abort', forward);
      unregister();
      await rm(work, { recursive: true, force: true }).catch(() => {});
    }
  };
}

/**
 * For a render job that went dead: when the handler could not say so itself (the worker was lost during the
 * last attempt) the request turns 'error' with a readable reason instead of staying 'loading'; a reason the
 * handler stored is kept. The scratch folder goes.
 */
export function renderDead(
  deps: Pick<RenderDeps, 'repo' | 'events' | 'workRoot'>,
): (payload: { requestId: number }) => Promise<void> {
  const { repo } = deps;
  return async ({ requestId }) => {
    const req = await repo.get(null, { id: requestId });
    if (req && req.status !== 'success' && req.status !== 'error')
      await saveRenderState(deps, requestId, { status: 'error', error: RENDER_ERRORS.renderFailed });
    await rm(workDirOf(deps.workRoot, requestId), { recursive: true, force: true });
  };
}

/** The stored reason: one of RENDER_ERRORS (the detail stays in the job's last_error). */
function readable(message: string): string {
  const known = Object.values(RENDER_ERRORS).find((k) => message.startsWith(k));
  return known ?? RENDER_ERRORS.renderFailed;
}

/** On worker start: scratch folders of requests that no longer exist are removed. */
export async function sweepWork(repo: VideosRepository, workRoot: string): Promise<number> {
  await mkdir(workRoot, { recursive: true });
  const names = (await readdir(workRoot)).filter((n) => /^\d+$/.test(n));
  const alive = await repo.existing(names.map(Number));
  let removed = 0;
  for (const n of names) {
    if (alive.has(Number(n))) continue;
    await rm(join(workRoot, n), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
