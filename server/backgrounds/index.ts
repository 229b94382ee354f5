import type { Db } from '../db/index';
import type { Storage } from '../media/storage/index';
import { BackgroundsRepository } from './backgrounds.repository';
import type { FolderItemForRender } from './backgrounds.service';

export type { FolderItemForRender } from './backgrounds.service';
export { backgroundsRoutes } from './backgrounds.routes';

/**
 * For create-video and the render worker: the items of `folderIds` that `scope` may use
 * (ownerScope(user): null = an admin, every folder; else only that user's folders), ordered by id, each with
 * a local `path` ffmpeg can read. Folders outside the scope or missing contribute nothing.
 */
export async function listFolderItems(deps: { db: Db; storage: Storage }, folderIds: number[], scope: number | null): Promise<FolderItemForRender[]> {
  const rows = await new BackgroundsRepository(deps.db).folderItems(folderIds, scope);
  return Promise.all(rows.map(async (r) => ({ id: r.id, folderId: r.folderId, type: r.type, key: r.storageKey, path: await deps.storage.inputPath(r.storageKey) })));
}

/** Which of `folderIds` exist within the scope (for the create-video form's "at least one folder" check). */
export function visibleFolderIds(db: Db, folderIds: number[], scope: number | null): Promise<number[]> {
  return new BackgroundsRepository(db).visibleFolderIds(folderIds, scope);
}
