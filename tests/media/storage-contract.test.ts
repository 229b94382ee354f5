import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, HeadObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { LocalStorage, sweepOrphans, type Storage } from '../../server/media/storage/index';
import { S3Storage, s3Client } from '../../server/media/storage/s3.storage';
import type { PendingUpload, UploadLedger } from '../../server/media/storage/upload-ledger';
import { filesUnder } from '../helpers/files-under';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';

/**
 * The storage contract (server/media/storage/storage.ts), one suite for every backend: local disk, and S3
 * against a real S3-compatible server started from npm (tests/helpers/s3-server.ts) with 5 MiB parts, so a
 * few MiB make a multipart upload of several parts. The 1 GB object is in `npm run bench` (storage).
 */
const MiB = 1024 * 1024;
const PART = 5 * MiB;

/** `n` bytes that differ from part to part (a part stored in the wrong place would show). */
function bytes(n: number, seed = 1): Buffer {
  const b = Buffer.alloc(n + 4);
  let x = seed >>> 0;
  for (let i = 0; i < n; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b.writeUInt32LE(x, i);
  }
  return b.subarray(0, n);
}

/** `buf` as a stream of 64 KiB chunks, like a request body; `cutAfter` bytes in, it fails as a cut connection does. */
function streamOf(buf: Buffer, cutAfter?: number): Readable {
  let at = 0;
  return new Readable({
    read() {
      if (cutAfter !== undefined && at >= cutAfter) {
        this.destroy(new Error('client went away'));
        return;
      }
      if (at >= buf.length) {
        this.push(null);
        return;
      }
      const end = Math.min(buf.length, at + 64 * 1024, cutAfter ?? Infinity);
      this.push(buf.subarray(at, end));
      at = end;
    },
  });
}

async function read(storage: Storage, key: string, range?: { start: number; end: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await storage.createReadStream(key, range)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Harness = {
  storage: Storage;
  /** Where the backend keeps its local staging files. */
  stagingDir: string;
  /** What the backend holds: objects, files in its staging area, and (S3) whether a multipart upload is pending. */
  leftovers(): Promise<{ objects: string[]; staging: string[]; pendingUpload: boolean }>;
  /** How many parts the object was uploaded in (S3: from its multipart ETag), or null where there are no parts. */
  parts(key: string): Promise<number | null>;
  /** Moves the storage's clock forward (the age sweepUploads reads). */
  advance(ms: number): void;
  /**
   * What a process killed mid-upload leaves (S3: a multipart upload started through the storage's own client, so
   * recorded as any is, with one part sent and never completed); null where writes have no such state.
   */
  killedUpload(key: string): Promise<string | null>;
};

/** The upload ledger in memory (the server's is the database's, tests/media/upload-sweep.test.ts). */
class MemoryLedger implements UploadLedger {
  readonly rows = new Map<string, PendingUpload>();
  async started(u: PendingUpload) {
    this.rows.set(u.uploadId, u);
  }
  async finished(uploadId: string) {
    this.rows.delete(uploadId);
  }
  async startedBefore(bucket: string, beforeMs: number, limit: number) {
    return [...this.rows.values()]
      .filter((u) => u.bucket === bucket && u.startedMs < beforeMs)
      .sort((a, b) => a.startedMs - b.startedMs)
      .slice(0, limit);
  }
}

let s3: S3TestServer;
let buckets = 0;
const scratch = () => mkdtempSync(join(tmpdir(), 'kadr-storage-'));

const BACKENDS: Array<[name: string, make: () => Promise<Harness>]> = [
  [
    'local disk',
    async () => {
      const root = scratch();
      const stagingDir = join(root, '.staging');
      return {
        storage: new LocalStorage(root),
        stagingDir,
        leftovers: async () => ({
          objects: filesUnder(root).filter((f) => !f.startsWith('.staging/')),
          staging: filesUnder(stagingDir),
          pendingUpload: false,
        }),
        parts: async () => null,
        advance: () => undefined,
        killedUpload: async () => null,
      };
    },
  ],
  [
    'S3',
    async () => {
      const bucket = `contract-${++buckets}`;
      await s3.createBucket(bucket);
      const stagingDir = scratch();
      const settings = s3.settings(bucket, { partSize: PART, queueSize: 2 });
      const client = s3Client(settings);
      let offset = 0;
      return {
        storage: new S3Storage(settings, stagingDir, client, new MemoryLedger(), () => Date.now() + offset),
        advance: (ms) => {
          offset += ms;
        },
        killedUpload: async (key) => {
          const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
          await client.send(
            new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: bytes(PART, 3) }),
          );
          return UploadId!;
        },
        stagingDir,
        leftovers: async () => ({ ...(await s3.leftovers(bucket)), staging: filesUnder(stagingDir) }),
        parts: async (key) => {
          const { ETag } = await s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
          const m = /-(\d+)"?$/.exec(ETag ?? '');
          return m ? Number(m[1]) : 1;
        },
      };
    },
  ],
];

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
});

