/** Status values shared by server and panel (SPEC §4). */
export const VIDEO_STATUSES = ['publication', 'loading', 'success', 'error', 'noactive'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

export const ACCOUNT_STATUSES = VIDEO_STATUSES;
export type AccountStatus = VideoStatus;

/** Which label set a status badge uses. */
export type StatusKind = 'video' | 'account' | 'ai' | 'aiLog' | 'aiVideo' | 'request';
