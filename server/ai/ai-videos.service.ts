import type { z } from 'zod';
import type { AuthUser } from '../../src/contract/auth';
import {
  AiVideoMetaSchema,
  type AiChatReplySchema,
  type AiProvider,
  type AiReply,
  type AiSessionRef,
  type AiVideo,
  type AiVideoStatus,
} from '../../src/contract/ai';
import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import type { PublishSource } from '../../src/contract/publications';
import { storedVideoPosts, type PlatformPosts, type VideoPosts } from '../../src/contract/platform-posts';
import { encodeMessage } from '../../src/contract/stored-message';
import { actorOf, record } from '../audit/audit';
import { ownerScope, type Acting } from '../auth/guards';
import { AppError, notFound } from '../http/errors';
import type { Db } from '../db/index';
import type { Enqueue } from '../jobs/index';
import type { Media } from '../media/storage/index';
import type { PublicationsRepository } from '../publications/publications.repository';
import type { VideosRepository } from '../videos/videos.repository';
import type { PublicationSchedule } from '../publications/publication-schedule';
import type { SessionRow } from './ai.repository';
import type { AiService } from './ai.service';
import type { AiVideoRow, AiVideosRepository } from './ai-videos.repository';
import type { AiLog } from './ai-log';
import type { ChatDrivers } from './drivers/index';
import { plainToHtml } from './drivers/html';
import { aiVideoJob, aiVideoJobKey } from './ai.jobs';
import * as rec from './ai-record';

type ChatReply = z.infer<typeof AiChatReplySchema>;
const refuse = (key: string) => new AppError(400, key, { videoId: key });

export type AiVideosDeps = {
  db: Db;
  media: Media;
  drivers: ChatDrivers;
  log: AiLog;
  enqueue: Enqueue;
  publications: PublicationsRepository;
  /** The one writer of `videos`. */
  videos: VideosRepository;
  schedule: PublicationSchedule;
  /** Whether AI_VIDEO_BASE_URL is set; `remix` whether the dialect can remix. */
  video: { configured: boolean; remix: boolean };
};

/**
 * Generated videos (SPEC §2 AI, §3 AI video): asking the session's chat model for {prompt, title, description,
 * tags}, the generation job, review (recreate, reject) and publishing through the publications pipeline. A
 * video belongs to its session's owner; another user's video is a 404.
 */
/** An AI video's (or its publication's) error and, apart, the provider's or platform's own words. */
const errorOf = (stored: string | null, t: rec.Translate) => {
  const { message, detail } = rec.translatedError(stored, t);
  return { error: message, errorDetail: detail };
};

export class AiVideosService {
  constructor(
    private repo: AiVideosRepository,
    private sessions: AiService,
    private deps: AiVideosDeps,
  ) {}

  async list(user: AuthUser, page: number, t: rec.Translate) {
    const p = await this.repo.list(ownerScope(user), page);
    return { ...p, data: p.data.map((r) => this.toVideo(r, t)) };
  }

  toVideo(r: AiVideoRow, t: rec.Translate): AiVideo {
    return {
      id: r.id,
      status: r.status as AiVideoStatus,
      videoUrl: r.storageKey ? this.deps.media.signer.url(r.storageKey) : null,
      prompt: r.prompt,
      title: r.title,
      description: r.description,
      tags: parseTags(r.tags),
      ...errorOf(r.error, t),
      userSession: r.sessionId && r.sessionEmail ? { id: r.sessionId, email: r.sessionEmail } : null,
      publication:
        r.publicationId && r.videoId
          ? {
              id: r.publicationId,
              videoId: r.videoId,
              status: (r.pubStatus ?? 'publication') as NonNullable<AiVideo['publication']>['status'],
              ...errorOf(r.pubError, t),
            }
          : null,
      createdAt: r.createdAt,
    };
  }

  /**
   * POST /setting/video, and /type or /type-deepseek with the Sora toggle: a video about `text`, described by the
   * session's `provider` chat model.
   */
  async requestFor(user: AuthUser, body: AiSessionRef & { text: string }, provider: AiProvider): Promise<ChatReply> {
    const row = await this.sessions.find(user, { email: body.email, sessionId: body.sessionId });
    if (!row.isActive) throw new AppError(400, 'kadr.ai_errors.not_active', { email: 'kadr.ai_errors.not_active' });
    return this.request(row, provider, body.text);
  }

