import type { FolderListParams } from '../../src/contract/list-queries';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthUser } from '../../src/contract/auth';
import {
  BM,
  UPLOAD_FIELDS,
  isImageType,
  isVideoType,
  type BackgroundFolder,
  type BackgroundItem,
  type BackgroundType,
  type FolderBody,
  type FolderItemsPage,
} from '../../src/contract/backgrounds';
import type { SelectOption } from '../../src/contract/groups';
import type { Page } from '../../src/contract/pagination';
import { ownerScope } from '../auth/guards';
import { AppError, notFound } from '../http/errors';
import { parseId } from '../http/validate';
import type { Media } from '../media/storage/index';
import type { MediaTools } from './backgrounds.media';
import type { BackgroundsRepository, FolderRow, ItemRow, NewItem } from './backgrounds.repository';
import { EXT_OF } from './sniff';
import { discardUploads, fieldName, inspectUpload, kindOfField, type Pending } from './backgrounds.upload';
import { drain, type UploadPart } from '../http/multipart';

/** A background item for the render engine (its file: `storage.inputPath(key, …)`). */
export type FolderItemForRender = { id: number; folderId: number; type: BackgroundType; key: string };

/**
 * Background folders and items (SPEC §2, §7). A folder belongs to its creator (its items to the folder's
 * owner); an admin reaches all; anyone else's folder or item by id is a 404. Uploads are all-or-nothing:
 * every file is streamed to a staging file and checked (declared type, magic bytes, ffprobe) and previewed;
 * only then are the rows inserted and the files moved into place, in one transaction.
 */
export class BackgroundsService {
  constructor(
    private repo: BackgroundsRepository,
    private media: Media,
    private tools: MediaTools,
    private log?: FastifyBaseLogger,
  ) {}

  // ---- folders

  listFolders(user: AuthUser, params: FolderListParams): Promise<Page<BackgroundFolder>> {
    return this.repo.listFolders(ownerScope(user), params);
  }

  folderOptions(user: AuthUser): Promise<SelectOption[]> {
    return this.repo.folderOptions(ownerScope(user));
  }

  async getFolder(user: AuthUser, id: number): Promise<BackgroundFolder> {
    return this.folderRecord(await this.folderRow(user, id));
  }

  async createFolder(user: AuthUser, body: FolderBody): Promise<BackgroundFolder> {
    const id = await this.repo.insertFolder(user.id, body.name);
    return this.getFolder(user, id);
  }

  async renameFolder(user: AuthUser, id: number, body: FolderBody): Promise<BackgroundFolder> {
    await this.folderRow(user, id);
    await this.repo.renameFolder(id, body.name);
    return this.getFolder(user, id);
  }

  /** Deletes the folder, its items and their files (rows first, so no row ever points at a missing file). */
  async deleteFolder(user: AuthUser, id: number): Promise<BackgroundFolder> {
    const folder = await this.getFolder(user, id);
    const keys = await this.repo.deleteFolder(id);
    await this.removeFiles(keys);
    return folder;
  }

  // ---- items

  async listAllItems(user: AuthUser, page: number): Promise<Page<BackgroundItem>> {
    const p = await this.repo.listItems(ownerScope(user), null, page);
    return { ...p, data: p.data.map((r) => this.itemRecord(r)) };
  }

  async listFolderPage(user: AuthUser, folderId: number, page: number): Promise<FolderItemsPage> {
    const folder = await this.folderRow(user, folderId);
    const p = await this.repo.listItems(ownerScope(user), folderId, page);
    return { ...p, data: p.data.map((r) => this.itemRecord(r)), folder: { id: folder.id, name: folder.name } };
  }

  async deleteItem(user: AuthUser, id: number): Promise<BackgroundItem> {
    const row = await this.repo.getItem(ownerScope(user), id);
    if (!row) throw notFound();
    await this.repo.deleteItem(id);
    await this.removeFiles(row.previewKey ? [row.storageKey, row.previewKey] : [row.storageKey]);
    return this.itemRecord(row);
  }

  /**
   * For the render engine: every item of the given folders that `scope` may use (ownerScope: null = all).
   * Folders outside the scope simply contribute nothing.
   */
  async listFolderItems(folderIds: number[], scope: number | null): Promise<FolderItemForRender[]> {
    const rows = await this.repo.folderItems(folderIds, scope);
    return rows.map((r) => ({ id: r.id, folderId: r.folderId, type: r.type, key: r.storageKey }));
  }

  /** Which of `folderIds` exist within the scope (the create-video form's folder check). */
  visibleFolderIds(folderIds: number[], scope: number | null): Promise<number[]> {
    return this.repo.visibleFolderIds(folderIds, scope);
  }

  // ---- upload

