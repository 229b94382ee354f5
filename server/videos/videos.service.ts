import type { RequestListParams } from '../../src/contract/list-queries';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthUser } from '../../src/contract/auth';
import type { Page } from '../../src/contract/pagination';
import { toId } from '../../src/contract/ids';
import {
  CREATE_VIDEO_FIELDS,
  CreateVideoFieldsSchema,
  VM,
  type CreateVideoRequest,
  type CreateVideoRequestDetail,
} from '../../src/contract/videos';
import { ownerScope } from '../auth/guards';
import type { Db } from '../db/index';
import { AppError, notFound } from '../http/errors';
import { validate } from '../http/validate';
import type { Media, Staged } from '../media/storage/index';
import type { Enqueue, JobQueue } from '../jobs/index';
import type { BackgroundLibrary } from '../backgrounds/index';
import { EXT_OF, sniffVideo } from '../backgrounds/sniff';
import type { RenderCancels } from './render-cancels';
import { clipKeyOf, outputKeyOf, workDirOf } from './video-files';
import { renderJob, renderJobKey } from './videos.jobs';
import type { RequestRow, VideosRepository } from './videos.repository';

import { drain, type UploadPart } from '../http/multipart';

/** Whether a local file holds a real video stream (ffprobe). */
export type VideoCheck = (path: string) => Promise<boolean>;

/**
 * Create-video requests (SPEC §2 Video, §5, §7). A request belongs to its creator; an admin sees all;
 * anyone else's request by id is a 404. Creating one streams the clip to storage, checks it is a real
 * video, checks the folders, and inserts the request plus its render job in one transaction.
 */
export class VideosService {
  constructor(
    private repo: VideosRepository,
    private deps: {
      db: Db;
      media: Media;
      queue: { enqueue: Enqueue; cancel: JobQueue['cancel'] };
      backgrounds: BackgroundLibrary;
      isVideo: VideoCheck;
      /** This process's running renders: a deleted request's is stopped at once. */
      cancels: RenderCancels;
      workRoot: string;
      log?: FastifyBaseLogger;
    },
  ) {}

  async list(user: AuthUser, params: RequestListParams): Promise<Page<CreateVideoRequest>> {
    const p = await this.repo.list(ownerScope(user), params);
    return { ...p, data: await this.withFolderNames(p.data.map(toRecord)) };
  }

  /** Each record's folder names (one query for the page); a folder deleted since shows as '#id'. */
  private async withFolderNames<T extends CreateVideoRequest>(records: T[]): Promise<T[]> {
    const names = await this.repo.folderNames([...new Set(records.flatMap((r) => r.options.folders))]);
    return records.map((r) => ({ ...r, folderNames: r.options.folders.map((id) => names.get(id) ?? `#${id}`) }));
  }

  async get(user: AuthUser, idOrUpload: string): Promise<CreateVideoRequestDetail> {
    const row = await this.find(user, idOrUpload);
    const outputs = await this.repo.outputs(row.id);
    const [record] = await this.withFolderNames([toRecord(row)]);
    return {
      ...record!,
      video: outputs.map((o) => ({
        id: o.id,
        index: o.outputIndex,
        status: o.status,
        url: o.storageKey && o.mediaRemovedAt === null ? this.deps.media.signer.url(o.storageKey) : null,
        removed: o.mediaRemovedAt !== null,
      })),
    };
  }

