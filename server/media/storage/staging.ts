import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Staged } from './storage';

/** A stream written whole to a local staging file: where it is, how long, and its first bytes. */
export type StagedFile = { path: string; size: number; head: Buffer };

/**
 * A local folder of staging files: uploads land here before they are checked and committed, and tools such
 * as ffmpeg write their output here before it is stored. LocalStorage keeps it inside its root (same
 * filesystem, so a commit is a rename); S3Storage keeps it in a scratch folder and uploads from it.
 */
export class StagingDir {
  /** Creates the folder when missing, so every path `tempPath` gives can be written at once. */
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** A fresh path in the folder (not created), ending in `.ext` when given. */
  tempPath(ext = ''): string {
    return join(
      this.dir,
      `${Date.now().toString(36)}-${randomBytes(9).toString('base64url')}.part${ext ? '.' + ext.replace(/^\./, '') : ''}`,
    );
  }

  /**
   * Streams `body` into a new staging file (flushed to disk before it resolves), keeping its first
   * `sniffBytes` bytes (default 4100). On a stream error the file is removed and the promise rejects.
   */
  async write(body: Readable, opts: { ext?: string; sniffBytes?: number } = {}): Promise<StagedFile> {
    const path = this.tempPath(opts.ext);
    const want = opts.sniffBytes ?? 4100;
    const head: Buffer[] = [];
    let headLen = 0;
    let size = 0;
    const counter = new Transform({
      highWaterMark: 1 << 20,
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (headLen < want) {
          const part = chunk.subarray(0, want - headLen);
          head.push(Buffer.from(part));
          headLen += part.length;
        }
        cb(null, chunk);
      },
    });
    const out = createWriteStream(path, { flush: true, highWaterMark: 1 << 20 });
    try {
      await pipeline(body, counter, out);
    } catch (err) {
      // A body that fails early can fail before the file is even open: wait until the stream has opened and
      // closed it, or the file would appear after its removal.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(path, { force: true });
      throw err;
    }
    return { path, size, head: Buffer.concat(head) };
  }

  /** Removes entries (files or scratch folders) older than `maxAgeMs`: what a crash left. Returns how many. */
  async sweep(maxAgeMs: number): Promise<number> {
    let removed = 0;
    const now = Date.now();
    for (const name of await readdir(this.dir)) {
      const p = join(this.dir, name);
      try {
        const s = await stat(p);
        if (now - s.mtimeMs > maxAgeMs) {
          await rm(p, { force: true, recursive: true });
          removed++;
        }
      } catch {
        /* raced with its owner */
      }
    }
    return removed;
  }
}

/** The Staged handle of a staging file: `commit` moves it under a key once (`moveTo`), `discard` removes it. */
export function stagedHandle(file: StagedFile, moveTo: (key: string, path: string) => Promise<void>): Staged {
  let done = false;
  return {
    ...file,
    async commit(key: string) {
      if (done) throw new Error('staged file already committed or discarded');
      await moveTo(key, file.path);
      done = true;
    },
    async discard() {
      done = true;
      await rm(file.path, { force: true });
    },
  };
}
