import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Role } from '../../src/contract/roles.js';

/**
 * Table types. Booleans are stored as 0/1 integers on both databases; timestamps as ISO-8601 text, except those
 * SQL compares or orders by: epoch milliseconds (012_time_columns; `number`), converted at the repository edge.
 */
export interface UsersTable {
  id: Generated<number>;
  login: string;
  passwordHash: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
  /** 032: 1 = this user's posts wait for an admin's approval before they go out. */
  needsApproval: Generated<number>;
  /** 028: the confirmed TOTP secret (sealed), a secret awaiting its first code (sealed), the last step accepted. */
  totpSecretSealed: Generated<string | null>;
  totpPendingSealed: Generated<string | null>;
  totpLastStep: Generated<number | string | null>;
  /** 048: the interface language the user chose ('uk' | 'en'), null when none yet. */
  language: Generated<string | null>;
}

/** 028: one-time recovery codes (SHA-256 hex), `usedAt` once spent. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  userId: number;
  codeHash: string;
  usedAt: string | null;
}

/** 029: the append-only audit log (server/audit); `at` epoch ms; no foreign key to users. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number | string;
  actorId: number | null;
  actorLogin: string | null;
  action: string;
  objectType: string | null;
  objectId: string | null;
  ip: string | null;
  detail: string | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  userId: number;
  familyId: string;
  tokenHash: string;
  /** 012: epoch ms. */
  expiresAt: number;
  revokedAt: string | null;
  replacedAt: string | null;
  createdAt: string;
}

/** Owned records every domain counts per user; the domains widen these tables in their own migrations. */
export interface AccountsTable {
  id: Generated<number>;
  userId: number;
  createdAt: string;
  // 002_accounts: SPEC §3 Account. `*Sealed` columns hold server/crypto/seal.ts values, never plaintext.
  ipVersion: Generated<string>;
  status: Generated<string>;
  comments: string | null;
  proxySealed: string | null;
  idGpt: string | null;
  youTubeAuthClientId: string | null;
  youTubeAuthClientSecretSealed: string | null;
  youTubeLogin: string | null;
  youTubePasswordSealed: string | null;
  instagramLogin: string | null;
  instagramPasswordSealed: string | null;
  instagramTwofaCodeSealed: string | null;
  description: string | null;
  titleChannel: string | null;
  urlChannel: string | null;
  profileNameInstagram: string | null;
  profileDescriptionInstagram: string | null;
  urlInstagram: string | null;
  titleTikTok: string | null;
  descriptionTikTok: string | null;
  urlTikTok: string | null;
  emailGpt: string | null;
  passwordGptSealed: string | null;
  passwordDeepSeekSealed: string | null;
  proxyGptSealed: string | null;
  error: string | null;
  updatedAt: string | null;
  isActiveGpt: Generated<number>;
  inYouTube: Generated<number>;
  inTikTok: Generated<number>;
  inInstagram: Generated<number>;
  inGpt: Generated<number>;
  /** 011: derived by the database (lower-cased names and comment; the title), for the list's search and sort. */
  search: Generated<string | null>;
  nameKey: Generated<string | null>;
  /** 035: the profile's IANA time zone (NULL: UTC). */
  timeZone: string | null;
}

/**
 * 021: a profile's state per platform (its grant, connected flag, error, and the @handle and avatar the platform
 * last reported), one row per profile × platform; server/accounts/platform-state.ts maps it onto a profile's row.
 */
export interface AccountPlatformsTable {
  accountId: number;
  platform: string;
  tokensSealed: string | null;
  active: Generated<number>;
  error: string | null;
  handle: string | null;
  avatar: string | null;
}

export interface VideosTable {
  id: Generated<number>;
  userId: number;
  accountId: number | null;
  createdAt: string;
  // 002_accounts: SPEC §3 Video item (counts default 0; tags as a JSON array text).
  status: Generated<string>;
  url: string | null;
  idUpload: string | null;
  date: string | null;
  title: string | null;
  description: string | null;
  tags: string | null;
  views: Generated<number | null>;
  viewsInstagram: Generated<number | null>;
  likes: Generated<number | null>;
  likesInstagram: Generated<number | null>;
  comments: Generated<number | null>;
  commentsInstagram: Generated<number | null>;
  urlYouTube: string | null;
  urlInstagram: string | null;
  urlTikTok: string | null;
  error: string | null;
  errorInstagram: string | null;
  errorTikTok: string | null;
  // 005_jobs_create_video: a rendered output of a create-video request (unique per request and index).
  requestId: number | null;
  outputIndex: number | null;
  storageKey: string | null;
  // 008_publications: the publication it belongs to, and a version that goes up on every edit.
  publicationId: number | null;
  version: Generated<number>;
  /** 018: `date` as epoch ms (PostgreSQL bigint), what the publication list's date filter compares. */
  dateMs: number | string | null;
  /** 026: the stored file's size in bytes (null until measured), when retention removed it, first seen published (epoch ms). */
  size: number | string | null;
  mediaRemovedAt: number | string | null;
  publishedMs: number | string | null;
  /** 047: its own title/caption per platform (src/contract/platform-posts.ts VideoPosts, JSON); null = none. */
  posts: string | null;
}

