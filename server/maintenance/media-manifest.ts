import { createHash } from 'node:crypto';
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** An object copied and verified: its size, its SHA-256, and the source file's mtime when it was read. */
export type VerifiedObject = { key: string; size: number; sha256: string; mtimeMs: number };

type Line = VerifiedObject | { key: string; dropped: true };

/**
 * The progress record of a media move (`npm run media:move`): one JSON line per object copied and verified,
 * appended as each is done, so a run stopped anywhere (Ctrl-C, kill, a lost machine) is resumed by running it
 * again. A line half-written when the process died is ignored; a later line for the same key wins (a
 * re-copy, or `dropped` when a verified object turned out different on the target).
 */
export class MediaManifest {
  private constructor(
    readonly path: string,
    private entries: Map<string, VerifiedObject>,
    private file: FileHandle,
  ) {}

  /**
   * The record of moves from this installation (`dataDir`) to one target (`target` names the bucket and its
   * server): moving to another bucket starts from nothing.
   */
  static async open(dataDir: string, target: string): Promise<MediaManifest> {
    const id = createHash('sha256').update(target).digest('hex').slice(0, 16);
    const path = join(dataDir, 'media-move', `${id}.jsonl`);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const entries = new Map<string, VerifiedObject>();
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const raw of text.split('\n')) {
      const line = parseLine(raw);
      if (!line) continue;
      if ('dropped' in line) entries.delete(line.key);
      else entries.set(line.key, line);
    }
    // A torn last line (no newline) would glue itself to the next one: start the appends on a line of their own.
    const file = await open(path, 'a', 0o600);
    if (text && !text.endsWith('\n')) await file.write('\n');
    return new MediaManifest(path, entries, file);
  }

  get(key: string): VerifiedObject | undefined {
    return this.entries.get(key);
  }

  get size(): number {
    return this.entries.size;
  }

  async add(entry: VerifiedObject): Promise<void> {
    this.entries.set(entry.key, entry);
    await this.file.write(`${JSON.stringify(entry)}\n`);
  }

  async drop(key: string): Promise<void> {
    if (!this.entries.delete(key)) return;
    await this.file.write(`${JSON.stringify({ key, dropped: true })}\n`);
  }

  /** Flushes the record to disk and closes it. */
  async close(): Promise<void> {
    await this.file.sync();
    await this.file.close();
  }
}

function parseLine(raw: string): Line | null {
  if (!raw.trim()) return null;
  try {
    const v = JSON.parse(raw) as Partial<VerifiedObject & { dropped: true }>;
    if (typeof v.key !== 'string') return null;
    if (v.dropped === true) return { key: v.key, dropped: true };
    if (typeof v.size !== 'number' || typeof v.sha256 !== 'string' || typeof v.mtimeMs !== 'number') return null;
    return { key: v.key, size: v.size, sha256: v.sha256, mtimeMs: v.mtimeMs };
  } catch {
    return null; // the line a killed process was writing
  }
}
