import { join } from 'node:path';
import { LocalStorage } from './local.storage';
import type { S3Settings } from './s3.storage';
import { MediaSigner } from './signed-url';
import type { Storage } from './storage';
import type { UploadLedger } from './upload-ledger';

export type { Storage, Staged } from './storage';
export { contentTypeOf, isValidKey } from './storage';
export { LocalStorage } from './local.storage';
export type { S3Settings } from './s3.storage';
export { sweepOrphans, ORPHAN_MIN_AGE_MS } from './orphans';
export { MediaSigner } from './signed-url';
export type { UploadLedger } from './upload-ledger';

/** The media services every domain shares: where bytes live, and how links to them are signed. */
export type Media = { storage: Storage; signer: MediaSigner };

/** Where media bytes live (STORAGE): local disk under config.mediaDir, or an S3-compatible bucket. */
export type StorageSettings = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/**
 * Local disk under config.mediaDir (the embedded default), or S3 with its local staging folder under
 * DATA_DIR/work/storage (the AWS SDK is loaded only then: a process on local disk never pays for it). On S3,
 * `ledger` records the multipart uploads in flight, so a killed process's are swept (S3Storage.sweepUploads).
 */
export async function createMedia(
  config: {
    mediaDir: string;
    dataDir: string;
    storage: StorageSettings;
    mediaSigningKey: string;
    mediaUrlTtlSec: number;
  },
  ledger?: UploadLedger,
): Promise<Media> {
  const { storage } = config;
  let s3: typeof import('./s3.storage') | undefined;
  if (storage.kind === 's3') s3 = await import('./s3.storage');
  return {
    storage:
      storage.kind === 's3' && s3
        ? new s3.S3Storage(storage, join(config.dataDir, 'work', 'storage'), s3.s3Client(storage), ledger)
        : new LocalStorage(config.mediaDir),
    signer: new MediaSigner(config.mediaSigningKey, config.mediaUrlTtlSec),
  };
}
