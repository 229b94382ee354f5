import { CreateBucketCommand, DeleteBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { buildApp } from 'fauxqs';
import { s3Client, type S3Settings } from '../../server/media/storage/s3.storage';

/**
 * A real S3-compatible server for tests and benchmarks: fauxqs (npm, Node 20, objects in memory), listening
 * on 127.0.0.1 only. It speaks the S3 protocol the AWS SDK uses (multipart uploads with S3-style ETags, Range
 * GETs, ListObjectsV2 with continuation) but checks no signature, so link signing is tested in Kadr's own tests.
 */
export type S3TestServer = {
  endpoint: string;
  /** Settings of Kadr's S3 storage for `bucket` on this server (path style, the test credentials). */
  settings(bucket: string, parts?: { partSize?: number; queueSize?: number }): S3Settings;
  /** A client of this server (for the test's own look at the bucket, or a direct upload to compare with). */
  client: S3Client;
  /** STORAGE=s3 as an operator sets it in a process's environment, for `bucket` on this server. */
  env(bucket: string): Record<string, string>;
  createBucket(bucket: string): Promise<void>;
  /**
   * What is left in `bucket`: its objects' keys and, when there are none, whether a multipart upload is still
   * pending. The server has no ListMultipartUploads; it refuses to delete a bucket holding one
   * (BucketNotEmpty), so an empty bucket is deleted and made again to tell.
   */
  leftovers(bucket: string): Promise<{ objects: string[]; pendingUpload: boolean }>;
  stop(): Promise<void>;
};

export async function startS3Server(): Promise<S3TestServer> {
  const app = buildApp({ logger: false });
  const endpoint = await app.listen({ host: '127.0.0.1', port: 0 });
  const base = { endpoint, region: 'us-east-1', forcePathStyle: true };
  const credentials = { accessKeyId: 'kadr-test', secretAccessKey: 'kadr-test-secret' };
  const client = s3Client({ ...base, credentials });
  const createBucket = async (bucket: string) => {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  };
  return {
    endpoint,
    client,
    settings: (bucket, parts = {}) => ({
      ...base,
      bucket,
      credentials,
      partSize: parts.partSize ?? 5 * 1024 * 1024,
      queueSize: parts.queueSize ?? 4,
    }),
    env: (bucket) => ({
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: base.region,
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_PART_SIZE_MB: '5',
    }),
    createBucket,
    async leftovers(bucket) {
      const objects: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        objects.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      if (objects.length) return { objects, pendingUpload: false };
      try {
        await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      } catch (err) {
        if ((err as { name?: string }).name === 'BucketNotEmpty') return { objects, pendingUpload: true };
        throw err;
      }
      await createBucket(bucket);
      return { objects, pendingUpload: false };
    },
    async stop() {
      client.destroy();
      await app.close();
    },
  };
}
