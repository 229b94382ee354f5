import type { PlatformKey } from '../../src/contract/platforms';
import { accountTitle } from '../../src/contract/groups';
import { identityOf } from '../accounts/account-identity';
import { DEFAULT_TIME_ZONE } from '../../src/contract/time-zones';
import {
  PUBLIC_STEP,
  isRetrying,
  publicationStatus,
  STATS_REFRESH_COOLDOWN_MS,
  type PlatformPublish,
  type PostRetry,
  type Publication,
  type PublicationVideo,
  type PublishErrorKind,
  type PublishState,
  type YouTubeItem,
} from '../../src/contract/publications';
import type { VideoStatus } from '../../src/contract/statuses';
import { parseVideoPosts } from '../../src/contract/platform-posts';
import type { MediaSigner } from '../media/storage/index';
import type { ListVideoRow, PublicationRow, PublicationVideoRow, PublishRow } from './publications.repository';

/** A video that cannot be taken back: one of its platforms has reached the public step. */
export const hasGoneLive = (rows: readonly PublishRow[]) =>
  rows.some((r) => PUBLIC_STEP.includes(r.state as PublishState));

/** Tags kept as JSON array text (older rows: a comma-separated string). */
export function parseTags(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
}

const isoOf = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();

/** A retrying row's reason, attempt and next try (see isRetrying), else null. */
export function retryOf(r: PublishRow): PostRetry | null {
  const state = r.state as PublishState;
  const attempt = Number(r.attempt ?? 0);
  if (!isRetrying({ state, attempt, waitUntil: r.waitUntil })) return null;
  const unknownOutcome = state === 'publishing' || state === 'reconcile';
  const reason = r.waitUntil ? 'quota' : unknownOutcome ? 'reconcile' : 'fault';
  return { reason, attempt, nextTryAt: r.waitUntil ?? isoOf(r.retryAtMs) };
}

/** When the post's stats may be read on demand again: null when now (or never read on demand). */
function statsRefreshAt(r: PublishRow, nowMs: number): string | null {
  if (r.statsAskedMs === null || r.statsAskedMs === undefined) return null;
  const at = Number(r.statsAskedMs) + STATS_REFRESH_COOLDOWN_MS;
  return at > nowMs ? new Date(at).toISOString() : null;
}

export function toPlatformPublish(r: PublishRow, nowMs = Date.now()): PlatformPublish {
  return {
    // The spec's API names its three platforms: a row of another platform of the registry is shown under its id.
    platform: r.platform as PlatformKey,
    state: r.state as PublishState,
    bytesSent: Number(r.bytesSent),
    bytesTotal: Number(r.bytesTotal),
    url: r.remoteUrl,
    error: r.error,
    errorKind: r.errorKind as PublishErrorKind | null,
    waitUntil: r.waitUntil,
    views: Number(r.views),
    likes: Number(r.likes),
    comments: Number(r.comments),
    retry: retryOf(r),
    statsAt: isoOf(r.statsAt),
    statsRefreshAt: statsRefreshAt(r, nowMs),
  };
}

export function toPublicationVideo(
  v: PublicationVideoRow,
  rows: readonly PublishRow[],
  signer: MediaSigner,
): PublicationVideo {
  const own = rows.filter((r) => r.videoId === v.id && r.state !== 'cancelled');
  return {
    id: v.id,
    index: Number(v.outputIndex ?? 0),
    account: v.accountId
      ? {
          id: v.accountId,
          name: accountTitle({ ...v, id: v.accountId }),
          timeZone: v.timeZone ?? DEFAULT_TIME_ZONE,
          ...identityOf({ ...v, id: v.accountId }),
        }
      : null,
    date: v.date,
    title: v.title,
    description: v.description,
    tags: parseTags(v.tags),
    status: v.status as VideoStatus,
    urlYouTube: v.urlYouTube,
    urlInstagram: v.urlInstagram,
    urlTikTok: v.urlTikTok,
    error: v.error,
    errorInstagram: v.errorInstagram,
    errorTikTok: v.errorTikTok,
    mediaUrl: v.storageKey && v.mediaRemovedAt === null ? signer.url(v.storageKey) : null,
    mediaRemoved: v.mediaRemovedAt !== null,
    platforms: own.map((r) => toPlatformPublish(r)),
    posts: parseVideoPosts(v.posts) ?? {},
    retrying: own.some((r) => retryOf(r) !== null),
  };
}

export function toPublication(
  p: PublicationRow,
  videos: readonly PublicationVideoRow[],
  rows: readonly PublishRow[],
  signer: MediaSigner,
): Publication {
  return {
    id: p.id,
    idUpload: p.idUpload,
    title: p.title,
    description: p.description,
    tags: parseTags(p.tags),
    inYouTube: p.platforms.includes('youtube'),
    inTikTok: p.platforms.includes('tiktok'),
    inInstagram: p.platforms.includes('instagram'),
    status: publicationStatus(videos.map((v) => v.status as VideoStatus)),
    version: Number(p.version),
    user: { id: p.userId, login: p.ownerLogin },
    video: videos.map((v) => toPublicationVideo(v, rows, signer)),
    posts: p.posts,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export function toYouTubeItem(p: PublicationRow, videos: readonly ListVideoRow[], retrying = false): YouTubeItem {
  const dates = videos.flatMap((v) => (v.date && Number.isFinite(Date.parse(v.date)) ? [v.date] : []));
  const accounts = new Map<number, YouTubeItem['accounts'][number]>();
  for (const v of videos)
    if (v.accountId !== null && !accounts.has(v.accountId))
      accounts.set(v.accountId, { id: v.accountId, ...identityOf({ ...v, id: v.accountId }) });
  return {
    id: p.id,
    idUpload: p.idUpload,
    title: p.title || null,
    status: publicationStatus(videos.map((v) => v.status) as VideoStatus[]),
    user: { id: p.userId, login: p.ownerLogin },
    createdAt: p.createdAt,
    retrying,
    date: dates.length ? dates.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) : null,
    platforms: p.platforms,
    accounts: [...accounts.values()],
  };
}
