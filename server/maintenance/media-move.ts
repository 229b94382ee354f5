import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/index';
import type { Storage } from '../media/storage/index';
import type { MediaManifest } from './media-manifest';
import { knownMediaKeys, mediaKeys } from './media-keys';

/** What happened to one object in a run. */
export type ObjectOutcome =
  /** copied now, and read back from the target with the same size and SHA-256 */
  | 'copied'
  /** verified by an earlier run and still the same on both sides */
  | 'skipped'
  /** a row names it but the source has no such file */
  | 'missing'
  /** the target's copy differs from the source (after this copy, or one an earlier run verified) */
  | 'mismatch'
  /** the copy or its check failed (the error is in the report) */
  | 'failed';

export type MediaMoveReport = {
  /** Keys the database named during the run (each once). */
  known: number;
  copied: number;
  skipped: number;
  bytesCopied: number;
  missing: string[];
  /** Objects found different on the target: copied again when that succeeded, else also in `failed`. */
  mismatched: string[];
  failed: { key: string; error: string }[];
  /** Stopped by the signal before every key was seen: run again to resume. */
  interrupted: boolean;
};

export type MediaMoveOptions = {
  db: Db;
  /** Where the installation keeps its media now (local disk). */
  source: Storage;
  /** Where it is to keep it (the S3 bucket). */
  target: Storage;
  manifest: MediaManifest;
  /** Objects copied at once (4). */
  concurrency?: number;
  /** Re-read and hash every object an earlier run verified, not only compare its size (slower: reads all). */
  verifyAll?: boolean;
  /** Aborting it stops the run: copies under way are cut (their uploads aborted), nothing half-made is kept. */
  signal?: AbortSignal;
  onObject?: (key: string, outcome: ObjectOutcome, size: number) => void;
};

/**
 * Copies every media object the database names from `source` to `target`, and nothing else (stray files on
 * disk are not the installation's). Each object is streamed (never held whole), hashed on its way out, then
 * read back from the target and compared by size and SHA-256 before it is recorded in the manifest. A run
 * skips what the manifest holds as long as the source file is unchanged (same size and mtime) and the target
 * still has it at that size (`verifyAll`: the same hash); so a run that was stopped resumes, and a run after
 * the installation kept writing copies only what is new or changed. Nothing is switched: the installation
 * keeps reading and writing `source` throughout.
 */
export async function moveMedia(opts: MediaMoveOptions): Promise<MediaMoveReport> {
  const { db, source, target, manifest, signal } = opts;
  const report: MediaMoveReport = {
    known: 0,
    copied: 0,
    skipped: 0,
    bytesCopied: 0,
    missing: [],
    mismatched: [],
    failed: [],
    interrupted: false,
  };
  const keys = mediaKeys(db)[Symbol.asyncIterator]();
  const note = (key: string, outcome: ObjectOutcome, size: number) => opts.onObject?.(key, outcome, size);

  const moveOne = async (key: string) => {
    const stat = await source.stat(key);
    if (!stat) {
      // Deleted since it was listed (its row first, then its file): not the installation's any more.
      if ((await knownMediaKeys(db, [key])).has(key)) {
        report.missing.push(key);
        note(key, 'missing', 0);
      }
      return;
    }
    const done = manifest.get(key);
    if (done && done.size === stat.size && done.mtimeMs === stat.mtime.getTime()) {
      const there = opts.verifyAll ? await digestOf(target, key) : await target.stat(key);
      if (
        there &&
        there.size === done.size &&
        (!opts.verifyAll || ('sha256' in there && there.sha256 === done.sha256))
      ) {
        report.skipped++;
        note(key, 'skipped', done.size);
        return;
      }
      report.mismatched.push(key);
      note(key, 'mismatch', done.size);
      await manifest.drop(key);
    }
    const sent = await copy(source, target, key, signal);
    const back = await digestOf(target, key);
    if (!back || back.size !== sent.size || back.sha256 !== sent.sha256) {
      report.mismatched.push(key);
      note(key, 'mismatch', sent.size);
      throw new Error(
        `the target's copy differs: sent ${sent.size} bytes sha256 ${sent.sha256}, read back ` +
          (back ? `${back.size} bytes sha256 ${back.sha256}` : 'nothing'),
      );
    }
    await manifest.add({ key, size: sent.size, sha256: sent.sha256, mtimeMs: stat.mtime.getTime() });
    report.copied++;
    report.bytesCopied += sent.size;
    note(key, 'copied', sent.size);
  };

  const worker = async () => {
    while (!signal?.aborted) {
      const next = await keys.next();
      if (next.done) return;
      report.known++;
      try {
        await moveOne(next.value);
      } catch (err) {
        if (signal?.aborted) return;
        report.failed.push({ key: next.value, error: (err as Error).message });
        note(next.value, 'failed', 0);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  report.interrupted = !!signal?.aborted;
  if (report.interrupted) await keys.return?.();
  return report;
}

type Digest = { size: number; sha256: string };

/** A stream that hashes and counts what passes through it. */
function hashing(): { stream: Transform; digest: () => Digest } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  return { stream, digest: () => ({ size, sha256: hash.digest('hex') }) };
}

/** Streams `key` from source to target, hashing the bytes on their way; the signal cuts the copy. */
async function copy(source: Storage, target: Storage, key: string, signal?: AbortSignal): Promise<Digest> {
  const body: Readable = await source.createReadStream(key);
  const { stream, digest } = hashing();
  const cut = () => body.destroy(new Error('media move interrupted'));
  signal?.addEventListener('abort', cut, { once: true });
  try {
    // Both settle before this returns: a cut upload has been aborted on the target by the time the run ends.
    const [stored, piped] = await Promise.allSettled([target.put(key, stream), pipeline(body, stream)]);
    for (const r of [stored, piped]) if (r.status === 'rejected') throw r.reason;
  } finally {
    signal?.removeEventListener('abort', cut);
    body.destroy();
  }
  return digest();
}

/** The size and SHA-256 of the object at `key` as `storage` gives it back, or null when it has none. */
async function digestOf(storage: Storage, key: string): Promise<Digest | null> {
  let body: Readable;
  try {
    body = await storage.createReadStream(key);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}