describe.each(BACKENDS)('storage contract: %s', (name, make) => {
  let h: Harness;
  beforeEach(async () => {
    h = await make();
  });

  it('streams a multipart upload (put) and reads the same bytes back, whole and by range', async () => {
    const data = bytes(12 * MiB + 123, 7);
    const key = 'videos/1/abc/0.mp4';
    expect(await h.storage.put(key, streamOf(data))).toEqual({ size: data.length });
    if (name === 'S3') expect(await h.parts(key)).toBe(3);
    expect(sha(await read(h.storage, key))).toBe(sha(data));
    // Ranges: the first bytes, across the first part boundary, the very last byte, a middle slice.
    for (const [start, end] of [
      [0, 99],
      [PART - 10, PART + 9],
      [data.length - 1, data.length - 1],
      [2 * PART + 12_345, 2 * PART + 54_321],
    ] as const)
      expect((await read(h.storage, key, { start, end })).equals(data.subarray(start, end + 1))).toBe(true);
    expect(await h.leftovers()).toEqual({ objects: [key], staging: [], pendingUpload: false });
  });

  it('stages an upload invisibly, then commits it under its key (or discards it) and keeps nothing staged', async () => {
    const data = bytes(6 * MiB, 3);
    const staged = await h.storage.stage(streamOf(data), { ext: 'mp4' });
    expect(staged.size).toBe(data.length);
    expect(staged.head.equals(data.subarray(0, 4100))).toBe(true);
    expect(sha(readFileSync(staged.path))).toBe(sha(data)); // a local file ffprobe can read before commit
    expect(await h.storage.stat('clips/1/u1/clip.mp4')).toBeNull();
    await staged.commit('clips/1/u1/clip.mp4');
    await expect(staged.commit('clips/1/u1/again.mp4')).rejects.toThrow(/already committed/);
    expect(existsSync(staged.path)).toBe(false);
    expect((await h.storage.stat('clips/1/u1/clip.mp4'))?.size).toBe(data.length);
    if (name === 'S3') expect(await h.parts('clips/1/u1/clip.mp4')).toBe(2);
    expect(sha(await read(h.storage, 'clips/1/u1/clip.mp4'))).toBe(sha(data));

    const dropped = await h.storage.stage(streamOf(bytes(1000)));
    await dropped.discard();
    expect(await h.leftovers()).toEqual({ objects: ['clips/1/u1/clip.mp4'], staging: [], pendingUpload: false });
  });

  it('a cut stream leaves no object, no staging file and no pending multipart upload', async () => {
    const data = bytes(13 * MiB, 5);
    // Cut after two whole parts went up (S3 has started a multipart upload by then), and after a few bytes.
    for (const cutAfter of [11 * MiB, 1000]) {
      await expect(h.storage.put(`videos/1/cut/${cutAfter}.mp4`, streamOf(data, cutAfter))).rejects.toThrow(
        'client went away',
      );
      await expect(h.storage.stage(streamOf(data, cutAfter))).rejects.toThrow('client went away');
    }
    expect(await h.storage.stat('videos/1/cut/1000.mp4')).toBeNull();
    expect(await h.leftovers()).toEqual({ objects: [], staging: [], pendingUpload: false });
  });

  it('sweepUploads aborts a multipart upload a killed process left once it is older than the age, never a younger one', async () => {
    // A finished upload and a cut one leave nothing to sweep.
    await h.storage.put('videos/1/whole.mp4', streamOf(bytes(11 * MiB, 2)));
    await expect(h.storage.put('videos/1/cut.mp4', streamOf(bytes(13 * MiB, 4), 11 * MiB))).rejects.toThrow();
    await h.storage.delete('videos/1/whole.mp4');
    const left = await h.killedUpload('videos/1/killed.mp4');
    expect(await h.storage.sweepUploads(3600_000)).toEqual([]); // young: it may be a slow live upload
    expect((await h.leftovers()).pendingUpload).toBe(left !== null);
    h.advance(2 * 3600_000);
    expect(await h.storage.sweepUploads(3600_000)).toEqual(left ? ['videos/1/killed.mp4'] : []);
    expect(await h.storage.sweepUploads(3600_000)).toEqual([]);
    expect(await h.leftovers()).toEqual({ objects: [], staging: [], pendingUpload: false });
  });

  it('stores an output file (putFile: the local file is gone after), an empty object, and gives ffmpeg a local path', async () => {
    const data = bytes(5 * MiB + 1, 9);
    const out = h.storage.tempPath('mp4');
    expect(out.startsWith(h.stagingDir)).toBe(true);
    writeFileSync(out, data);
    expect(await h.storage.putFile('videos/2/x/0.mp4', out)).toEqual({ size: data.length });
    expect(existsSync(out)).toBe(false);
    expect(await h.storage.put('backgrounds/2/9/empty.jpg', Readable.from([]))).toEqual({ size: 0 });
    expect((await h.storage.stat('backgrounds/2/9/empty.jpg'))?.size).toBe(0);
    expect((await read(h.storage, 'backgrounds/2/9/empty.jpg')).length).toBe(0);

    const work = scratch();
    const local = await h.storage.inputPath('videos/2/x/0.mp4', work);
    expect(sha(readFileSync(local))).toBe(sha(data));
    expect(local.endsWith('.mp4')).toBe(true);
    // A download lands in the caller's scratch folder (the caller removes it); local disk reads the file itself.
    expect(local.startsWith(work)).toBe(name === 'S3');
  });

  it('stat, delete, and reading a missing key', async () => {
    expect(await h.storage.stat('videos/3/none.mp4')).toBeNull();
    await expect(h.storage.createReadStream('videos/3/none.mp4')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await h.storage.put('videos/3/a.mp4', Readable.from(['hel', 'lo']))).toEqual({ size: 5 }); // text chunks too
    const st = await h.storage.stat('videos/3/a.mp4');
    expect(st?.size).toBe(5);
    expect(Math.abs(st!.mtime.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    await h.storage.delete('videos/3/a.mp4');
    await h.storage.delete('videos/3/a.mp4'); // a missing key is not an error
    expect(await h.storage.stat('videos/3/a.mp4')).toBeNull();
    if (name === 'S3')
      await expect(h.storage.inputPath('videos/3/a.mp4', scratch())).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(h.storage.put('../escape.txt', Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /invalid storage key/,
    );
    expect(await h.leftovers()).toEqual({ objects: [], staging: [], pendingUpload: false });
  });

  it('lists every object under a prefix (past one listing page, never staging files); the orphan sweep keeps what rows name', async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `backgrounds/4/${Math.floor(i / 100)}/${i}.jpg`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((k) => h.storage.put(k, Readable.from([Buffer.from(k)]))));
    await h.storage.put('clips/4/u/clip.mp4', Readable.from([Buffer.from('clip')]));
    await h.storage.put('backgroundsX/4/not-under.jpg', Readable.from([Buffer.from('other prefix')]));
    const pending = await h.storage.stage(streamOf(bytes(10)));
    const listed: string[] = [];
    for await (const o of h.storage.list('backgrounds')) {
      listed.push(o.key);
      expect(o.mtime).toBeInstanceOf(Date);
    }
    expect(listed.sort()).toEqual([...keys].sort());

    // The sweep: keys no row names go once old enough (here: 7 hours from now), named ones stay.
    const named = new Set([keys[0]!, keys[500]!, 'clips/4/u/clip.mp4']);
    const known = async (batch: string[]) => new Set(batch.filter((k) => named.has(k)));
    expect(await sweepOrphans(h.storage, ['backgrounds', 'clips'], known)).toEqual([]); // all young
    const removed = await sweepOrphans(h.storage, ['backgrounds', 'clips'], known, { now: Date.now() + 7 * 3600_000 });
    expect(removed.length).toBe(1003);
    await pending.discard();
    expect((await h.leftovers()).objects.sort()).toEqual([...named, 'backgroundsX/4/not-under.jpg'].sort());
  });

  it('sweepStaging removes what a crash left in the staging area, and nothing younger', async () => {
    const old = h.storage.tempPath('mp4');
    writeFileSync(old, 'half an output');
    const oldDir = h.storage.tempPath();
    await mkdir(oldDir);
    writeFileSync(join(oldDir, 'clip.mp4'), 'a download of a crashed render');
    const hoursAgo = new Date(Date.now() - 7 * 3600_000);
    await utimes(old, hoursAgo, hoursAgo);
    await utimes(oldDir, hoursAgo, hoursAgo);
    const young = h.storage.tempPath('jpg');
    writeFileSync(young, 'a preview being made');
    expect(await h.storage.sweepStaging()).toBe(2);
    expect(filesUnder(h.stagingDir).map((f) => join(h.stagingDir, f))).toEqual([young]);
  });
});
