import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Db } from '../../server/db/index';
import { insertRequest } from './db';

/**
 * A create-video request of `userId` in `status` with `count` rendered videos, straight in the database (no render
 * runs): each video not yet published ('noactive'), its file expected at its storage key. Returns the ids.
 */
export async function seedFinishedRequest(
  db: Db,
  userId: number,
  count = 3,
  status: 'success' | 'loading' = 'success',
) {
  const at = new Date().toISOString();
  const idUpload = randomBytes(8).toString('hex');
  const id = await insertRequest(db, userId, idUpload, { status, count, isPhoto: 1, isGenerator: 1 });
  const videos: number[] = [];
  const storageKeys: string[] = [];
  for (let i = 0; i < count; i++) {
    const storageKey = `videos/${userId}/${idUpload}/${i}.mp4`;
    const v = await db
      .insertInto('videos')
      .values({
        userId,
        accountId: null,
        createdAt: at,
        status: 'noactive',
        url: null,
        idUpload,
        requestId: id,
        outputIndex: i,
        storageKey,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    videos.push(v.id);
    storageKeys.push(storageKey);
  }
  return { id, idUpload, videos, storageKeys };
}

/** Where a test puts a video's file: the media storage's `put` (local or S3). */
type FileStore = { put: (key: string, body: Readable) => Promise<unknown> };

/** seedFinishedRequest with one video per file, each file stored at its video's key (the real clips to publish). */
export async function seedStoredRequest(db: Db, storage: FileStore, userId: number, files: string[]) {
  const req = await seedFinishedRequest(db, userId, files.length);
  for (const [i, file] of files.entries()) await storage.put(req.storageKeys[i]!, createReadStream(file));
  return req;
}
