/** What the Instagram publisher answers, and the Graph API's answers as far as it reads them. */
import type { PlatformError } from '../types';

export interface InstagramPublishingLimit {
  used: number;
  total: number;
  windowSec: number;
}

export type InstagramContainerStatus =
  | { code: 'IN_PROGRESS' | 'FINISHED' | 'EXPIRED' | 'PUBLISHED'; status: string }
  | { code: 'ERROR'; status: string; error: PlatformError };

export interface InstagramMedia {
  id: string;
  permalink: string;
  shortcode: string;
  timestamp: Date;
  caption?: string;
}

/** What `reconcile` learnt from Instagram after an unknown outcome. */
export type InstagramReconcile =
  /** It went live: store the id and link, never publish again. */
  | { state: 'published'; media: InstagramMedia }
  /** The container says PUBLISHED but the post is not in the list yet: ask again later, never publish again. */
  | { state: 'published-unlisted' }
  /** Not published and the container is ready: safe to call `publish` with the same container. */
  | { state: 'ready' }
  /** Not published, still processing: keep polling within the budget. */
  | { state: 'processing' }
  /** Not published and the container is dead (24 h passed): safe to create a new container. */
  | { state: 'expired' }
  /** Not published, processing failed: the reason. */
  | { state: 'failed'; error: PlatformError };

/** The Graph API's answers as far as the publisher reads them (any field may be missing). */
export interface GraphNode {
  id?: string | number;
  status_code?: string;
  status?: string;
  permalink?: string;
  shortcode?: string;
  timestamp?: string;
  caption?: string;
  like_count?: number;
  comments_count?: number;
  data?: GraphNode[];
  paging?: { next?: string; cursors?: { after?: string } };
  quota_usage?: number;
  config?: { quota_total?: number; quota_duration?: number };
  name?: string;
  values?: Array<{ value?: number }>;
  total_value?: { value?: number };
  code?: number | string;
  message?: string;
}

/** A Graph media node (its `timestamp` reads 2026-11-22T10:00:00+0000). */
export function toMedia(m: GraphNode): InstagramMedia {
  const ts = String(m?.timestamp ?? '').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  return {
    id: String(m?.id ?? ''),
    permalink: String(m?.permalink ?? ''),
    shortcode: String(m?.shortcode ?? ''),
    timestamp: new Date(ts),
    ...(m?.caption !== undefined ? { caption: String(m.caption) } : {}),
  };
}
