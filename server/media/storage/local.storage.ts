import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink, copyFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { StagingDir, stagedHandle } from './staging';
import { assertKey, type Staged, type Storage } from './storage';

const STAGING = '.staging';

/**
 * Storage on the local disk under `root` (config.mediaDir, data/media by default). Staging files live in
 * `root/.staging`, on the same filesystem as their final place, so a commit is one atomic rename.
 * Files are flushed (fsync) before the rename, so a crash never leaves a committed but empty file.
 */
export class LocalStorage implements Storage {
  private staging: StagingDir;

  constructor(readonly root: string) {
    this.staging = new StagingDir(join(root, STAGING));
  }

  private abs(key: string) {
    assertKey(key);
    return join(this.root, ...key.split('/'));
  }

  tempPath(ext = ''): string {
    return this.staging.tempPath(ext);
  }

  async stage(body: Readable, opts: { ext?: string; sniffBytes?: number } = {}): Promise<Staged> {
    return stagedHandle(await this.staging.write(body, opts), (key, path) => this.moveInto(key, path));
  }

  private async moveInto(key: string, from: string) {
    const to = this.abs(key);
    await mkdir(dirname(to), { recursive: true });
    try {
      await rename(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // A tempPath given to another filesystem: copy to a staging name beside the target, then rename.
      const tmp = `${to}.${randomBytes(6).toString('hex')}.part`;
      try {
        await copyFile(from, tmp);
        await rename(tmp, to);
      } finally {
        await rm(tmp, { force: true });
      }
      await unlink(from);
    }
  }

  async putFile(key: string, localPath: string) {
    await this.moveInto(key, localPath);
    return { size: (await stat(this.abs(key))).size };
  }

  async put(key: string, body: Readable) {
    const staged = await this.stage(body, { sniffBytes: 0 });
    try {
      await staged.commit(key);
    } catch (err) {
      await staged.discard();
      throw err;
    }
    return { size: staged.size };
  }

  async createReadStream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const path = this.abs(key);
    await stat(path); // ENOENT before a stream is handed out
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string) {
    try {
      const s = await stat(this.abs(key));
      return s.isFile() ? { size: s.size, mtime: s.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string) {
    await rm(this.abs(key), { force: true });
  }

  async inputPath(key: string, _scratchDir: string) {
    return this.abs(key);
  }

  async *list(prefix: string): AsyncIterable<{ key: string; mtime: Date }> {
    const dir = this.abs(prefix);
    let entries;
    try {
      entries = await readdir(dir, { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries) {
      if (!e.isFile()) continue;
      const path = join(e.parentPath, e.name);
      const key = relative(this.root, path).split(sep).join('/');
      try {
        yield { key, mtime: (await stat(path)).mtime };
      } catch {
        /* removed meanwhile */
      }
    }
  }

  /** Nothing to abort: a write here is a staging file renamed into place (sweepStaging removes a killed one's). */
  sweepUploads(): Promise<string[]> {
    return Promise.resolve([]);
  }

  sweepStaging(maxAgeMs = 6 * 3600_000) {
    return this.staging.sweep(maxAgeMs);
  }
}
