import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { loadConfig } from '../server/config';
import { S3Storage, s3Client, type S3Settings } from '../server/media/storage/s3.storage';

const MiB = 1024 ** 2;
const SIZE = 1024 * MiB;
const ROUNDS = 2;

/** 1 GiB as a stream of 1 MiB chunks (one random buffer, reused: the sender costs no memory of its own). */
function gigabyte(): Readable {
  const chunk = randomBytes(MiB);
  let sent = 0;
  return new Readable({
    highWaterMark: MiB,
    read() {
      if (sent >= SIZE) return void this.push(null);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** Runs `fn`, sampling this process's RSS every 50 ms: seconds taken and peak growth over the start, in MiB. */
async function measured(fn: () => Promise<void>): Promise<{ sec: number; growth: number }> {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(sampler);
  }
  return { sec: (performance.now() - t) / 1000, growth: (peak - base) / MiB };
}

/**
 * A 1 GiB object into a local S3 server (fauxqs, in a child process) three ways, interleaved, in the same run:
 * (a) a direct SDK multipart upload (lib-storage Upload, the same client, part size and concurrency as Kadr's),
 * (b) Kadr's S3Storage.put (a stream straight to a multipart upload: AI video downloads, screenshots),
 * (c) Kadr's stage + commit (what an API upload does: the stream to a local staging file, which ffprobe checks
 *     before the commit uploads it). Prints throughput, the ratio to (a), and this process's peak RSS growth.
 * Targets: (b) ≥ 0.8x (a), growth ≤ 100 MB.
 */
export async function storageBench(): Promise<void> {
  const child = fork(resolve('bench/s3-server.process.ts'), [], { execArgv: ['--import', 'tsx'] });
  const endpoint = await new Promise<string>((ok, fail) => {
    child.once('message', (m) => ok((m as { endpoint: string }).endpoint));
    child.once('exit', (code) => fail(new Error(`S3 server exited (${code})`)));
  });
  const scratch = mkdtempSync(join(tmpdir(), 'kadr-storage-bench-'));
  try {
    const defaults = loadConfig({ DATA_DIR: scratch, STORAGE: 's3', S3_BUCKET: 'bench' }).storage as S3Settings;
    const settings: S3Settings = {
      ...defaults,
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'bench', secretAccessKey: 'bench-secret' },
    };
    const client = s3Client(settings);
    await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
    const storage = new S3Storage(settings, join(scratch, 'staging'), client);
    const check = async (key: string) => {
      const head = await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }));
      if (head.ContentLength !== SIZE) throw new Error(`${key}: ${head.ContentLength} bytes stored, not ${SIZE}`);
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
    };
    const ways: Array<[name: string, run: (key: string) => Promise<void>]> = [
      [
        'Kadr put (streamed)',
        async (key) => {
          await storage.put(key, gigabyte());
        },
      ],
      [
        'direct SDK Upload',
        async (key) => {
          await new Upload({
            client,
            params: { Bucket: settings.bucket, Key: key, Body: gigabyte() },
            partSize: settings.partSize,
            queueSize: settings.queueSize,
          }).done();
        },
      ],
      [
        'Kadr stage + commit',
        async (key) => {
          const staged = await storage.stage(gigabyte());
          await staged.commit(key);
        },
      ],
    ];
    const results = new Map<string, Array<{ sec: number; growth: number }>>();
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, run] of ways) {
        const key = `bench/${round}-${name.replace(/\W+/g, '-')}.bin`;
        const r = await measured(() => run(key));
        await check(key);
        results.set(name, [...(results.get(name) ?? []), r]);
      }
    const mbps = (r: { sec: number }) => SIZE / MiB / r.sec;
    const best = (name: string) => Math.max(...results.get(name)!.map(mbps));
    const direct = best('direct SDK Upload');
    console.log(
      `storage  1 GiB to a local S3 server (fauxqs), part ${settings.partSize / MiB} MiB × ${settings.queueSize} at once, ${ROUNDS} interleaved rounds:`,
    );
    for (const [name] of ways) {
      const runs = results.get(name)!;
      const growth = Math.max(...runs.map((r) => r.growth));
      console.log(
        `storage    ${name.padEnd(20)} ${runs.map((r) => mbps(r).toFixed(0)).join(', ')} MB/s  best ${(best(name) / direct).toFixed(2)}x direct  ` +
          `peak RSS growth ${growth.toFixed(1)} MB${name === 'direct SDK Upload' ? '' : growth <= 100 ? ' (≤ 100 MB: OK)' : ' (> 100 MB: OVER)'}`,
      );
    }
    client.destroy();
  } finally {
    child.disconnect();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await storageBench();