  /** DELETE /api/create-video/{id}: the request, its outputs (rows and files), its clip; a running render is cancelled. */
  async remove(user: AuthUser, idOrUpload: string): Promise<CreateVideoRequest> {
    const row = await this.find(user, idOrUpload);
    const outputs = await this.repo.outputs(row.id);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.repo.delete(trx, row.id);
      await this.deps.queue.cancel(renderJobKey(row.id), trx);
    });
    this.deps.cancels.cancel(row.id);
    const keys = new Set<string>([row.clipKey, ...outputs.flatMap((o) => (o.storageKey ? [o.storageKey] : []))]);
    for (let i = 0; i < row.count; i++) keys.add(outputKeyOf(row.userId, row.idUpload, i)); // files whose row was never written
    for (const key of keys) {
      try {
        await this.deps.media.storage.delete(key);
      } catch (err) {
        this.deps.log?.error({ err, key }, 'media file could not be removed');
      }
    }
    await rm(workDirOf(this.deps.workRoot, row.id), { recursive: true, force: true }).catch(() => {});
    return toRecord(row);
  }

  /** POST /api/create-video/create (multipart: file, countVideo, isVideo, isPhoto, isGenerator, folders[]). */
  async create(user: AuthUser, parts: AsyncIterable<UploadPart>): Promise<CreateVideoRequest> {
    const fields: Record<string, unknown> = {};
    const folders: unknown[] = [];
    const files: Array<{ name: string; mime: string; staged?: Staged }> = [];
    let committedKey: string | undefined;
    try {
      for await (const part of parts) {
        const name = part.fieldname.replace(/\[\d*\]$/, '');
        if (part.type === 'field') {
          if (name === CREATE_VIDEO_FIELDS.folders) folders.push(part.value);
          else fields[name] = part.value;
          continue;
        }
        if (name !== CREATE_VIDEO_FIELDS.file && name !== 'files' && name !== 'videos') {
          await drain(part.file);
          continue;
        }
        const f: (typeof files)[number] = { name: part.filename || 'video', mime: part.mimetype };
        files.push(f);
        // Only the first file is kept; more than one is refused below without storing the rest.
        if (files.length === 1 && part.mimetype.toLowerCase().startsWith('video/'))
          f.staged = await this.deps.media.storage.stage(part.file);
        else await drain(part.file);
      }
      const errors: Record<string, string> = {};
      const parsed = CreateVideoFieldsSchema.safeParse({ ...fields, folders });
      if (!parsed.success) for (const i of parsed.error.issues) errors[String(i.path[0] ?? 'body')] ??= i.message;
      if (!files.length) errors.file = VM.minOneVideo;
      else if (files.length > 1) errors.file = VM.maxOneVideo;
      else if (
        !files[0]!.staged ||
        !sniffVideo(files[0]!.staged.head) ||
        !(await this.deps.isVideo(files[0]!.staged.path))
      )
        errors.file = VM.mustBeVideo;
      if (!parsed.success || Object.keys(errors).length) throw new AppError(400, Object.values(errors)[0]!, errors);
      const opts = validate(CreateVideoFieldsSchema, { ...fields, folders });

      // Folders: every one must be the caller's (an admin may use anyone's); the chosen kinds must have items.
      const scope = ownerScope(user);
      const visible = new Set(await this.deps.backgrounds.visibleFolderIds(opts.folders, scope));
      if (opts.folders.some((id) => !visible.has(id)))
        throw new AppError(400, VM.folderUnavailable, { folders: VM.folderUnavailable });
      if (opts.isPhoto || opts.isVideo) {
        const items = await this.deps.backgrounds.listFolderItems(opts.folders, scope);
        const images = items.some((i) => i.type === 'image');
        const videos = items.some((i) => i.type === 'video');
        // Both toggles on: either kind is enough (outputs alternate where both exist).
        if (opts.isPhoto && !opts.isVideo && !images) throw new AppError(400, VM.noImages, { folders: VM.noImages });
        if (opts.isVideo && !opts.isPhoto && !videos) throw new AppError(400, VM.noVideos, { folders: VM.noVideos });
        if (opts.isVideo && opts.isPhoto && !images && !videos)
          throw new AppError(400, VM.noImages, { folders: VM.noImages });
      }

      const staged = files[0]!.staged!;
      const idUpload = randomBytes(8).toString('hex');
      const ext = EXT_OF[sniffVideo(staged.head)!] ?? 'mp4';
      const clipKey = clipKeyOf(user.id, idUpload, ext);
      const at = new Date().toISOString();
      // The clip first, then its row and render job (no transaction waits on an upload to S3): a failure
      // removes the clip, and a crash in between leaves only a clip without a row, which the orphan sweep removes.
      await staged.commit(clipKey);
      committedKey = clipKey;
      const id = await this.deps.db.transaction().execute(async (trx) => {
        const id = await this.repo.insert(trx, {
          userId: user.id,
          idUpload,
          status: 'pending',
          count: opts.countVideo,
          isVideo: +opts.isVideo,
          isPhoto: +opts.isPhoto,
          isGenerator: +opts.isGenerator,
          folders: JSON.stringify(opts.folders),
          clipKey,
          clipSize: staged.size,
          clipName: files[0]!.name.slice(0, 255),
          error: null,
          createdAt: at,
          updatedAt: at,
        });
        await this.deps.queue.enqueue(renderJob, { requestId: id }, { key: renderJobKey(id) }, trx);
        return id;
      });
      committedKey = undefined; // the row names it now
      return toRecord((await this.repo.get(null, { id }))!);
    } catch (err) {
      await Promise.all(files.map((f) => f.staged?.discard().catch(() => {})));
      if (committedKey) await this.deps.media.storage.delete(committedKey).catch(() => {});
      throw err;
    }
  }

  private async find(user: AuthUser, idOrUpload: string): Promise<RequestRow> {
    const id = /^\d+$/.test(idOrUpload) ? toId(idOrUpload) : 0;
    const by = id > 0 ? { id } : id === 0 && /^[A-Za-z0-9_-]{1,64}$/.test(idOrUpload) ? { idUpload: idOrUpload } : null;
    const row = by && (await this.repo.get(ownerScope(user), by));
    if (!row) throw notFound();
    return row;
  }
}

export function toRecord(r: RequestRow): CreateVideoRequest {
  return {
    id: r.id,
    idUpload: r.idUpload,
    status: r.status,
    progress: r.status === 'success' ? 100 : Number(r.progress),
    error: r.error,
    count: Number(r.count),
    done: Number(r.done),
    options: {
      isVideo: !!r.isVideo,
      isPhoto: !!r.isPhoto,
      isGenerator: !!r.isGenerator,
      folders: JSON.parse(r.folders) as number[],
    },
    user: { id: r.userId, login: r.ownerLogin },
    createdAt: r.createdAt,
    clipName: r.clipName,
  };
}
