import { sql, type Insertable, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Db } from '../db/index';
import type { Database, VideoPublishesTable } from '../db/types';
import { videoStatusOf, type PublishErrorKind, type PublishState } from '../../src/contract/publications';
import { CADENCE_SLACK_MS, STATS_CADENCE } from '../analytics/stats-cadence';
import type { SpecPlatform } from '../../src/contract/platforms';
import type { PlatformId } from '../platforms/types';
import { parsePost, parseVideoPosts, withVideoText, type PlatformPost } from '../../src/contract/platform-posts';
import type { PostState } from '../events/events';
import type { VideosRepository } from '../videos/videos.repository';
import { duplicatePost, isDuplicateViolation } from './duplicate-post';
import { ERROR_COLUMN, URL_COLUMN, columnOf } from './platform-columns';
import { postMove, type PostEventName } from './post-states';
import { publishJobKeySql } from './publishing.jobs';

export type PublishRow = Selectable<VideoPublishesTable>;

/** The video as the publish job reads it at claim time: what to post, where, and whether it still should. */
export type PublishTarget = {
  videoId: number;
  version: number;
  storageKey: string | null;
  date: string | null;
  title: string;
  description: string;
  tags: string[];
  publicationId: number | null;
  /** The publication's toggle for the row's platform (false: the platform was switched off after scheduling). */
  platformOn: boolean;
  /** The video's owner needs an admin's approval before their posts go out (users.needs_approval, 032). */
  needsApproval: boolean;
  /**
   * The post this platform gets: its options and text (publication_platforms.post, 038), with the video's own text
   * for this platform over it (videos.posts, 047).
   */
  post: PlatformPost | undefined;
  /** Made by the AI service (an ai_videos row names this video): the platforms' AI disclosure is sent. */
  aiMade: boolean;
};

/** A patch of the row's recorded step. */
export type PublishPatch = Partial<{
  state: PublishState;
  handleSealed: string | null;
  remoteId: string | null;
  remoteUrl: string | null;
  bytesSent: number;
  bytesTotal: number;
  error: string | null;
  errorKind: PublishErrorKind | null;
  waitUntil: string | null;
  processingSince: string | null;
  publishedAt: string | null;
  videoVersion: number;
  dueAt: string;
  attempt: number;
  retryAtMs: number | null;
}>;

const TERMINAL: PublishState[] = ['published', 'failed', 'cancelled'];

