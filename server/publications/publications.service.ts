import { actorOf, record } from '../audit/audit';
import type { Acting } from '../auth/guards';
import type { PublicationListParams } from '../../src/contract/list-queries';
import type { AuthUser } from '../../src/contract/auth';
import { inListOrder, type PlatformKey } from '../../src/contract/platforms';
import { M } from '../../src/contract/messages';
import type { Page } from '../../src/contract/pagination';
import {
  PM,
  POST_ACTION_MESSAGES as POST,
  STATS_REFRESH_COOLDOWN_MS,
  isEditable,
  refusedByCheck,
  toggledPlatforms,
  type Publication,
  type PublicationCreateSchema,
  type PublicationPatchSchema,
  type ProfileConnections,
  type PublishSkip,
  type PublishSource,
  type YouTubeItem,
} from '../../src/contract/publications';
import type { z } from 'zod';
import { toAppError } from '../accounts/platform-connections';
import { TooManyRequests } from '../http/errors';
import { duplicatePost } from '../publishing/duplicate-post';
import type { PublishStats } from '../publishing/publish.stats';
import type { PublishingRepository } from '../publishing/publishing.repository';
import { ownerScope } from '../auth/guards';
import type { Db } from '../db/index';
import { AppError, notFound } from '../http/errors';
import type { MediaSigner } from '../media/storage/index';
import type { VideosRepository } from '../videos/index';
import { hasGoneLive, retryOf, toPlatformPublish, toPublication, toYouTubeItem } from './publication-record';
import type { PublicationSchedule } from './publication-schedule';
import type { PublicationRow, PublicationsRepository } from './publications.repository';
import {
  alreadyPublished,
  connectedOf,
  fieldError,
  notConnected,
  planOrRefuse,
  refOf,
  usedPlatforms,
} from './publication-rules';
import type { Exec, PublishAccount } from './publications.repository';
import type { TikTokCreators } from './tiktok-creator';
import {
  PPM,
  storedVideoPosts,
  type PlatformPosts,
  type TikTokCreatorInfo,
  type VideoPosts,
} from '../../src/contract/platform-posts';
import { SM } from '../../src/contract/slots';

type CreateBody = z.output<typeof PublicationCreateSchema>;

/**
 * What the publish form needs of the AI service (server/ai/ai-videos.service.ts is it; the container passes it
 * in, so publications does not import ai back). `Row` is the AI video as that service reads it.
 */
export interface AiVideoPublisher<Row = unknown> {
  publishable(user: AuthUser, id: number): Promise<Row>;
  publishAs(
    actor: Acting,
    row: Row,
    o: {
      accountId: number;
      platforms: readonly PlatformKey[];
      title: string;
      description: string;
      tags: string[];
      date: string;
      posts?: PlatformPosts;
      /** The video's own texts per platform (videos.posts, 047). */
      videoPosts?: VideoPosts;
      allowRepeat?: boolean;
    },
  ): Promise<{ publicationId: number; videoId: number }>;
  source(user: AuthUser, id: number): Promise<PublishSource>;
}
type PatchBody = z.output<typeof PublicationPatchSchema>;

/**
 * Publications (SPEC §2 Video, §5, §7): one per finished create-video request. A user publishes only their own
 * request's videos to their own profiles; an admin any. Every change writes the rows and their publish jobs in
 * one transaction (publication-schedule.ts); the publish worker (publish.*.ts) walks the rows.
 */
export class PublicationsService {
  constructor(
    private repo: PublicationsRepository,
    private deps: {
      db: Db;
      requests: VideosRepository;
      schedule: PublicationSchedule;
      signer: MediaSigner;
      /** One post's stats on demand (the stats pass's reader) and its cooldown claim. */
      posts: {
        stats: PublishStats;
        repo: Pick<PublishingRepository, 'askStats' | 'unaskStats' | 'update' | 'livePostsOfFile'>;
      };
      aiVideos: AiVideoPublisher;
      /** TikTok's creator_info per profile (the form's options, and the privacy level checked on saving). */
      creators: TikTokCreators;
      /**
       * "Add to queue" (issue 21 item 3): the next free slot of a profile on a platform, counting the posts
       * already written in `trx` (server/slots/slot-planner.ts; passed in by the container).
       */
      placeInSlot?: (trx: Exec, accountId: number, platform: PlatformKey, after: Date) => Promise<string>;
    },
  ) {}