  /** Meta from the chat model, a row, the generation job. */
  private async request(session: SessionRow, provider: AiProvider, text: string): Promise<ChatReply> {
    const at = { userId: session.userId, sessionId: session.id };
    if (!this.deps.video.configured)
      return { success: false, message: 'kadr.ai_errors.video_unconfigured', messages: [] };
    let meta;
    try {
      meta = await this.deps.drivers[provider].extract(
        this.sessions.ctx(session, provider),
        videoBrief(text),
        AiVideoMetaSchema,
        'video_meta',
      );
    } catch (err) {
      const reason = rec.driverErrorMessage(err, provider);
      await this.deps.log.write(at, 'error', 'kadr.ai_log.chat_failed', {
        provider: rec.PROVIDER_LABEL[provider],
        reason,
      });
      return { success: false, message: reason, messages: [] };
    }
    const now = new Date().toISOString();
    const id = await this.repo.insert({
      userId: session.userId,
      sessionId: session.id,
      status: 'loading',
      prompt: meta.prompt,
      title: meta.title,
      description: meta.description,
      tags: JSON.stringify(meta.tags),
      createdAt: now,
      updatedAt: now,
    });
    await this.deps.enqueue(aiVideoJob, { aiVideoId: id, attempt: 1 }, { key: aiVideoJobKey(id, 1) });
    await this.deps.log.write({ ...at, videoId: id }, 'loading', 'kadr.ai_log.video_requested', {
      video: id,
      title: meta.title,
    });
    const msg = await this.sessions.storeTurn(session.id, provider, text, plainToHtml(`🎬 #${id}: ${meta.title}`));
    return {
      success: true,
      message: encodeMessage('kadr.ai_errors.video_requested', { title: meta.title }),
      messages: [msg],
    };
  }

  private async find(user: AuthUser, id: number): Promise<AiVideoRow> {
    const row = await this.repo.get(ownerScope(user), id);
    if (!row) throw notFound();
    return row;
  }

  /** POST /setting/recreate: generates again (remix where the dialect has it); the old file stays until then. */
  async recreate(user: AuthUser, id: number): Promise<AiReply> {
    const row = await this.find(user, id);
    if (row.status === 'loading') throw refuse('kadr.ai_errors.video_busy');
    if (row.status === 'publication') throw refuse('kadr.ai_errors.video_published');
    if (!this.deps.video.configured) throw refuse('kadr.ai_errors.video_unconfigured');
    const attempt = row.attempt + 1;
    const remixOf =
      this.deps.video.remix && row.status === 'success' && row.providerJobId ? row.providerJobId : undefined;
    await this.repo.update(id, { status: 'loading', attempt, error: null, providerJobId: null });
    await this.deps.enqueue(aiVideoJob, { aiVideoId: id, attempt, remixOf }, { key: aiVideoJobKey(id, attempt) });
    const at = { userId: row.userId, sessionId: row.sessionId, videoId: id };
    await this.deps.log.write(at, 'loading', 'kadr.ai_log.recreated', {
      video: id,
    });
    return { success: true, message: 'kadr.ai_errors.recreating' };
  }

  /** POST /setting/close: rejected, its file freed; a running generation sees it and stops. */
  async close(user: AuthUser, id: number): Promise<AiReply> {
    const row = await this.find(user, id);
    if (row.status === 'publication') throw refuse('kadr.ai_errors.video_published');
    await this.repo.update(id, { status: 'rejected', storageKey: null });
    if (row.storageKey) await this.deps.media.storage.delete(row.storageKey).catch(() => {});
    await this.deps.log.settle(id, 'success');
    await this.deps.log.write(
      { userId: row.userId, sessionId: row.sessionId, videoId: id },
      'success',
      'kadr.ai_log.rejected',
      {
        video: id,
      },
    );
    return { success: true, message: 'kadr.ai_errors.rejected' };
  }

  /**
   * POST /setting/publication (SPEC's call, kept for API clients): the video goes at once to the session's
   * profile on every platform it has connected. The panel opens the publish form instead (publishAs below).
   */
  async publish(user: Acting, id: number): Promise<AiReply> {
    const row = await this.publishable(user, id);
    const accountId = row.sessionId ? await this.repo.sessionAccount(row.sessionId) : null;
    const account = accountId
      ? (await this.deps.publications.accounts([accountId], row.userId)).get(accountId)
      : undefined;
    if (!account) throw refuse('kadr.ai_errors.no_profile');
    const platforms = PLATFORMS.filter((p) => account.connected[p]);
    if (!platforms.length) throw refuse('kadr.ai_errors.no_platforms');
    await this.publishAs(user, row, {
      accountId: account.id,
      platforms,
      title: row.title,
      description: row.description,
      tags: parseTags(row.tags),
      date: new Date().toISOString(),
    });
    return { success: true, message: 'kadr.ai_errors.published' };
  }

