import type { PublicationListParams } from '../../src/contract/list-queries';
import type { AuthUser } from '../../src/contract/auth';
import { M } from '../../src/contract/messages';
import type { Page } from '../../src/contract/pagination';
import {
  PM,
  type Publication,
  type PublicationCreateSchema,
  type PublicationPatchSchema,
  type YouTubeItem,
} from '../../src/contract/publications';
import type { z } from 'zod';
import { ownerScope } from '../auth/guards';
import type { Db } from '../db/index';
import { AppError, notFound } from '../http/errors';
import type { MediaSigner } from '../media/storage/index';
import type { VideosRepository } from '../videos/index';
import { hasGoneLive, isEditable, platformsOf, toPublication, toYouTubeItem } from './publication-record';
import type { PublicationSchedule } from './publication-schedule';
import type { PublicationRow, PublicationsRepository } from './publications.repository';
import { TOGGLE_FIELD, alreadyPublished, checkAccount, fieldError, notConnected, refOf } from './publication-rules';

type CreateBody = z.output<typeof PublicationCreateSchema>;
type PatchBody = z.output<typeof PublicationPatchSchema>;

/**
 * Publications (SPEC §2 Video, §5, §7): one per finished create-video request. A user publishes only their own
 * request's videos to their own profiles; an admin any. Every change writes the rows and their publish jobs in
 * one transaction (publication-schedule.ts); the publish worker (publish.*.ts) walks the rows.
 */
export class PublicationsService {
  constructor(
    private repo: PublicationsRepository,
    private deps: { db: Db; requests: VideosRepository; schedule: PublicationSchedule; signer: MediaSigner },
  ) {}

  async list(user: AuthUser, params: PublicationListParams): Promise<Page<YouTubeItem>> {
    const p = await this.repo.list(ownerScope(user), params);
    const videos = await this.repo.listVideos(p.data.map((r) => r.id));
    return { ...p, data: p.data.map((r) => toYouTubeItem(r, videos.get(r.id) ?? [])) };
  }

  /** GET /api/upload-video/{id}: by publication id, or by its request's idUpload. */
  async get(user: AuthUser, ref: string): Promise<Publication> {
    return this.detail(await this.find(user, ref));
  }

