import { join } from 'node:path';
import { LocalStorage } from './local.storage';
import type { S3Settings } from './s3.storage';
import { MediaSigner } from './signed-url';
import type { Storage } from './storage';

export type { Storage, Staged } from './storage';
export { contentTypeOf, isValidKey } from './storage';
export { LocalStorage } from './local.storage';
export type { S3Settings } from './s3.storage';
export { sweepOrphans, ORPHAN_MIN_AGE_MS } from './orphans';
export { MediaSigner } from './signed-url';

/** The media services every domain shares: where bytes live, and how links to them are signed. */
export type Media = { storage: Storage; signer: MediaSigner };

/** Where media bytes live (STORAGE): local disk under config.mediaDir, or an S3-compatible bucket. */
export type StorageSettings = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/**
 * Local disk under config.mediaDir (the embedded default), or S3 with its local staging folder under
 * DATA_DIR/work/storage (the AWS SDK is loaded only then: a process on local disk never pays for it).
 */
export async function createMedia(config: {
  mediaDir: string;
  dataDir: string;
  storage: StorageSettings;
  mediaSigningKey: string;
  mediaUrlTtlSec: number;
}): Promise<Media> {
  const { storage } = config;
  return {
    storage:
      storage.kind === 's3'
        ? new (await import('./s3.storage')).S3Storage(storage, join(config.dataDir, 'work', 'storage'))
        : new LocalStorage(config.mediaDir),
    signer: new MediaSigner(config.mediaSigningKey, config.mediaUrlTtlSec),
  };
}
