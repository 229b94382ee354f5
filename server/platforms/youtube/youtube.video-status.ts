/**
 * The parts of the Data API's answers the publisher reads (anything in them may be missing), and what a video's
 * status (videos.list part=status) means for the publish job: keep polling, store the link, or fail with a reason.
 */
import { platformMessage } from '../types';

export type YouTubeUploadStatus = 'uploaded' | 'processed' | 'failed' | 'rejected' | 'deleted';

export interface YouTubeVideoStatus {
  videoId: string;
  /** Null when the video is not there (deleted, or not visible to this channel). */
  uploadStatus: YouTubeUploadStatus | null;
  failureReason?: string;
  rejectionReason?: string;
  privacyStatus?: string;
  publishAt?: string;
  url: string;
  /** What the job does next: poll again, store the link, or show `reason` (a stored message). */
  outcome: 'processing' | 'ready' | 'failed';
  reason?: string;
}

/** The parts of YouTube's answers the publisher reads (anything may be missing). */
export interface ApiList<T> {
  items?: T[];
  nextPageToken?: string;
}
export interface ChannelItem {
  contentDetails?: { relatedPlaylists?: { uploads?: string } };
}
export interface PlaylistItem {
  snippet?: { publishedAt?: string; title?: string; resourceId?: { videoId?: string } };
  contentDetails?: { videoId?: string };
}
export interface VideoItem {
  id?: string;
  status?: {
    uploadStatus?: YouTubeUploadStatus;
    failureReason?: string;
    rejectionReason?: string;
    privacyStatus?: string;
    publishAt?: string;
  };
  statistics?: { viewCount?: string; likeCount?: string; commentCount?: string };
}

/** YouTube sends counts as JSON strings (uint64); hidden counts are absent. */
export function count(v: unknown): number {
  const n = Number(v ?? 0);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

export function toVideoStatus(videoId: string, url: string, status: VideoItem['status']): YouTubeVideoStatus {
  if (!status) {
    const reason = platformMessage('youtube_video_missing', { id: videoId });
    return { videoId, uploadStatus: null, url, outcome: 'failed', reason };
  }
  const out: YouTubeVideoStatus = {
    videoId,
    url,
    outcome: 'processing',
    uploadStatus: status.uploadStatus ?? null,
    privacyStatus: status.privacyStatus,
    ...(status.publishAt ? { publishAt: status.publishAt } : {}),
    ...(status.failureReason ? { failureReason: status.failureReason } : {}),
    ...(status.rejectionReason ? { rejectionReason: status.rejectionReason } : {}),
  };
  if (status.uploadStatus === 'processed') out.outcome = 'ready';
  else if (status.uploadStatus === 'failed') {
    out.outcome = 'failed';
    out.reason = platformMessage('youtube_processing_failed', {}, status.failureReason ?? 'unknown');
  } else if (status.uploadStatus === 'rejected') {
    out.outcome = 'failed';
    out.reason = platformMessage('youtube_rejected', {}, status.rejectionReason ?? 'unknown');
  } else if (status.uploadStatus === 'deleted') {
    out.outcome = 'failed';
    out.reason = platformMessage('youtube_video_missing', { id: videoId });
  }
  return out;
}