  /** The caller's AI video, finished and not yet sent (a 400 naming videoId otherwise). */
  async publishable(user: AuthUser, id: number): Promise<AiVideoRow> {
    const row = await this.find(user, id);
    if (row.status === 'publication') throw refuse('kadr.ai_errors.video_published');
    if (row.status !== 'success' || !row.storageKey) throw refuse('kadr.ai_errors.video_not_ready');
    return row;
  }

  /**
   * The video becomes a `videos` row of `accountId` with a publication of its own (no create-video request, so it
   * stays out of that list) on `platforms` at `date`, with the title, description and tags given; the publish
   * worker posts it like any other. Only a video still unpublished is taken (two clicks publish once). Recorded in
   * the audit log as `publication.created` (by `actor`, in the same transaction), as the form's publications are.
   */
  async publishAs(
    actor: Acting,
    row: AiVideoRow,
    o: {
      accountId: number;
      platforms: readonly PlatformKey[];
      title: string;
      description: string;
      tags: string[];
      date: string;
      /** Each platform's own text and options (issue 21 item 6). */
      posts?: PlatformPosts;
      /** The video's own texts per platform (videos.posts, 047). */
      videoPosts?: VideoPosts;
      /** The operator allowed posting this file again where it is already live (the form's switch). */
      allowRepeat?: boolean;
    },
  ): Promise<{ publicationId: number; videoId: number }> {
    const at = new Date().toISOString();
    const storageKey = row.storageKey!;
    const done = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.repo.claimForPublishing(row.id, trx))) throw refuse('kadr.ai_errors.video_published');
      const v = { title: o.title, description: o.description, tags: JSON.stringify(o.tags) };
      const videoId = await this.deps.videos.insertAiVideo(trx, {
        ...v,
        userId: row.userId,
        accountId: o.accountId,
        storageKey,
        date: o.date,
      });
      const publicationId = (await this.deps.publications.insert(trx, {
        ...v,
        userId: row.userId,
        requestId: null,
        createdAt: at,
        updatedAt: at,
      }))!;
      await this.deps.publications.setPlatforms(trx, publicationId, o.platforms, o.posts);
      await this.deps.videos.update(trx, videoId, { publicationId, posts: storedVideoPosts(o.videoPosts) });
      for (const p of o.platforms)
        await this.deps.schedule.schedule(
          trx,
          { id: videoId, accountId: o.accountId, version: 1 },
          p,
          o.date,
          undefined,
          {
            allow: o.allowRepeat,
            field: 'video.0.allowRepeat',
          },
        );
      await this.repo.update(row.id, { status: 'publication', publicationId, videoId }, trx);
      await record(trx, {
        ...actorOf(actor),
        action: 'publication.created',
        objectType: 'publication',
        objectId: publicationId,
        detail: {
          aiVideo: row.id,
          platforms: o.platforms,
          videos: [{ id: videoId, account: o.accountId, date: o.date }],
        },
      });
      return { publicationId, videoId };
    });
    await this.deps.log.write({ userId: row.userId, sessionId: row.sessionId }, 'success', 'kadr.ai_log.published', {
      video: row.id,
      platforms: o.platforms.map((p) => PLATFORM_TITLES[p]).join(', '),
    });
    return done;
  }

  /** What the publish form starts from for an AI video: its title, description, tags and session's profile. */
  async source(user: AuthUser, id: number): Promise<PublishSource> {
    const row = await this.find(user, id);
    const account = row.sessionId ? await this.repo.sessionAccount(row.sessionId) : null;
    return {
      kind: 'ai',
      id: row.id,
      ready: row.status === 'success' && !!row.storageKey,
      publicationId: row.publicationId,
      title: row.title,
      description: row.description,
      tags: parseTags(row.tags),
      account,
      video: [{ id: row.id, index: 0, url: row.storageKey ? this.deps.media.signer.url(row.storageKey) : null }],
    };
  }
}

const videoBrief = (text: string) =>
  `Write a brief for a short vertical video about: ${text}\n` +
  'Return JSON with: prompt (a detailed scene description for a video model), title (under 100 characters), ' +
  'description (one paragraph), tags (up to 10 short tags).';

function parseTags(s: string): string[] {
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}
