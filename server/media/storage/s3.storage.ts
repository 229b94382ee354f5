import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { InitializeMiddleware } from '@smithy/types';
import { StagingDir, stagedHandle } from './staging';
import { assertKey, contentTypeOf, type Staged, type Storage } from './storage';
import type { UploadLedger } from './upload-ledger';

/** Where the bucket is and how Kadr talks to it (server/config.ts fills it from the S3_* variables). */
export type S3Settings = {
  /** An S3-compatible server's address; unset = AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Unset: the SDK's default chain (AWS_* variables, shared config, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** Bytes per multipart part (at least 5 MiB, S3's minimum). */
  partSize: number;
  /** Parts uploaded at once by one upload. */
  queueSize: number;
  /** Age after which a multipart upload still recorded as started is taken for a killed process's (the sweep aborts it). */
  staleUploadMs?: number;
};

/** A multipart upload this long in the ledger is a killed process's (S3_STALE_UPLOAD_HOURS, default 6 h). */
export const STALE_UPLOAD_MS = 6 * 3600_000;

/**
 * Storage in an S3-compatible bucket (STORAGE=s3), the same keys as on local disk. Writes go through a local
 * staging folder (`scratchDir`) where a file must exist anyway (an upload is checked with ffprobe before it
 * is kept; ffmpeg writes its output there), and are committed with a multipart upload (lib-storage): parts of
 * `partSize` bytes, `queueSize` at a time, so memory stays flat whatever the file's size. An upload that fails
 * or whose stream is cut is aborted (AbortMultipartUpload), so no object and no pending upload is left. A process
 * killed mid-upload leaves an incomplete upload: with an `UploadLedger` (the root gives the database's, migration
 * 040) every upload is recorded as S3 starts it and forgotten as it completes or aborts, and `sweepUploads` aborts
 * what stays recorded past `staleUploadMs` (the bucket's lifecycle rule is the second net, docs/storage.md).
 * Reads are ranged GETs; `inputPath` downloads into the caller's scratch folder.
 *
 * Checksums are sent only where S3 requires them (`WHEN_REQUIRED`): S3-compatible servers that do not know
 * the SDK's default trailing checksums would otherwise store the aws-chunked framing inside the object.
 */
export class S3Storage implements Storage {
  private staging: StagingDir;
  private bucket: string;

  constructor(
    private settings: S3Settings,
    scratchDir: string,
    private client: S3Client = s3Client(settings),
    private ledger?: UploadLedger,
    private now: () => number = Date.now,
  ) {
    this.staging = new StagingDir(scratchDir);
    this.bucket = settings.bucket;
    if (ledger)
      client.middlewareStack.add(recordUploads(ledger, client, now), {
        step: 'initialize',
        name: 'kadrUploadLedger',
        override: true,
      });
  }

  tempPath(ext = ''): string {
    return this.staging.tempPath(ext);
  }

  async stage(body: Readable, opts: { ext?: string; sniffBytes?: number } = {}): Promise<Staged> {
    return stagedHandle(await this.staging.write(body, opts), async (key, path) => {
      await this.putFile(key, path);
    });
  }

  /** Uploads the local file under `key`; the file is removed once the object exists (kept if the upload fails). */
  async putFile(key: string, localPath: string) {
    assertKey(key);
    const { size } = await stat(localPath);
    await this.upload(key, createReadStream(localPath, { highWaterMark: 1 << 20 }), size);
    await rm(localPath, { force: true });
    return { size };
  }

