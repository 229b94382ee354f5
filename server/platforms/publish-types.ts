/**
 * What every platform's publisher shares. Each platform publishes through its own steps (YouTube: resumable
 * session → chunks → processing; TikTok: creator info → init → chunks → status; Instagram: container → status →
 * media_publish), but the publish job (server/publications/) sees the same shapes:
 *
 * - a `PublishSource` it can read any byte range of, so an upload streams and resumes from the acknowledged byte
 *   without holding the file in memory;
 * - a serialisable `handle` per step that the job stores BEFORE the step that makes the post public, so a crash
 *   or an unknown outcome is reconciled by asking the platform instead of posting again;
 * - `PlatformError` (./types) for every failure, its `kind` saying retry later / refresh / reconnect / bad request.
 */
import type { Readable } from 'node:stream';
import type { InstagramPost, PlatformPost, TikTokPost, YouTubePost } from '../../src/contract/platform-posts';

/** The file to publish: its size and a way to read any byte range (local file or object storage). */
export interface PublishSource {
  size: number;
  contentType: 'video/mp4';
  /** Streams bytes [start, end) of the file. */
  open(start: number, end: number): Readable;
}

/** What the operator gave the video (SPEC §3 Publication / YouTube item). */
export interface PublishMeta {
  title: string;
  description: string;
  tags: string[];
  /** The operator's post for this platform (its own text and options), when given (issue 21 item 6). */
  post?: PlatformPost | undefined;
  /** Made by the AI service: the platform's AI-content disclosure goes with it (never optional). */
  aiMade?: boolean;
}

/** The post's entry as the platform's own (every field optional: the drivers read what they know). */
export const youtubePost = (m: PublishMeta): YouTubePost => (m.post ?? {}) as YouTubePost;
export const tiktokPost = (m: PublishMeta): TikTokPost => (m.post ?? {}) as TikTokPost;
export const instagramPost = (m: PublishMeta): InstagramPost => (m.post ?? {}) as InstagramPost;

/** Upload progress: bytes the platform has acknowledged so far, of `total`. */
export type UploadProgress = (acknowledged: number, total: number) => void;

/** What ffprobe says of a rendered file, for each platform's pre-flight gate. */
export interface MediaFacts {
  container: string;
  videoCodec: string;
  audioCodec: string | null;
  durationSec: number;
  width: number;
  height: number;
  fps: number;
  sizeBytes: number;
}

/** A published post's counters, read back by the stats job. */
export interface VideoStats {
  /** The platform's id of the post (YouTube video id, TikTok video id, Instagram media id). */
  id: string;
  views: number;
  likes: number;
  comments: number;
  /** Shares and saves where the platform gives them (TikTok shares; Instagram shares and saves). */
  shares?: number;
  saves?: number;
}