  /** POST /api/upload-video/{idUpload}: SPEC §5 publish form. */
  async create(user: AuthUser, ref: string, body: CreateBody): Promise<Publication> {
    const scope = ownerScope(user);
    const by = refOf(ref);
    const request = by && (await this.deps.requests.get(scope, by));
    if (!request) throw notFound();
    if (request.status !== 'success') throw fieldError('idUpload', PM.requestNotReady);
    if (await this.repo.get(null, { requestId: request.id })) throw alreadyPublished();

    const outputs = new Set((await this.deps.requests.outputs(request.id)).map((o) => o.id));
    const seen = new Set<number>();
    body.video.forEach((v, i) => {
      if (!outputs.has(v.id)) throw fieldError(`video.${i}.id`, PM.videoNotInRequest, { video: v.id });
      if (seen.has(v.id)) throw fieldError(`video.${i}.id`, PM.duplicateVideo, { video: v.id });
      seen.add(v.id);
    });
    const accounts = await this.repo.accounts(
      [...new Set([...body.accounts, ...body.video.map((v) => v.account)])],
      scope,
    );
    const i = body.accounts.findIndex((id) => !accounts.has(id));
    if (i >= 0) throw fieldError(`accounts.${i}`, PM.accountUnavailable);
    const platforms = platformsOf({
      inYoutube: body.inYouTube,
      inTiktok: body.inTikTok,
      inInstagram: body.inInstagram,
    });
    body.video.forEach((v, n) => checkAccount(accounts.get(v.account), `video.${n}.account`, platforms));
    const existing = await this.repo.publishes(body.video.map((v) => v.id));
    body.video.forEach((v, n) => {
      if (hasGoneLive(existing.filter((r) => r.videoId === v.id))) {
        throw fieldError(`video.${n}.id`, PM.videoLive);
      }
    });

    const at = new Date().toISOString();
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.repo.insert(trx, {
        userId: request.userId,
        requestId: request.id,
        title: body.title,
        description: body.description,
        tags: JSON.stringify(body.tags),
        inYoutube: +body.inYouTube,
        inTiktok: +body.inTikTok,
        inInstagram: +body.inInstagram,
        createdAt: at,
        updatedAt: at,
      });
      if (id === undefined) throw alreadyPublished();
      for (const v of body.video) {
        const current = (await this.repo.video(v.id, trx))!;
        const version = Number(current.version) + 1;
        await this.repo.updateVideo(trx, v.id, {
          title: v.title,
          description: v.description,
          tags: JSON.stringify(v.tags),
          accountId: v.account,
          date: v.date,
          publicationId: id,
          status: 'publication',
          version,
          error: null,
          errorTikTok: null,
          errorInstagram: null,
        });
        const rows = existing.filter((r) => r.videoId === v.id);
        for (const platform of platforms) {
          const row = rows.find((r) => r.platform === platform);
          await this.deps.schedule.schedule(trx, { id: v.id, accountId: v.account, version }, platform, v.date, row);
        }
        for (const row of rows.filter((r) => !platforms.includes(r.platform)))
          await this.deps.schedule.cancel(trx, row);
      }
      return id;
    });
    return this.detail((await this.repo.get(null, { id }))!);
  }

  /**
   * PATCH /api/upload-video/{id}: SPEC §5 publication edit. The publication's version goes up; the videos no
   * platform has started yet take each changed field (a field left as it was keeps each video's own value) and
   * the toggles (rows added, or cancelled with their jobs), and their versions go up.
   */
  async update(user: AuthUser, ref: string, body: PatchBody): Promise<Publication> {
    const pub = await this.find(user, ref);
    const videos = await this.repo.videos(pub.id);
    const rows = await this.repo.publishes(videos.map((v) => v.id));
    const pending = videos.filter((v) => isEditable(rows.filter((r) => r.videoId === v.id)));
    const before = platformsOf(pub);
    const after = platformsOf({ inYoutube: body.inYouTube, inTiktok: body.inTikTok, inInstagram: body.inInstagram });
    const added = after.filter((p) => !before.includes(p));
    const accounts = await this.repo.accounts(
      pending.flatMap((v) => (v.accountId ? [v.accountId] : [])),
      null,
    );
    for (const v of pending) {
      const account = accounts.get(v.accountId ?? 0);
      const off = added.find((p) => !account?.connected[p]);
      if (off) throw notConnected(TOGGLE_FIELD[off], v.accountId ?? 0, off);
    }
    const tags = JSON.stringify(body.tags);
    const changed = {
      title: body.title !== pub.title ? body.title : undefined,
      description: body.description !== pub.description ? body.description : undefined,
      tags: tags !== pub.tags ? tags : undefined,
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await this.repo.update(trx, pub.id, {
        title: body.title,
        description: body.description,
        tags,
        inYoutube: +body.inYouTube,
        inTiktok: +body.inTikTok,
        inInstagram: +body.inInstagram,
      });
      for (const v of pending) {
        const version = Number(v.version) + 1;
        await this.repo.updateVideo(trx, v.id, { ...changed, version });
        const own = rows.filter((r) => r.videoId === v.id);
        for (const row of own) {
          if (!after.includes(row.platform)) await this.deps.schedule.cancel(trx, row);
          else if (row.state !== 'cancelled') await this.repo.updatePublish(trx, row.id, { videoVersion: version });
        }
        for (const platform of after) {
          const row = own.find((r) => r.platform === platform);
          if (v.accountId && (!row || row.state === 'cancelled')) {
            await this.deps.schedule.schedule(
              trx,
              { id: v.id, accountId: v.accountId, version },
              platform,
              v.date ?? new Date().toISOString(),
              row,
            );
          }
        }
        await this.deps.schedule.refreshVideo(trx, v.id);
      }
    });
    return this.detail((await this.repo.get(null, { id: pub.id }))!);
  }

  /** POST /api/upload-video/upload {videoId, youTubeId}: publish one video again (status error or loading). */
  async republish(user: AuthUser, body: { videoId: number; youTubeId: number }): Promise<Publication> {
    const pub = await this.find(user, String(body.youTubeId));
    const video = await this.repo.video(body.videoId);
    if (!video || video.publicationId !== pub.id) throw new AppError(404, M.notFound, { videoId: M.notFound });
    if (video.status !== 'error' && video.status !== 'loading') {
      throw fieldError('videoId', PM.notRepublishable);
    }
    const rows = (await this.repo.publishes([video.id])).filter((r) => r.state !== 'cancelled');
    const account = (await this.repo.accounts(video.accountId ? [video.accountId] : [], null)).get(
      video.accountId ?? 0,
    );
    const failed = rows.filter((r) => r.state === 'failed');
    const off = failed.find((r) => !account?.connected[r.platform]);
    if (off) throw notConnected('videoId', video.accountId ?? 0, off.platform);
    await this.deps.db.transaction().execute(async (trx) => {
      for (const row of rows) await this.deps.schedule.restart(trx, row, Number(video.version));
      await this.deps.schedule.refreshVideo(
        trx,
        video.id,
        failed.map((r) => r.platform),
      );
    });
    return this.detail((await this.repo.get(null, { id: pub.id }))!);
  }

  /**
   * DELETE /api/upload-video/{id}: every row that has not reached the public step is cancelled with its jobs;
   * videos that went live keep their status and links. The request may be published again afterwards.
   */
  async remove(user: AuthUser, ref: string): Promise<Publication> {
    const pub = await this.find(user, ref);
    const answer = await this.detail(pub);
    const videos = await this.repo.videos(pub.id);
    const rows = await this.repo.publishes(videos.map((v) => v.id));
    await this.deps.db.transaction().execute(async (trx) => {
      for (const row of rows) await this.deps.schedule.cancel(trx, row);
      for (const v of videos) {
        if (!hasGoneLive(rows.filter((r) => r.videoId === v.id))) await this.detachVideo(trx, v.id, Number(v.version));
      }
      await this.repo.delete(trx, pub.id);
    });
    return answer;
  }

  /** DELETE /api/upload-video/video/{videoId}: takes one video out of its publication before it goes live. */
  async removeVideo(user: AuthUser, videoId: number): Promise<Publication> {
    const video = await this.repo.video(videoId);
    if (!video?.publicationId) throw notFound();
    const pub = await this.find(user, String(video.publicationId));
    const rows = await this.repo.publishes([video.id]);
    if (hasGoneLive(rows)) throw fieldError('videoId', PM.videoLive);
    await this.deps.db.transaction().execute(async (trx) => {
      for (const row of rows) await this.deps.schedule.cancel(trx, row);
      await this.detachVideo(trx, video.id, Number(video.version));
      await this.repo.update(trx, pub.id, {});
    });
    return this.detail((await this.repo.get(null, { id: pub.id }))!);
  }

  private async detachVideo(trx: Parameters<PublicationsRepository['updateVideo']>[0], id: number, version: number) {
    await this.repo.updateVideo(trx, id, { publicationId: null, status: 'noactive', version: version + 1 });
  }

  private async detail(pub: PublicationRow): Promise<Publication> {
    const videos = await this.repo.videos(pub.id);
    const rows = await this.repo.publishes(videos.map((v) => v.id));
    return toPublication(pub, videos, rows, this.deps.signer);
  }

  private async find(user: AuthUser, ref: string): Promise<PublicationRow> {
    const by = refOf(ref);
    const row = by && (await this.repo.get(ownerScope(user), by));
    if (!row) throw notFound();
    return row;
  }
}