/** Key/value settings (002_accounts: the APP_KEY check value). */
export interface SettingsTable {
  key: string;
  value: string;
}

/** 003_groups_tags: account groups (members in group_accounts) and saved tag sets (tags: JSON array text). */
export interface AccountGroupsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface GroupAccountsTable {
  groupId: number;
  accountId: number;
}

export interface TagSetsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  tags: string;
  createdAt: string;
  updatedAt: string;
}

/** 004_backgrounds: background folders and their items (files in storage under storage_key / preview_key). */
export interface BackgroundFoldersTable {
  id: Generated<number>;
  userId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface BackgroundItemsTable {
  id: Generated<number>;
  folderId: number;
  userId: number;
  type: 'image' | 'video';
  storageKey: string;
  previewKey: string | null;
  originalName: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  createdAt: string;
}

/** 006: failed sign-ins per key, shared by all API processes (server/auth/login-throttle.ts). */
export interface LoginFailuresTable {
  key: string;
  count: number;
  untilMs: number;
}

/** 014: per-user counts of expensive operations in their window (server/http/user-limits.ts). */
export interface UserLimitsTable {
  userId: number;
  kind: string;
  count: number;
  untilMs: number;
}

/** 013: live-stream tickets already redeemed, until they expire (server/live/live.service.ts). */
export interface LiveTicketRedemptionsTable {
  ticketId: string;
  expiresMs: number;
}

/** 005: the durable job queue (server/jobs). Payload is JSON text; run_at and lease_until epoch ms (012). */
export interface JobsTable {
  id: Generated<number>;
  name: string;
  key: string;
  payload: string;
  status: 'queued' | 'running' | 'done' | 'dead';
  attempts: Generated<number>;
  maxAttempts: Generated<number>;
  runAt: number;
  leaseUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  /** 012: successors enqueued without progress along the job's chain (server/jobs/queue.ts). */
  stalls: Generated<number>;
  /** 012: the handler's mark of progress when it enqueued this job (compared with its successor's). */
  progressMark: string | null;
  /** 022: when the current (or last) attempt was claimed (epoch ms); null before the first claim. */
  claimedAt: number | null;
  createdAt: string;
  updatedAt: string;
}

/** 005: create-video requests (server/videos); folders is a JSON array of folder ids. */
export interface CreateVideoRequestsTable {
  id: Generated<number>;
  userId: number;
  idUpload: string;
  status: 'pending' | 'loading' | 'success' | 'error';
  progress: Generated<number>;
  count: number;
  isVideo: number;
  isPhoto: number;
  isGenerator: number;
  folders: string;
  clipKey: string;
  clipName: string;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /** 026: the clip's size in bytes (null until measured), when retention removed it, when the render ended (epoch ms). */
  clipSize: number | string | null;
  clipRemovedAt: number | string | null;
  doneAt: number | string | null;
}

/** 008: SPEC §3 Publication (one per finished create-video request). Tags as a JSON array text. */
export interface PublicationsTable {
  id: Generated<number>;
  userId: number;
  /** 009: null for an AI video's publication (server/ai), which has no create-video request. */
  requestId: number | null;
  title: string;
  description: Generated<string>;
  tags: Generated<string>;
  version: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

/** 024: the platforms a publication is on, one row each (the API's inYouTube, inTikTok, inInstagram). */
export interface PublicationPlatformsTable {
  publicationId: number;
  /** A platform of the registry (server/platforms/registry.ts): the spec's three, or one a registry adds. */
  platform: string;
  /** 038: the post this platform gets (src/contract/platform-posts.ts, JSON); null = from the shared fields. */
  post: string | null;
}

/** 008: one video to one platform, the publish job's recorded steps (src/contract/publications.ts PUBLISH_STATES). */
export interface VideoPublishesTable {
  id: Generated<number>;
  videoId: number;
  /** A platform of the registry. */
  platform: string;
  accountId: number | null;
  state: Generated<string>;
  dueAt: string;
  videoVersion: number;
  handleSealed: string | null;
  remoteId: string | null;
  remoteUrl: string | null;
  bytesSent: Generated<number | string>;
  bytesTotal: Generated<number | string>;
  error: string | null;
  errorKind: string | null;
  waitUntil: string | null;
  processingSince: string | null;
  publishedAt: string | null;
  views: Generated<number>;
  likes: Generated<number>;
  comments: Generated<number>;
  /** 012: epoch ms. */
  statsAt: number | null;
  /** 016: passing faults (or lost steps reconciled) in a row; 0 after progress. The panel shows "retrying". */
  attempt: Generated<number>;
  /** 016: epoch ms of the worker's next look after the last fault. */
  retryAtMs: number | null;
  /** 016: epoch ms of the last on-demand stats read (the per-post cooldown). */
  statsAskedMs: number | null;
  /** 023: the chain's latest queued step (its job's key is publishJobKey(id, step)). */
  step: Generated<number>;
  /** 032: the video version an admin approved (null: not approved); an edit bumps the version and asks again. */
  approvedVersion: number | null;
  /** 032: the admin who approved it (no foreign key: the record outlives the user). */
  approvedBy: number | null;
  approvedAt: string | null;
  /** 037: the rendered file it posts (its video's storage key), and the live post an allowed repeat repeats (0: none). */
  fileKey: Generated<string | null>;
  repeatOf: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

/** 033: a post's lifetime counters at one stats read ('hour'), or the last of a day once rolled up ('day'). */
export interface PostStatsTable {
  publishId: number;
  atMs: number | string;
  grain: Generated<'hour' | 'day'>;
  views: Generated<number | string>;
  likes: Generated<number | string>;
  comments: Generated<number | string>;
  shares: Generated<number | string>;
  saves: Generated<number | string>;
}

/**
 * 033: a post's increments over one day (server/analytics/stat-day.ts); 045: its running totals (what it grew by up
 * to and including the day, the counters at the day's end when days are written in order).
 */
export interface PostStatDaysTable {
  publishId: number;
  day: string;
  views: Generated<number | string>;
  likes: Generated<number | string>;
  comments: Generated<number | string>;
  shares: Generated<number | string>;
  saves: Generated<number | string>;
  viewsTotal: Generated<number | string>;
  likesTotal: Generated<number | string>;
  commentsTotal: Generated<number | string>;
  sharesTotal: Generated<number | string>;
  savesTotal: Generated<number | string>;
}

/** 046: a post's first and latest stats day and its running totals at the latest (the sums of its increments). */
export interface PostStatLatestTable {
  publishId: number;
  firstDay: string;
  day: string;
  viewsTotal: Generated<number | string>;
  likesTotal: Generated<number | string>;
  commentsTotal: Generated<number | string>;
  sharesTotal: Generated<number | string>;
  savesTotal: Generated<number | string>;
}

/** 033: a profile's increments on one platform over one day. */
export interface ProfileStatDaysTable {
  accountId: number;
  platform: string;
  day: string;
  views: Generated<number | string>;
  likes: Generated<number | string>;
  comments: Generated<number | string>;
  shares: Generated<number | string>;
  saves: Generated<number | string>;
  /** 045: what the profile grew by in views up to and including the day. */
  viewsTotal: Generated<number | string>;
}

/** 045: the increments of one owner's profiles on one platform over one day (each profile's local day). */
export interface UserStatDaysTable {
  userId: number;
  platform: string;
  day: string;
  views: Generated<number | string>;
  likes: Generated<number | string>;
  comments: Generated<number | string>;
  shares: Generated<number | string>;
  saves: Generated<number | string>;
}

/** 036: a profile's posting slots on one platform (days, times: JSON arrays; times 'HH:MM' in its zone). */
export interface PostingSlotsTable {
  id: Generated<number>;
  accountId: number;
  platform: string;
  days: string;
  times: string;
  minGapMinutes: number;
  updatedAt: string;
}

/** 008: what a platform call spent (quota windows are sums over `at`). */
export interface PlatformUsageTable {
  id: Generated<number>;
  platform: string;
  accountId: number | null;
  kind: string;
  amount: number;
  /** 012: epoch ms. */
  at: number;
}

/**
 * 010_live, 020_event_outbox: the domain events (server/events), tailed by id by every process, and the bell's
 * notifications.
 */
export interface EventsTable {
  id: Generated<number>;
  /** The user whose rows the event is about; 0 for none (a dead job). */
  userId: number;
  /** The event's name (server/events/events.ts). */
  kind: string;
  payload: string;
  /** 012: epoch ms. */
  createdAt: number;
  /** 020: epoch ms when it is due to its subscribers (server/events/subscriber.ts); null once delivered or when none wants it. */
  dispatchAt: number | null;
  /** 020: deliveries that failed so far. */
  dispatchAttempts: Generated<number>;
}

export interface NotificationsTable {
  id: Generated<number>;
  userId: number;
  kind: string;
  params: Generated<string>;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

/** 009: AI sessions (server/ai): one per GPT email; `*Sealed` columns hold server/crypto/seal.ts values. */
export interface AiSessionsTable {
  id: Generated<number>;
  userId: number;
  accountId: number | null;
  email: string;
  passwordSealed: string | null;
  passwordDeepseekSealed: string | null;
  proxySealed: string | null;
  isActive: Generated<number>;
  status: Generated<string>;
  errorText: string | null;
  browserStateGptSealed: string | null;
  browserStateDeepseekSealed: string | null;
  createdAt: string;
  updatedAt: string;
}

/** 009: chat turns (message_* sanitised HTML as shown, text_* plain text as sent to the model). */
export interface AiMessagesTable {
  id: Generated<number>;
  sessionId: number;
  provider: string;
  messageMy: string;
  messageAi: string | null;
  textMy: string;
  textAi: string | null;
  createdAt: string;
}

export interface AiScreenshotsTable {
  id: Generated<number>;
  sessionId: number;
  storageKey: string;
  label: Generated<string>;
  createdAt: string;
}

/** 009: AI log lines (message: an encoded i18n message, src/contract/stored-message.ts). */
export interface AiLogsTable {
  id: Generated<number>;
  userId: number;
  sessionId: number | null;
  message: string;
  status: string;
  /** 016: the AI video the line is about (its 'loading' lines settle with it). */
  videoId: Generated<number | null>;
  createdAt: string;
}

/** 009: generated videos for review; publication_id/video_id once handed to the publishing pipeline. */
export interface AiVideosTable {
  id: Generated<number>;
  userId: number;
  sessionId: number | null;
  status: Generated<string>;
  prompt: string;
  title: string;
  description: Generated<string>;
  tags: Generated<string>;
  storageKey: string | null;
  providerJobId: string | null;
  attempt: Generated<number>;
  error: string | null;
  publicationId: number | null;
  videoId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** 030: personal API keys (server/api-keys); times epoch ms; only the key's SHA-256 is kept. */
export interface ApiKeysTable {
  id: Generated<number>;
  userId: number;
  name: string;
  access: 'read' | 'write';
  prefix: string;
  tokenHash: string;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  windowUntilMs: Generated<number>;
  windowCount: Generated<number>;
  createdAt: number;
}

/** 031: webhooks (server/webhooks); `events` a JSON array of event names; the secret sealed. */
export interface WebhooksTable {
  id: Generated<number>;
  userId: number;
  url: string;
  events: string;
  secretSealed: string;
  enabled: Generated<number>;
  createdAt: number;
  updatedAt: number;
  /** 042: the secret a rotation replaced, still signing until `previousSecretUntil` (epoch ms). */
  previousSecretSealed: string | null;
  previousSecretUntil: number | null;
}

/** 031: one attempt to deliver a webhook message (the delivery log). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhookId: number;
  messageId: string;
  event: string;
  attempt: number;
  ok: number;
  willRetry: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  createdAt: number;
}

export interface Database {
  apiKeys: ApiKeysTable;
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
  aiSessions: AiSessionsTable;
  aiMessages: AiMessagesTable;
  aiScreenshots: AiScreenshotsTable;
  aiLogs: AiLogsTable;
  aiVideos: AiVideosTable;
  users: UsersTable;
  refreshTokens: RefreshTokensTable;
  recoveryCodes: RecoveryCodesTable;
  auditLog: AuditLogTable;
  accounts: AccountsTable;
  accountPlatforms: AccountPlatformsTable;
  videos: VideosTable;
  settings: SettingsTable;
  accountGroups: AccountGroupsTable;
  groupAccounts: GroupAccountsTable;
  tagSets: TagSetsTable;
  backgroundFolders: BackgroundFoldersTable;
  backgroundItems: BackgroundItemsTable;
  jobs: JobsTable;
  loginFailures: LoginFailuresTable;
  userLimits: UserLimitsTable;
  createVideoRequests: CreateVideoRequestsTable;
  publications: PublicationsTable;
  publicationPlatforms: PublicationPlatformsTable;
  videoPublishes: VideoPublishesTable;
  platformUsage: PlatformUsageTable;
  postStats: PostStatsTable;
  postStatDays: PostStatDaysTable;
  postStatLatest: PostStatLatestTable;
  profileStatDays: ProfileStatDaysTable;
  userStatDays: UserStatDaysTable;
  postingSlots: PostingSlotsTable;
  events: EventsTable;
  notifications: NotificationsTable;
  liveTicketRedemptions: LiveTicketRedemptionsTable;
  multipartUploads: MultipartUploadsTable;
}

/** 040: a multipart upload S3 storage started and has not completed or aborted yet (the sweep aborts stale ones). */
export interface MultipartUploadsTable {
  uploadId: string;
  bucket: string;
  objectKey: string;
  /** Epoch ms (bigint on PostgreSQL: read back as a string there). */
  startedMs: number | string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