  async put(key: string, body: Readable) {
    assertKey(key);
    let size = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of body) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string | Uint8Array);
          size += bytes.length;
          yield bytes;
        }
      })(),
    );
    await this.upload(key, counted);
    return { size };
  }

  /**
   * One object from a stream: a single PUT when it fits in one part, a multipart upload otherwise. A body
   * that errors makes lib-storage abort the multipart upload before the promise rejects.
   */
  private async upload(key: string, body: Readable, size?: number) {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentTypeOf(key),
        ...(size !== undefined ? { ContentLength: size } : {}),
      },
      partSize: this.settings.partSize,
      queueSize: this.settings.queueSize,
    });
    try {
      await upload.done();
    } finally {
      body.destroy();
    }
  }

  async createReadStream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertKey(key);
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return r.Body as Readable;
    } catch (err) {
      throw missing(err) ? notFound(key, err) : err;
    }
  }

  async stat(key: string) {
    assertKey(key);
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: r.ContentLength ?? 0, mtime: r.LastModified ?? new Date(0) };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async delete(key: string) {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async inputPath(key: string, scratchDir: string) {
    const path = join(scratchDir, `${randomBytes(6).toString('hex')}${extname(key)}`);
    const body = await this.createReadStream(key);
    try {
      await pipeline(body, createWriteStream(path, { highWaterMark: 1 << 20 }));
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return path;
  }

  async *list(prefix: string): AsyncIterable<{ key: string; mtime: Date }> {
    assertKey(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key, mtime: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  sweepStaging(maxAgeMs = 6 * 3600_000) {
    return this.staging.sweep(maxAgeMs);
  }

  /**
   * Aborts the multipart uploads the ledger holds for this bucket that started more than `maxAgeMs` ago (a killed
   * process's: a live upload completes or aborts and leaves the ledger); an upload S3 no longer has is only
   * forgotten. Returns the keys whose upload was aborted.
   */
  async sweepUploads(maxAgeMs = this.settings.staleUploadMs ?? STALE_UPLOAD_MS): Promise<string[]> {
    if (!this.ledger) return [];
    const aborted: string[] = [];
    const before = this.now() - maxAgeMs;
    for (;;) {
      const batch = await this.ledger.startedBefore(this.bucket, before, 100);
      if (!batch.length) return aborted;
      for (const u of batch) {
        try {
          await this.client.send(
            new AbortMultipartUploadCommand({ Bucket: u.bucket, Key: u.key, UploadId: u.uploadId }),
          );
          aborted.push(u.key);
        } catch (err) {
          if (!noSuchUpload(err)) throw err;
        }
        await this.ledger.finished(u.uploadId);
      }
    }
  }
}

/**
 * Records each multipart upload in the ledger as S3 starts it (before a part is sent: lib-storage awaits the
 * answer) and forgets it as S3 completes or aborts it. An upload the ledger cannot record is aborted at once, so
 * no upload goes unrecorded. Forgetting is best effort: a row left behind is swept (its abort finds no upload).
 */
function recordUploads(
  ledger: UploadLedger,
  client: S3Client,
  now: () => number,
): InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> {
  return (next, context) => async (args) => {
    const input = args.input as { Bucket?: string; Key?: string; UploadId?: string };
    const forget = async () => {
      try {
        if (input.UploadId) await ledger.finished(input.UploadId);
      } catch {
        // left for the sweep: aborting an upload S3 no longer has only forgets it
      }
    };
    switch (context.commandName) {
      case 'CreateMultipartUploadCommand': {
        const out = await next(args);
        const uploadId = (out.output as { UploadId?: string }).UploadId;
        if (!uploadId || !input.Bucket || !input.Key) return out;
        try {
          await ledger.started({ uploadId, bucket: input.Bucket, key: input.Key, startedMs: now() });
        } catch (err) {
          await client
            .send(new AbortMultipartUploadCommand({ Bucket: input.Bucket, Key: input.Key, UploadId: uploadId }))
            .catch((abortErr: unknown) => {
              throw new AggregateError([err, abortErr], 'multipart upload neither recorded nor aborted');
            });
          throw err;
        }
        return out;
      }
      case 'CompleteMultipartUploadCommand':
      case 'AbortMultipartUploadCommand':
        try {
          const out = await next(args);
          await forget();
          return out;
        } catch (err) {
          if (context.commandName === 'AbortMultipartUploadCommand' && noSuchUpload(err)) await forget();
          throw err;
        }
      default:
        return next(args);
    }
  };
}

function noSuchUpload(err: unknown): boolean {
  const e = err as { name?: string; Code?: string };
  return e.name === 'NoSuchUpload' || e.Code === 'NoSuchUpload';
}

/** Connections to the S3 server at once (the SDK's default is 50). */
const MAX_SOCKETS = 256;

/**
 * The SDK client for `settings`: path style as asked, checksums only where required (see the class), and
 * more connections than the SDK's default, since a media link streams from S3 for as long as its viewer reads
 * (a paused <video> keeps its connection).
 */
export function s3Client(settings: Omit<S3Settings, 'bucket' | 'partSize' | 'queueSize'>): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // A copy: the configuration is frozen, and the SDK marks the credentials object it is given ($source).
    credentials: settings.credentials && { ...settings.credentials },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      httpAgent: new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    },
  });
}

function missing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

function notFound(key: string, cause: unknown): Error {
  return Object.assign(new Error(`no such object: ${key}`, { cause }), { code: 'ENOENT' });
}
