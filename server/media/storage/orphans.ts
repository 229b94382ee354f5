import type { Storage } from './storage';

/** Age under which an unreferenced file is left alone: it may be a write whose row is being committed now. */
export const ORPHAN_MIN_AGE_MS = 6 * 3600_000;

/**
 * Removes media files that no row refers to and that are older than `minAgeMs`: what a crash leaves when it
 * comes between moving a file into place and committing the row that names it (or a delete whose file
 * removal failed). `known(keys)` answers which of the keys the database still refers to; it is asked in
 * batches. Returns the removed keys.
 */
export async function sweepOrphans(
  storage: Storage,
  prefixes: readonly string[],
  known: (keys: string[]) => Promise<Set<string>>,
  opts: { minAgeMs?: number; now?: number; batch?: number } = {},
): Promise<string[]> {
  const cutoff = (opts.now ?? Date.now()) - (opts.minAgeMs ?? ORPHAN_MIN_AGE_MS);
  const batchSize = opts.batch ?? 500;
  const removed: string[] = [];
  let batch: string[] = [];
  const flush = async () => {
    const keep = await known(batch);
    for (const key of batch) {
      if (keep.has(key)) continue;
      await storage.delete(key);
      removed.push(key);
    }
    batch = [];
  };
  for (const prefix of prefixes) {
    for await (const { key, mtime } of storage.list(prefix)) {
      if (mtime.getTime() > cutoff) continue;
      batch.push(key);
      if (batch.length >= batchSize) await flush();
    }
  }
  if (batch.length) await flush();
  return removed;
}
