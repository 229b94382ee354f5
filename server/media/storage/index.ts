import { LocalStorage } from './local.storage';
import { MediaSigner } from './signed-url';
import type { Storage } from './storage';

export type { Storage, Staged } from './storage';
export { contentTypeOf, isValidKey } from './storage';
export { LocalStorage } from './local.storage';
export { sweepOrphans, ORPHAN_MIN_AGE_MS } from './orphans';
export { MediaSigner } from './signed-url';

/** The media services every domain shares: where bytes live, and how links to them are signed. */
export type Media = { storage: Storage; signer: MediaSigner };

/** Local disk under config.mediaDir (the only backend so far; S3 would be chosen here by configuration). */
export function createMedia(config: { mediaDir: string; mediaSigningKey: string; mediaUrlTtlSec: number }): Media {
  return {
    storage: new LocalStorage(config.mediaDir),
    signer: new MediaSigner(config.mediaSigningKey, config.mediaUrlTtlSec),
  };
}
