import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { loadConfig } from '../../server/config';
import { describeEachDb } from '../helpers/app';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';

/**
 * Issue 20's gap: a process killed during a multipart upload to S3 leaves the upload pending. Every upload the
 * storage starts is a row of `multipart_uploads` (migration 040) until S3 completes or aborts it, so what a killed
 * process leaves is still a row, and the workers' sweep aborts it once it is older than S3_STALE_UPLOAD_HOURS.
 * On both databases, against the S3 test server.
 */
let server: S3TestServer | undefined;
const s3 = async () => (server ??= await startS3Server());
afterAll(async () => {
  await server?.stop();
});

const MiB = 1024 * 1024;
const bucketOf = (kind: string) => `kadr-sweep-${kind}`;

describeEachDb(
  'stale multipart uploads on S3',
  (ctx) => {
    const bucket = () => bucketOf(ctx.tdb.kind);
    const ledger = () => ctx.tdb.db.selectFrom('multipartUploads').selectAll().execute();

    it('a finished upload and a cut one leave no row; a killed one is aborted by the sweep once stale, never before', async () => {
      const storage = ctx.root.media.storage;
      const big = Buffer.alloc(11 * MiB, 7); // three 5 MiB parts: a multipart upload
      await storage.put('videos/1/whole.mp4', Readable.from([big]));
      // An upload in flight is a row from S3's first answer on; cut, it is aborted and its row goes.
      let cutNow!: () => void;
      const held = new Promise<void>((resolve) => (cutNow = resolve));
      const cut = Readable.from(
        (async function* () {
          yield big;
          await held;
          throw new Error('client went away');
        })(),
      );
      const cutPut = storage.put('videos/1/cut.mp4', cut);
      for (let i = 0; (await ledger()).length === 0; i++) {
        if (i > 500) throw new Error('the upload in flight was never recorded');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await ledger()).toMatchObject([{ bucket: bucket(), objectKey: 'videos/1/cut.mp4' }]);
      cutNow();
      await expect(cutPut).rejects.toThrow('client went away');
      expect(await ledger()).toEqual([]);
      await storage.delete('videos/1/whole.mp4');

      // What a process SIGKILLed after its first part leaves: the upload pending on S3, its row in the ledger.
      const { client } = await s3();
      const key = 'videos/1/killed.mp4';
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key }));
      await client.send(
        new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId, PartNumber: 1, Body: big.subarray(0, 5 * MiB) }),
      );
      await ctx.tdb.db
        .insertInto('multipartUploads')
        .values({ uploadId: UploadId!, bucket: bucket(), objectKey: key, startedMs: Date.now() - 2 * 3600_000 })
        .execute();
      expect(await (await s3()).leftovers(bucket())).toEqual({ objects: [], pendingUpload: true });

      expect(await ctx.root.sweepStaleUploads(3 * 3600_000)).toEqual([]); // younger than that: left alone
      expect(await ledger()).toHaveLength(1);
      expect(await ctx.root.sweepStaleUploads()).toEqual([key]); // S3_STALE_UPLOAD_HOURS=1
      expect(await ledger()).toEqual([]);
      expect(await (await s3()).leftovers(bucket())).toEqual({ objects: [], pendingUpload: false });
    });
  },
  async (kind) => {
    const s = await s3();
    await s.createBucket(bucketOf(kind));
    const env = { ...s.env(bucketOf(kind)), S3_STALE_UPLOAD_HOURS: '1' };
    return { storage: loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'kadr-sweep-')), ...env }).storage };
  },
);