const parseTags = (s: string | null | undefined): string[] => {
  try {
    const v = JSON.parse(s ?? '[]');
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/**
 * Publishing's SQL (Kysely only) and the one writer of `video_publishes` (the API's schedule calls it too): a
 * post's row and its moves (through post-states.ts), the video it posts, its chain's step and the step's job,
 * upload progress, stats, and the writeback of outcomes to the video.
 */
export class PublishingRepository {
  constructor(
    private db: Db,
    /** The one writer of `videos` (the outcomes written back to the video). */
    private videos: VideosRepository,
  ) {}

  row(id: number, exec: Db = this.db): Promise<PublishRow | undefined> {
    return exec.selectFrom('videoPublishes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The current version of a video (an edit bumps it; an approval is for one version). */
  async videoVersion(videoId: number, exec: Db = this.db): Promise<number> {
    const r = await exec.selectFrom('videos').select('version').where('id', '=', videoId).executeTakeFirst();
    return Number(r?.version ?? 0);
  }

  async target(row: PublishRow): Promise<PublishTarget | undefined> {
    const v = await this.db
      .selectFrom('videos')
      .leftJoin('publications', 'publications.id', 'videos.publicationId')
      .leftJoin('users', 'users.id', 'videos.userId')
      .select([
        'users.needsApproval',
        'videos.id',
        'videos.version',
        'videos.storageKey',
        'videos.date',
        'videos.title',
        'videos.description',
        'videos.tags',
        'videos.publicationId',
        'videos.posts as videoPosts',
        'publications.title as pTitle',
        'publications.description as pDescription',
        'publications.tags as pTags',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('publicationPlatforms')
              .select('publicationPlatforms.publicationId')
              .whereRef('publicationPlatforms.publicationId', '=', 'videos.publicationId')
              .where('publicationPlatforms.platform', '=', row.platform),
          )
          .as('platformOn'),
      )
      .select((eb) =>
        eb
          .selectFrom('publicationPlatforms')
          .select('publicationPlatforms.post')
          .whereRef('publicationPlatforms.publicationId', '=', 'videos.publicationId')
          .where('publicationPlatforms.platform', '=', row.platform)
          .as('post'),
      )
      .select((eb) =>
        eb
          .exists(eb.selectFrom('aiVideos').select('aiVideos.id').whereRef('aiVideos.videoId', '=', 'videos.id'))
          .as('aiMade'),
      )
      .where('videos.id', '=', row.videoId)
      .executeTakeFirst();
    if (!v) return undefined;
    const tags = parseTags(v.tags);
    return {
      videoId: v.id,
      version: v.version,
      storageKey: v.storageKey,
      date: v.date,
      title: (v.title ?? v.pTitle ?? '').trim(),
      description: v.description ?? v.pDescription ?? '',
      tags: tags.length ? tags : parseTags(v.pTags),
      publicationId: v.publicationId,
      platformOn: Boolean(Number(v.platformOn)),
      // An owner gone (no row) is not trusted either: their posts wait.
      needsApproval: v.needsApproval === null || Boolean(Number(v.needsApproval)),
      // The video's own title/caption wins over the publication's platform text (issue 21 item 6, per video).
      post: withVideoText(parsePost(v.post), row.platform, parseVideoPosts(v.videoPosts)),
      aiMade: Boolean(Number(v.aiMade)),
    };
  }

  /** Whether the owner of `videoId` needs an admin's approval before their posts go out. */
  async needsApproval(videoId: number, exec: Db = this.db): Promise<boolean> {
    const r = await exec
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.userId')
      .select('users.needsApproval')
      .where('videos.id', '=', videoId)
      .executeTakeFirst();
    return Boolean(Number(r?.needsApproval ?? 0));
  }

  /** Of `videoIds`, those whose owner needs an admin's approval (needsApproval for many). */
  async needApproval(videoIds: number[], exec: Db = this.db): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < videoIds.length; i += 500) {
      const rows = await exec
        .selectFrom('videos')
        .innerJoin('users', 'users.id', 'videos.userId')
        .select(['videos.id', 'users.needsApproval'])
        .where('videos.id', 'in', videoIds.slice(i, i + 500))
        .execute();
      for (const r of rows) if (Number(r.needsApproval ?? 0)) out.add(r.id);
    }
    return out;
  }

  /**
   * Writes the row's next recorded step (no state change: see `move`) unless it was cancelled meanwhile (a delete
   * wins over any step that has not reached the platform). Answers whether the row was written.
   */
  async save(id: number, patch: Omit<PublishPatch, 'state'>, exec: Db = this.db): Promise<boolean> {
    const r = await exec
      .updateTable('videoPublishes')
      .set({ ...patch, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .where('state', '!=', 'cancelled')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Moves the post to state `to` with `patch`, through the transition table (post-states.ts): the one write of
   * video_publishes.state. A move the table does not list throws IllegalPostMove (a bug in the caller). A row
   * cancelled meanwhile stays cancelled unless `evenCancelled` (a delete wins over any step that has not reached
   * the platform; the API's own writes and a post gone live pass it). Compare-and-set on the state it read, so a
   * concurrent move wins. Answers the move's event, or undefined when nothing was written.
   */
  async move(
    exec: Db,
    id: number,
    to: PublishState,
    patch: Omit<Updateable<VideoPublishesTable>, 'state' | 'step'> = {},
    opts: { evenCancelled?: boolean } = {},
  ): Promise<PostEventName | undefined> {
    const row = await exec
      .selectFrom('videoPublishes')
      .select(['state', 'videoId', 'accountId', 'platform'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.state === 'cancelled' && !opts.evenCancelled)) return undefined;
    const event = postMove(row.state, to);
    const r = await exec
      .updateTable('videoPublishes')
      .set({ ...patch, state: to, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .where('state', '=', row.state)
      .executeTakeFirst()
      .catch((e: unknown) => {
        // A cancelled post back among the live ones meets the duplicate index (migration 037).
        if (!isDuplicateViolation(e)) throw e;
        const account = patch.accountId === undefined ? row.accountId : patch.accountId;
        throw duplicatePost({ video: row.videoId, account, platform: row.platform });
      });
    return Number(r.numUpdatedRows) > 0 ? event : undefined;
  }

  /**
   * New rows in one statement (a bulk import's posts), `fileKey` given (the rendered file of each row's video, as
   * `insert` reads it); their ids in the rows' order. A row the duplicate index refuses is named in the 409 when
   * the database says which key it was (PostgreSQL's detail), else the first row is.
   */
  async insertMany(trx: Db, rows: Insertable<VideoPublishesTable>[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const part = rows.slice(i, i + 500);
      try {
        const r = await trx.insertInto('videoPublishes').values(part).returning('id').execute();
        ids.push(...r.map((x) => x.id).sort((a, b) => a - b));
      } catch (e) {
        if (!isDuplicateViolation(e)) throw e;
        const detail = String((e as { detail?: string }).detail ?? '');
        const row = part.find((x) => detail.includes(`${x.fileKey}, ${x.accountId}, ${x.platform}`)) ?? part[0]!;
        throw duplicatePost({ video: row.videoId, account: row.accountId ?? null, platform: row.platform });
      }
    }
    return ids;
  }

  /** The live posts (not cancelled, on a profile) of the rendered files `keys`, oldest first. */
  async livePostsOfFiles(
    exec: Db,
    keys: string[],
  ): Promise<{ id: number; fileKey: string; accountId: number; platform: string }[]> {
    const out: { id: number; fileKey: string; accountId: number; platform: string }[] = [];
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await exec
        .selectFrom('videoPublishes')
        .select(['id', 'fileKey', 'accountId', 'platform'])
        .where('fileKey', 'in', keys.slice(i, i + 500))
        .where('state', '!=', 'cancelled')
        .where('accountId', 'is not', null)
        .execute();
      for (const r of rows) out.push({ ...r, fileKey: r.fileKey!, accountId: r.accountId! });
    }
    return out.sort((a, b) => a.id - b.id);
  }

  /**
   * The live posts (not cancelled) of `videoId`'s rendered file on `accountId` and `platform`, other than
   * `exceptId`: what a new post of it would repeat (the duplicate guard's check; the index is its last word).
   */
  async livePostsOfFile(
    exec: Db,
    videoId: number,
    accountId: number,
    platform: PlatformId,
    exceptId?: number,
  ): Promise<{ id: number; videoId: number; state: string }[]> {
    let q = exec
      .selectFrom('videoPublishes')
      .select(['videoPublishes.id', 'videoPublishes.videoId', 'videoPublishes.state'])
      .where('videoPublishes.fileKey', '=', (eb) =>
        eb.selectFrom('videos').select('videos.storageKey').where('videos.id', '=', videoId),
      )
      .where('videoPublishes.accountId', '=', accountId)
      .where('videoPublishes.platform', '=', platform)
      .where('videoPublishes.state', '!=', 'cancelled');
    if (exceptId !== undefined) q = q.where('videoPublishes.id', '!=', exceptId);
    return q.orderBy('videoPublishes.id').execute();
  }

  /** Fields of a post other than its state (the API's version bump, a lifted wait), in the caller's transaction. */
  async update(trx: Db, id: number, patch: Omit<Updateable<VideoPublishesTable>, 'state' | 'step'>): Promise<void> {
    await trx
      .updateTable('videoPublishes')
      .set({ ...patch, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Records `step` as the row's chain step unless the chain is already past it (publishing.jobs.ts
   * enqueuePublishStep, in the transaction that queues its job). Answers whether it was recorded.
   */
  async recordStep(trx: Db, id: number, step: number): Promise<boolean> {
    const r = await trx
      .updateTable('videoPublishes')
      .set({ step })
      .where('id', '=', id)
      .where('step', '<=', step)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** recordStep for many rows at one step: the ids whose chain was not past it. */
  async recordSteps(trx: Db, ids: number[], step: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const r = await trx
        .updateTable('videoPublishes')
        .set({ step })
        .where('id', 'in', ids.slice(i, i + 500))
        .where('step', '<=', step)
        .returning('id')
        .execute();
      out.push(...r.map((x) => x.id));
    }
    return out;
  }

  /** The jobs that exist of `keys` (any status): key to status. */
  async jobStatuses(keys: string[], exec: Db = this.db): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await exec
        .selectFrom('jobs')
        .select(['key', 'status'])
        .where('key', 'in', keys.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.key, r.status);
    }
    return out;
  }

  /**
   * The row's chain step (video_publishes.step: its latest queued step) and the status of that step's job (none:
   * undefined), in one statement: the row by its primary key, its job by the exact key (unique index).
   */
  async stepJob(id: number, exec: Db = this.db): Promise<{ step: number; status?: string }> {
    const r = await exec
      .selectFrom('videoPublishes')
      .leftJoin('jobs', (join) =>
        join.on((eb) =>
          eb('jobs.key', '=', publishJobKeySql(eb.ref('videoPublishes.id'), eb.ref('videoPublishes.step'))),
        ),
      )
      .select(['videoPublishes.step', 'jobs.status'])
      .where('videoPublishes.id', '=', id)
      .executeTakeFirst();
    return { step: Number(r?.step ?? 0), status: r?.status ?? undefined };
  }

  /** Upload progress only (a cheap write, at most about once a second). */
  async progress(id: number, bytesSent: number, bytesTotal: number, exec = this.db): Promise<void> {
    await exec
      .updateTable('videoPublishes')
      .set({ bytesSent, bytesTotal })
      .where('id', '=', id)
      .where('state', 'not in', TERMINAL)
      .execute();
  }

  /** The post as its events carry it, with its owner, read in `exec` (the transaction that changed it). */
  async postState(id: number, exec: Db): Promise<{ userId: number; post: PostState } | undefined> {
    const r = await exec
      .selectFrom('videoPublishes')
      .innerJoin('videos', 'videos.id', 'videoPublishes.videoId')
      .leftJoin('publications', 'publications.id', 'videos.publicationId')
      .leftJoin('createVideoRequests', 'createVideoRequests.id', 'publications.requestId')
      .select(['videos.userId', 'videos.publicationId', 'createVideoRequests.idUpload'])
      .select([
        'videoPublishes.videoId',
        'videoPublishes.platform',
        'videoPublishes.state',
        'videoPublishes.bytesSent',
        'videoPublishes.bytesTotal',
        'videoPublishes.error',
      ])
      .where('videoPublishes.id', '=', id)
      .executeTakeFirst();
    if (!r) return undefined;
    const { userId, ...p } = r;
    return {
      userId,
      post: {
        publishId: id,
        ...p,
        idUpload: p.idUpload ?? null,
        bytesSent: Number(p.bytesSent),
        bytesTotal: Number(p.bytesTotal),
      },
    };
  }

  /** Runs `work` in one transaction (a step recorded on the row with its job). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * The video's columns from its platform rows (SPEC §3 Video item): status through `videoStatusOf`, each
   * platform's link and error. Called after every outcome.
   */
  async writeBack(videoId: number): Promise<void> {
    const rows = await this.db
      .selectFrom('videoPublishes')
      .select(['platform', 'state', 'remoteUrl', 'error'])
      .where('videoId', '=', videoId)
      .execute();
    if (!rows.length) return;
    const patch: Record<string, string | null> = { status: videoStatusOf(rows.map((r) => r.state as PublishState)) };
    for (const r of rows) {
      const url = columnOf(URL_COLUMN, r.platform);
      const error = columnOf(ERROR_COLUMN, r.platform);
      if (url && r.remoteUrl) patch[url] = r.remoteUrl;
      if (error) patch[error] = r.state === 'failed' || r.state === 'waiting' ? r.error : null;
    }
    await this.videos.update(this.db, videoId, patch);
  }

  /**
   * Published rows of a platform due for a stats read at `now` (server/analytics/stats-cadence.ts: young posts
   * hourly, then every 6 h, then daily), the oldest read first (never read first), for the stats job. Rows read
   * as long ago come profile by profile: the job reads each profile's rows of the batch in as few calls as its
   * platform allows (YouTube 50 ids a call), which rows scattered over every profile would split into one small
   * call per profile.
   */
  statsBatch(platform: PlatformId, limit: number, now: Date = new Date()) {
    const nowMs = now.getTime();
    const [young, mid, old] = STATS_CADENCE;
    const readBefore = (everyMs: number) => nowMs - everyMs + CADENCE_SLACK_MS;
    const publishedSince = (ms: number) => new Date(nowMs - ms).toISOString();
    return this.db
      .selectFrom('videoPublishes')
      .select(['id', 'videoId', 'accountId', 'remoteId', 'platform'])
      .where('platform', '=', platform)
      .where('state', '=', 'published')
      .where('remoteId', 'is not', null)
      .where('accountId', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('statsAt', 'is', null),
          eb.and([
            eb('publishedAt', '>=', publishedSince(young.youngerThanMs)),
            eb('statsAt', '<=', readBefore(young.everyMs)),
          ]),
          eb.and([
            eb('publishedAt', '>=', publishedSince(mid.youngerThanMs)),
            eb('statsAt', '<=', readBefore(mid.everyMs)),
          ]),
          eb('statsAt', '<=', readBefore(old.everyMs)),
        ]),
      )
      .orderBy(sql`CASE WHEN stats_at IS NULL THEN 0 ELSE 1 END`)
      .orderBy('statsAt')
      .orderBy('accountId')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Claims an on-demand stats read of a published row: stats_asked_ms moves to `nowMs` only when the last one is
   * at least `cooldownMs` old (a compare-and-set, so two clicks at once read once). Answers the previous value
   * (to give the claim back when the read fails), or false when the cooldown holds.
   */
  async askStats(id: number, nowMs: number, cooldownMs: number): Promise<{ before: number | null } | false> {
    const row = await this.db
      .selectFrom('videoPublishes')
      .select('statsAskedMs')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return false;
    const before = row.statsAskedMs === null ? null : Number(row.statsAskedMs);
    if (before !== null && before > nowMs - cooldownMs) return false;
    let q = this.db.updateTable('videoPublishes').set({ statsAskedMs: nowMs }).where('id', '=', id);
    q = before === null ? q.where('statsAskedMs', 'is', null) : q.where('statsAskedMs', '=', before);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? { before } : false;
  }

  /** Gives an on-demand read's claim back (the platform could not be read: nothing was spent). */
  async unaskStats(id: number, claimedMs: number, before: number | null): Promise<void> {
    await this.db
      .updateTable('videoPublishes')
      .set({ statsAskedMs: before })
      .where('id', '=', id)
      .where('statsAskedMs', '=', claimedMs)
      .execute();
  }

  async saveStats(id: number, s: { views: number; likes: number; comments: number }, at: string): Promise<void> {
    await this.db
      .updateTable('videoPublishes')
      .set({ ...s, statsAt: Date.parse(at) })
      .where('id', '=', id)
      .execute();
  }

  /** Marks rows as read (the platform no longer has the post) so the batch moves on. */
  async touchStats(ids: number[], at: string): Promise<void> {
    if (ids.length)
      await this.db
        .updateTable('videoPublishes')
        .set({ statsAt: Date.parse(at) })
        .where('id', 'in', ids)
        .execute();
  }

  /** videos.views/likes/comments from the main platform (YouTube, else TikTok), the *Instagram ones from Instagram. */
  async sumStats(videoIds: number[]): Promise<void> {
    for (const videoId of new Set(videoIds)) {
      const rows = await this.db
        .selectFrom('videoPublishes')
        .select(['platform', 'views', 'likes', 'comments'])
        .where('videoId', '=', videoId)
        .where('state', '=', 'published')
        .execute();
      const by = (p: SpecPlatform) => rows.find((r) => r.platform === p);
      const main = by('youtube') ?? by('tiktok');
      const ig = by('instagram');
      const patch: Record<string, number> = {};
      if (main) Object.assign(patch, { views: main.views, likes: main.likes, comments: main.comments });
      if (ig)
        Object.assign(patch, { viewsInstagram: ig.views, likesInstagram: ig.likes, commentsInstagram: ig.comments });
      if (Object.keys(patch).length) await this.videos.update(this.db, videoId, patch);
    }
  }
}