  /** POST /api/photo-bg: multipart files[] (images), videos[] (videos), folderId. All or nothing. */
  async upload(user: AuthUser, parts: AsyncIterable<UploadPart>): Promise<{ data: BackgroundItem[] }> {
    const pending: Pending[] = [];
    const errors: Record<string, string> = {};
    const counts = { image: 0, video: 0 };
    let folder: FolderRow | undefined;
    let sawFolderField = false;
    const committed: string[] = [];
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (fieldName(part.fieldname) === UPLOAD_FIELDS.folder && !sawFolderField) {
            sawFolderField = true;
            folder = await this.folderRow(user, parseId(String(part.value ?? ''), 'folderId'));
          }
          continue;
        }
        const kind = kindOfField(part.fieldname);
        if (!kind) {
          await drain(part.file);
          continue;
        }
        const p: Pending = {
          kind,
          field: fieldName(part.fieldname),
          index: counts[kind]++,
          name: part.filename || 'file',
          mime: part.mimetype,
        };
        pending.push(p);
        const declaredOk = kind === 'image' ? isImageType(p.mime) : isVideoType(p.mime);
        if (!declaredOk) {
          // SPEC §5: the declared type is wrong; nothing of it touches the disk.
          await drain(part.file);
          errors[`${p.field}.${p.index}`] = kind === 'image' ? BM.mustBeImage : BM.mustBeVideo;
          continue;
        }
        p.staged = await this.media.storage.stage(part.file, { sniffBytes: 4100 });
      }
      if (!folder) throw new AppError(400, BM.folderRequired, { folderId: BM.folderRequired });
      if (!pending.length) throw new AppError(400, BM.atLeastOneFile, { files: BM.atLeastOneFile });

      for (const p of pending) {
        if (!p.staged || errors[`${p.field}.${p.index}`]) continue;
        if (!(await inspectUpload(p, this.media, this.tools, this.log)))
          errors[`${p.field}.${p.index}`] = p.kind === 'image' ? BM.mustBeImage : BM.mustBeVideo;
      }
      const firstError = Object.values(errors)[0];
      if (firstError) throw new AppError(400, firstError, errors);

      const owner = folder.userId;
      const at = new Date().toISOString();
      const plan = pending.map((p) => {
        const base = `backgrounds/${owner}/${folder!.id}/${randomUUID()}`;
        return { p, key: `${base}.${EXT_OF[p.format!] ?? 'bin'}`, previewKey: `${base}.thumb.jpg` };
      });
      const rows: NewItem[] = plan.map(({ p, key, previewKey }) => ({
        folderId: folder!.id,
        userId: owner,
        type: p.kind,
        storageKey: key,
        previewKey,
        originalName: p.name.slice(0, 255),
        mime: p.mime.slice(0, 100),
        size: p.staged!.size,
        width: null,
        height: null,
        duration: null,
        createdAt: at,
      }));
      // Files first, rows after (no transaction waits on an upload to S3): a failure removes the files
      // committed so far, and a crash in between leaves only files without rows, which the orphan sweep removes.
      // The folder deleted while the files were arriving: a 404, and nothing is stored.
      if (!(await this.repo.getFolder(null, folder.id))) throw notFound();
      for (const { p, key, previewKey } of plan) {
        await p.staged!.commit(key);
        committed.push(key);
        await this.media.storage.putFile(previewKey, p.thumb!);
        committed.push(previewKey);
      }
      const ids = await this.repo.insertItems(rows).catch(async (err) => {
        // The folder was deleted while the files were stored: a 404, not a server error.
        if (!(await this.repo.getFolder(null, folder!.id))) throw notFound();
        throw err;
      });
      return {
        data: plan.map(({ p, key, previewKey }, i) =>
          this.itemRecord({
            id: ids[i]!,
            folderId: folder!.id,
            userId: owner,
            type: p.kind,
            storageKey: key,
            previewKey,
            originalName: p.name,
            size: p.staged!.size,
          }),
        ),
      };
    } catch (err) {
      await discardUploads(pending);
      await this.removeFiles(committed);
      throw err;
    }
  }

  // ---- helpers

  private async folderRow(user: AuthUser, id: number): Promise<FolderRow> {
    const row = await this.repo.getFolder(ownerScope(user), id);
    if (!row) throw notFound();
    return row;
  }

  private async folderRecord(row: FolderRow): Promise<BackgroundFolder> {
    return {
      id: row.id,
      name: row.name,
      total: await this.repo.countItems(row.id),
      user: { id: row.userId, login: row.ownerLogin },
      createdAt: row.createdAt,
    };
  }

  /** Only the owner or an admin ever receives these links: they are minted inside owner-scoped answers. */
  private itemRecord(r: ItemRow): BackgroundItem {
    return {
      id: r.id,
      type: r.type,
      folderId: r.folderId,
      name: r.originalName,
      size: Number(r.size),
      url: this.media.signer.url(r.storageKey),
      previewUrl: r.previewKey ? this.media.signer.url(r.previewKey) : null,
    };
  }

  private async removeFiles(keys: string[]) {
    for (const key of keys) {
      try {
        await this.media.storage.delete(key);
      } catch (err) {
        this.log?.error({ err, key }, 'media file could not be removed');
      }
    }
  }
}