  async list(user: AuthUser, params: PublicationListParams): Promise<Page<YouTubeItem>> {
    const p = await this.repo.list(ownerScope(user), params);
    const videos = await this.repo.listVideos(p.data.map((r) => r.id));
    const retrying = await this.repo.retryingPublications(p.data.map((r) => r.id));
    return { ...p, data: p.data.map((r) => toYouTubeItem(r, videos.get(r.id) ?? [], retrying.has(r.id))) };
  }

  /** GET /api/upload-video/{id}: by publication id, or by its request's idUpload. */
  async get(user: AuthUser, ref: string): Promise<Publication> {
    return this.detail(await this.find(user, ref));
  }

  /** POST /api/upload-video/{idUpload}: SPEC §5 publish form. */
  async create(user: Acting, ref: string, body: CreateBody): Promise<Publication & { skipped: PublishSkip[] }> {
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
    const accounts = await this.checkAccounts(body, scope);
    const plan = planOrRefuse(body.video, body, accounts);
    // A video none of whose chosen platforms its profile is connected to stays out (reported as skipped).
    const videos = body.video.filter((v) => plan.publish.get(v.id)?.length);
    const existing = await this.repo.publishes(body.video.map((v) => v.id));
    // A video that went live stays as it is; the same file again is a repeat (issue 21 item 5): refused on the
    // same profile and platform (a 409 naming them) unless allowed, then posted as a new placement of the file.
    const repeats = new Set<number>();
    for (const [n, v] of body.video.entries()) {
      if (!hasGoneLive(existing.filter((r) => r.videoId === v.id))) continue;
      if (v.allowRepeat) {
        repeats.add(v.id);
        continue;
      }
      for (const platform of plan.publish.get(v.id) ?? []) {
        if ((await this.deps.posts.repo.livePostsOfFile(this.deps.db, v.id, v.account, platform)).length)
          throw duplicatePost({ video: v.id, account: v.account, platform }, `video.${n}.allowRepeat`);
      }
      throw fieldError(`video.${n}.id`, PM.videoLive);
    }
    const used = usedPlatforms(plan.publish);
    await this.checkTikTokPost(body.posts, tiktokAccounts(videos, plan.publish));

    const at = new Date().toISOString();
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.repo.insert(trx, {
        userId: request.userId,
        requestId: request.id,
        title: body.title,
        description: body.description,
        tags: JSON.stringify(body.tags),
        createdAt: at,
        updatedAt: at,
      });
      if (id === undefined) throw alreadyPublished();
      // Its platforms are the ones some video goes to (the worker's claim re-check reads them).
      await this.repo.setPlatforms(trx, id, used, body.posts);
      for (const v of videos.filter((x) => repeats.has(x.id))) {
        const copy = await this.deps.requests.insertPlacement(trx, v.id, {
          accountId: v.account,
          title: v.title,
          description: v.description,
          tags: JSON.stringify(v.tags),
          date: v.date,
          publicationId: id,
          posts: storedVideoPosts(v.posts),
        });
        const field = `video.${body.video.indexOf(v)}.allowRepeat`;
        for (const platform of plan.publish.get(v.id)!)
          await this.deps.schedule.schedule(
            trx,
            { id: copy, accountId: v.account, version: 1 },
            platform,
            v.date,
            undefined,
            {
              allow: true,
              field,
            },
          );
      }
      const now = new Date();
      for (const v of videos.filter((x) => !repeats.has(x.id))) {
        const platforms = plan.publish.get(v.id)!;
        const current = (await this.repo.video(v.id, trx))!;
        const version = Number(current.version) + 1;
        // Queued: each post at its profile's next free slot on its platform; the video's date is the first.
        const due = new Map<PlatformKey, string>();
        for (const platform of platforms)
          due.set(platform, body.queue ? await this.slotOf(trx, v.account, platform, now) : v.date);
        await this.deps.requests.update(trx, v.id, {
          title: v.title,
          description: v.description,
          tags: JSON.stringify(v.tags),
          accountId: v.account,
          date: [...due.values()].sort()[0] ?? v.date,
          publicationId: id,
          posts: storedVideoPosts(v.posts),
          status: 'publication',
          version,
          error: null,
          errorTikTok: null,
          errorInstagram: null,
        });
        const rows = existing.filter((r) => r.videoId === v.id);
        for (const platform of platforms) {
          const row = rows.find((r) => r.platform === platform);
          const video = { id: v.id, accountId: v.account, version };
          await this.deps.schedule.schedule(trx, video, platform, due.get(platform)!, row, {
            allow: v.allowRepeat,
            field: `video.${body.video.indexOf(v)}.allowRepeat`,
          });
        }
        for (const row of rows.filter((r) => !(platforms as readonly string[]).includes(r.platform)))
          await this.deps.schedule.cancel(trx, row);
      }
      await record(trx, {
        ...actorOf(user),
        action: 'publication.created',
        objectType: 'publication',
        objectId: id,
        detail: { request: request.id, videos: videos.map((v) => ({ id: v.id, account: v.account, date: v.date })) },
      });
      return id;
    });
    return { ...(await this.detail((await this.repo.get(null, { id }))!)), skipped: plan.skipped };
  }

  /**
   * POST /api/upload-video/ai/{id}: an AI video through the same publish form (SPEC §2 AI Publish, prefilled).
   * The form's one video is the AI video; it becomes a `videos` row of the chosen profile with a publication of
   * its own (no create-video request), on the platforms the plan keeps.
   */
  async createForAi(user: Acting, aiVideoId: number, body: CreateBody) {
    const scope = ownerScope(user);
    if (body.queue) throw fieldError('queue', SM.queueNotForAi);
    const row = await this.deps.aiVideos.publishable(user, aiVideoId);
    body.video.forEach((v, i) => {
      if (v.id !== aiVideoId || i > 0) throw fieldError(`video.${i}.id`, PM.notAiVideo, { video: v.id });
    });
    const accounts = await this.checkAccounts(body, scope);
    const plan = planOrRefuse(body.video, body, accounts);
    const v = body.video[0]!;
    await this.checkTikTokPost(body.posts, tiktokAccounts(body.video, plan.publish));
    const done = await this.deps.aiVideos.publishAs(user, row, {
      accountId: v.account,
      platforms: plan.publish.get(v.id)!,
      title: v.title,
      description: v.description,
      tags: v.tags,
      date: v.date,
      posts: body.posts,
      videoPosts: v.posts,
      allowRepeat: v.allowRepeat,
    });
    return { id: done.publicationId, videoId: done.videoId, skipped: plan.skipped };
  }

  private slotOf(trx: Exec, accountId: number, platform: PlatformKey, after: Date): Promise<string> {
    if (!this.deps.placeInSlot) throw fieldError('queue', SM.queueNotForAi);
    return this.deps.placeInSlot(trx, accountId, platform, after);
  }

  /** GET /api/upload-video/form/{idUpload}: a finished request's outputs, for the publish form. */
  async requestSource(user: AuthUser, ref: string): Promise<PublishSource> {
    const scope = ownerScope(user);
    const by = refOf(ref);
    const request = by && (await this.deps.requests.get(scope, by));
    if (!request) throw notFound();
    const pub = await this.repo.get(null, { requestId: request.id });
    const outputs = await this.deps.requests.outputs(request.id);
    return {
      kind: 'request',
      id: request.id,
      ready: request.status === 'success',
      publicationId: pub?.id ?? null,
      title: '',
      description: '',
      tags: [],
      account: null,
      video: outputs.map((o) => ({
        id: o.id,
        index: Number(o.outputIndex ?? 0),
        url: o.storageKey && o.mediaRemovedAt === null ? this.deps.signer.url(o.storageKey) : null,
      })),
    };
  }

  /** GET /api/upload-video/form/ai/{id}: an AI video prefilled with its title, description, tags and profile. */
  async aiSource(user: AuthUser, id: number): Promise<PublishSource> {
    return this.deps.aiVideos.source(user, id);
  }

  /** GET /api/upload-video/connections: which platforms each of the caller's profiles among `ids` is connected to. */
  async connections(user: AuthUser, ids: number[]): Promise<ProfileConnections> {
    const accounts = await this.repo.accounts(ids, ownerScope(user));
    return [...accounts.values()].map((a) => ({ account: a.id, connected: connectedOf(a) }));
  }

  /** Every profile of the form the caller may use (a 400 naming the first that is not). */
  private async checkAccounts(body: CreateBody, scope: number | null): Promise<Map<number, PublishAccount>> {
    const accounts = await this.repo.accounts(
      [...new Set([...body.accounts, ...body.video.map((v) => v.account)])],
      scope,
    );
    const i = body.accounts.findIndex((id) => !accounts.has(id));
    if (i >= 0) throw fieldError(`accounts.${i}`, PM.accountUnavailable);
    body.video.forEach((v, n) => {
      if (!accounts.has(v.account)) throw fieldError(`video.${n}.account`, PM.accountUnavailable);
    });
    return accounts;
  }

  /**
   * PATCH /api/upload-video/{id}: SPEC §5 publication edit. The publication's version goes up; the videos no
   * platform has started yet take each changed field (a field left as it was keeps each video's own value) and
   * the platforms chosen for their profile, planned as the publish form plans them (planOrRefuse: a platform the
   * profile is not connected to is skipped and listed, rows added or cancelled with their jobs), and their
   * versions go up. A video some platform has started keeps its posts (the panel keeps their toggles on). A video
   * named in `video` with `posts` takes those as its own texts per platform (while none of its platforms started).
   */
  async update(user: AuthUser, ref: string, body: PatchBody): Promise<Publication & { skipped: PublishSkip[] }> {
    const pub = await this.find(user, ref);
    const videos = await this.repo.videos(pub.id);
    const rows = await this.repo.publishes(videos.map((v) => v.id));
    const pending = videos.filter((v) => isEditable(rows.filter((r) => r.videoId === v.id)));
    // Videos' own texts: each named video of the publication takes the ones sent (a started one keeps its own).
    const ownTexts = new Map<number, string | null>();
    body.video?.forEach((e, i) => {
      if (!videos.some((v) => v.id === e.id)) throw fieldError(`video.${i}.id`, PM.videoNotInRequest, { video: e.id });
      if (e.posts !== undefined) ownTexts.set(e.id, storedVideoPosts(e.posts));
    });
    const accounts = await this.repo.accounts(
      pending.flatMap((v) => (v.accountId ? [v.accountId] : [])),
      null,
    );
    const targets = pending.map((v) => ({ id: v.id, account: v.accountId }));
    const plan = targets.some((t) => t.account)
      ? planOrRefuse(targets, body, accounts)
      : { publish: new Map<number, PlatformKey[]>(), skipped: [] };
    // The toggles (the worker's claim re-check reads them): the body's, and every platform a video goes to.
    const on = new Set([...toggledPlatforms(body), ...usedPlatforms(plan.publish)]);
    await this.checkTikTokPost(
      body.posts,
      tiktokAccounts(
        targets.map((t) => ({ id: t.id, account: t.account ?? 0 })),
        plan.publish,
      ),
    );
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
      });
      await this.repo.setPlatforms(trx, pub.id, inListOrder(on), body.posts);
      for (const v of pending) {
        const version = Number(v.version) + 1;
        const after = plan.publish.get(v.id) ?? [];
        const posts = ownTexts.has(v.id) ? { posts: ownTexts.get(v.id)! } : {};
        await this.deps.requests.update(trx, v.id, { ...changed, ...posts, version });
        const own = rows.filter((r) => r.videoId === v.id);
        for (const row of own) {
          if (!(after as readonly string[]).includes(row.platform)) await this.deps.schedule.cancel(trx, row);
          else if (row.state !== 'cancelled') {
            await this.deps.posts.repo.update(trx, row.id, { videoVersion: version });
            // An approved post edited before it went out asks for approval again, at once.
            await this.deps.schedule.recheck(trx, row);
          }
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
    return { ...(await this.detail((await this.repo.get(null, { id: pub.id }))!)), skipped: plan.skipped };
  }

  /** POST /api/upload-video/upload {videoId, youTubeId}: publish one video again (status error or loading). */
  async republish(user: AuthUser, body: { videoId: number; youTubeId: number }): Promise<Publication> {
    const pub = await this.find(user, String(body.youTubeId));
    const video = await this.repo.video(body.videoId);
    if (!video || video.publicationId !== pub.id) throw new AppError(404, M.notFound, { videoId: M.notFound });
    if (video.status !== 'error' && video.status !== 'loading') {
      throw fieldError('videoId', PM.notRepublishable);
    }
    // A platform Kadr's own pre-upload check refused would fail the same way again: left as it is.
    const all = (await this.repo.publishes([video.id])).filter((r) => r.state !== 'cancelled');
    const rows = all.filter((r) => !refusedByCheck(toPlatformPublish(r)));
    if (rows.length < all.length && rows.every((r) => r.state === 'published'))
      throw fieldError('videoId', PM.checkRefused);
    const account = (await this.repo.accounts(video.accountId ? [video.accountId] : [], null)).get(
      video.accountId ?? 0,
    );
    const failed = rows.filter((r) => r.state === 'failed');
    const off = failed.find((r) => !account?.connected[r.platform as PlatformKey]);
    if (off) throw notConnected('videoId', video.accountId ?? 0, off.platform as PlatformKey);
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
  async remove(user: Acting, ref: string): Promise<Publication> {
    const pub = await this.find(user, ref);
    const answer = await this.detail(pub);
    const videos = await this.repo.videos(pub.id);
    const rows = await this.repo.publishes(videos.map((v) => v.id));
    await this.deps.db.transaction().execute(async (trx) => {
      for (const row of rows) await this.deps.schedule.cancel(trx, row);
      for (const v of videos) {
        if (!hasGoneLive(rows.filter((r) => r.videoId === v.id))) await this.detachVideo(trx, v.id, Number(v.version));
      }
      await this.deps.requests.detachPublication(trx, pub.id);
      await this.repo.delete(trx, pub.id);
      await record(trx, {
        ...actorOf(user),
        action: 'publication.deleted',
        objectType: 'publication',
        objectId: pub.id,
        detail: { title: pub.title, videos: videos.map((v) => v.id) },
      });
    });
    return answer;
  }

  /** DELETE /api/upload-video/video/{videoId}: takes one video out of its publication before it goes live. */
  async removeVideo(user: Acting, videoId: number): Promise<Publication> {
    const video = await this.repo.video(videoId);
    if (!video?.publicationId) throw notFound();
    const pub = await this.find(user, String(video.publicationId));
    const rows = await this.repo.publishes([video.id]);
    if (hasGoneLive(rows)) throw fieldError('videoId', PM.videoLive);
    await this.deps.db.transaction().execute(async (trx) => {
      for (const row of rows) await this.deps.schedule.cancel(trx, row);
      await this.detachVideo(trx, video.id, Number(video.version));
      await this.repo.update(trx, pub.id, {});
      await record(trx, {
        ...actorOf(user),
        action: 'publication.deleted',
        objectType: 'publication',
        objectId: pub.id,
        detail: { videos: [video.id], publicationKept: true },
      });
    });
    return this.detail((await this.repo.get(null, { id: pub.id }))!);
  }

  /**
   * POST /api/upload-video/video/{videoId}/{platform}/retry: a post retrying past its time tries now
   * (PublicationSchedule.retryNow says why that never publishes twice). A step already running is left to it.
   */
  async retryPost(user: AuthUser, videoId: number, platform: PlatformKey): Promise<Publication> {
    const { pub, video } = await this.post(user, videoId, platform);
    const moved = await this.deps.db.transaction().execute(async (trx) => {
      const row = (await this.repo.publishes([video.id], trx)).find((r) => r.platform === platform);
      if (!row || !retryOf(row)) throw fieldError('platform', POST.notRetrying);
      return this.deps.schedule.retryNow(trx, row);
    });
    if (moved === 'running') throw fieldError('platform', POST.alreadyTrying);
    return this.detail(pub);
  }

  /**
   * POST /api/upload-video/video/{videoId}/{platform}/cancel: that one post (video × platform) is cancelled with
   * its jobs, as a delete or a platform toggled off does; one that reached the public step cannot be.
   */
  async cancelPost(user: AuthUser, videoId: number, platform: PlatformKey): Promise<Publication> {
    const { pub, video } = await this.post(user, videoId, platform);
    await this.deps.db.transaction().execute(async (trx) => {
      const row = (await this.repo.publishes([video.id], trx)).find((r) => r.platform === platform);
      if (!row || row.state === 'cancelled') throw new AppError(404, M.notFound, { platform: M.notFound });
      if (row.state === 'published' || !(await this.deps.schedule.cancel(trx, row)))
        throw fieldError('platform', POST.notCancellable);
      await this.deps.schedule.refreshVideo(trx, video.id, [platform]);
    });
    return this.detail(pub);
  }

  /**
   * POST /api/upload-video/video/{videoId}/{platform}/stats: reads a published post's views, likes and comments
   * now, through the stats pass's reader and within the platform's quota; at most once per post per
   * STATS_REFRESH_COOLDOWN_MS (a 429 with Retry-After says when). A read that fails gives its turn back.
   */
  async refreshStats(user: AuthUser, videoId: number, platform: PlatformKey): Promise<Publication> {
    const { pub, row } = await this.post(user, videoId, platform);
    if (row.state !== 'published' || !row.remoteId) throw fieldError('platform', POST.notPublished);
    const now = Date.now();
    const claim = await this.deps.posts.repo.askStats(row.id, now, STATS_REFRESH_COOLDOWN_MS);
    if (!claim) {
      const left = Math.max(1000, Number(row.statsAskedMs ?? now) + STATS_REFRESH_COOLDOWN_MS - now);
      throw new TooManyRequests(POST.statsCooldown, left / 1000, { minutes: Math.ceil(left / 60_000) });
    }
    let read: 'read' | 'no-quota';
    try {
      read = await this.deps.posts.stats.readOne({ ...row, platform });
    } catch (e) {
      await this.deps.posts.repo.unaskStats(row.id, now, claim.before);
      throw toAppError(e);
    }
    if (read === 'no-quota') {
      await this.deps.posts.repo.unaskStats(row.id, now, claim.before);
      throw fieldError('platform', POST.statsQuota);
    }
    return this.detail(pub);
  }

  /** A post of a video the user may see: the video, its publication and its (not cancelled) row on `platform`. */
  private async post(user: AuthUser, videoId: number, platform: PlatformKey) {
    const video = await this.repo.video(videoId);
    if (!video?.publicationId) throw notFound();
    const pub = await this.find(user, String(video.publicationId));
    const row = (await this.repo.publishes([video.id])).find((r) => r.platform === platform);
    if (!row || row.state === 'cancelled') throw new AppError(404, M.notFound, { platform: M.notFound });
    return { pub, video, row };
  }

  private async detachVideo(trx: Parameters<VideosRepository['update']>[0], id: number, version: number) {
    // Back to a free render output: no longer meant for that profile or that date (the profile's video list
    // shows what is, or was, published to it, not what would have gone out).
    await this.deps.requests.update(trx, id, {
      publicationId: null,
      status: 'noactive',
      accountId: null,
      date: null,
      posts: null,
      version: version + 1,
    });
  }

  /** GET /api/upload-video/tiktok/creator-info/{account}: the caller's profile's TikTok creator_info. */
  tiktokCreatorInfo(user: AuthUser, account: number): Promise<TikTokCreatorInfo> {
    return this.deps.creators.info(account, ownerScope(user));
  }

  /**
   * A TikTok post's chosen privacy level and switches against what creator_info offers each profile it goes to
   * (a 400 naming the field). A creator_info that cannot be read now leaves the check to the TikTok step, which
   * reads it again before init.
   */
  private async checkTikTokPost(posts: PlatformPosts | undefined, accounts: number[]): Promise<void> {
    const t = posts?.tiktok;
    if (!t || !(t.privacyLevel || t.allowComment || t.allowDuet || t.allowStitch)) return;
    for (const account of accounts) {
      const info = await this.deps.creators.info(account, null).catch(() => null);
      if (!info) continue;
      if (t.privacyLevel && !info.privacyLevelOptions.includes(t.privacyLevel))
        throw fieldError('posts.tiktok.privacyLevel', PPM.privacyNotOffered, { level: t.privacyLevel });
      if (t.allowComment && info.commentDisabled) throw fieldError('posts.tiktok.allowComment', PPM.switchNotAllowed);
      if (t.allowDuet && info.duetDisabled) throw fieldError('posts.tiktok.allowDuet', PPM.switchNotAllowed);
      if (t.allowStitch && info.stitchDisabled) throw fieldError('posts.tiktok.allowStitch', PPM.switchNotAllowed);
    }
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

/** The profiles the plan sends to TikTok, each once. */
function tiktokAccounts(videos: readonly { id: number; account: number }[], publish: Map<number, PlatformKey[]>) {
  return [...new Set(videos.filter((v) => v.account && publish.get(v.id)?.includes('tiktok')).map((v) => v.account))];
}
