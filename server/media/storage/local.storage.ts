import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink, copyFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type Staged, type Storage } from './storage';

const STAGING = '.staging';

/**
 * Storage on the local disk under `root` (config.mediaDir, data/media by default). Staging files live in
 * `root/.staging`, on the same filesystem as their final place, so a commit is one atomic rename.
 * Files are flushed (fsync) before the rename, so a crash never leaves a committed but empty file.
 */
export class LocalStorage implements Storage {
  private staging: string;
  private ready: Promise<void> | undefined;

  constructor(readonly root: string) {
    this.staging = join(root, STAGING);
  }

  private ensure() {
    return (this.ready ??= mkdir(this.staging, { recursive: true }).then(() => undefined));
  }

  private abs(key: string) {
    assertKey(key);
    return join(this.root, ...key.split('/'));
  }

  tempPath(ext = ''): string {
    return join(
      this.staging,
      `${Date.now().toString(36)}-${randomBytes(9).toString('base64url')}.part${ext ? '.' + ext.replace(/^\./, '') : ''}`,
    );
  }

  async stage(body: Readable, opts: { ext?: string; sniffBytes?: number } = {}): Promise<Staged> {
    await this.ensure();
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
    let done = false;
    const moveInto = (key: string) => this.moveInto(key, path);
    return {
      path,
      size,
      head: Buffer.concat(head),
      async commit(key: string) {
        if (done) throw new Error('staged file already committed or discarded');
        await moveInto(key);
        done = true;
      },
      async discard() {
        done = true;
        await rm(path, { force: true });
      },
    };
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

  async inputPath(key: string) {
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

  async sweepStaging(maxAgeMs = 6 * 3600_000) {
    await this.ensure();
    let removed = 0;
    const now = Date.now();
    for (const name of await readdir(this.staging)) {
      const p = join(this.staging, name);
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
