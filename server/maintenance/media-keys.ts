import { AiVideosRepository } from '../ai/ai-videos.repository';
import { BackgroundsRepository } from '../backgrounds/backgrounds.repository';
import type { Db } from '../db/index';
import { VideosRepository } from '../videos/videos.repository';

/** A page of one table's media keys after `afterId` (rows in id order), with the last id it read. */
type KeyPage = (db: Db, afterId: number, limit: number) => Promise<{ lastId: number | null; keys: string[] }>;

const page =
  <R extends { id: number }>(
    rows: (db: Db, afterId: number, limit: number) => Promise<R[]>,
    keysOf: (row: R) => (string | null)[],
  ): KeyPage =>
  async (db, afterId, limit) => {
    const found = await rows(db, afterId, limit);
    return {
      lastId: found.length ? found[found.length - 1]!.id : null,
      keys: found.flatMap((r) => keysOf(r).filter((k): k is string => !!k)),
    };
  };

/**
 * Every column where a row names a media object (the same ones the orphan sweep asks about through the
 * repositories' `knownKeys`): background files and previews, uploaded clips, rendered outputs, AI videos and
 * screenshots.
 */
const KEY_COLUMNS: readonly KeyPage[] = [
  page(
    (db, after, limit) =>
      db
        .selectFrom('backgroundItems')
        .select(['id', 'storageKey', 'previewKey'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute(),
    (r) => [r.storageKey, r.previewKey],
  ),
  page(
    (db, after, limit) =>
      db
        .selectFrom('createVideoRequests')
        .select(['id', 'clipKey'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute(),
    (r) => [r.clipKey],
  ),
  page(
    (db, after, limit) =>
      db.selectFrom('videos').select(['id', 'storageKey']).where('id', '>', after).orderBy('id').limit(limit).execute(),
    (r) => [r.storageKey],
  ),
  page(
    (db, after, limit) =>
      db
        .selectFrom('aiVideos')
        .select(['id', 'storageKey'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute(),
    (r) => [r.storageKey],
  ),
  page(
    (db, after, limit) =>
      db
        .selectFrom('aiScreenshots')
        .select(['id', 'storageKey'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute(),
    (r) => [r.storageKey],
  ),
];

/**
 * Every media key the database names, each once, read in pages of `pageSize` rows (a running installation
 * keeps writing meanwhile: rows added after their table was read are found by the next call).
 */
export async function* mediaKeys(db: Db, pageSize = 1000): AsyncIterable<string> {
  const seen = new Set<string>();
  for (const read of KEY_COLUMNS) {
    let after = 0;
    for (;;) {
      const { lastId, keys } = await read(db, after, pageSize);
      for (const key of keys) {
        if (seen.has(key)) continue;
        seen.add(key);
        yield key;
      }
      if (lastId === null) break;
      after = lastId;
    }
  }
}

/** Which of `keys` the database still names (the orphan sweep's question, asked of the same repositories). */
export async function knownMediaKeys(db: Db, keys: string[]): Promise<Set<string>> {
  const found = await Promise.all([
    new BackgroundsRepository(db).knownKeys(keys),
    new VideosRepository(db).knownKeys(keys),
    new AiVideosRepository(db).knownKeys(keys),
  ]);
  return new Set(found.flatMap((s) => [...s]));
}
