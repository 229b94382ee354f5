import * as z from 'zod/mini';
import { pageOf } from './http';

/**
 * Live updates (server → panel, one server-sent-events stream per tab) and the bell's notifications. The
 * stream is opened with a short-lived ticket from an authenticated POST (EventSource cannot send headers).
 */

/**
 * What each event is about (a render, a post, a profile's proxy check, a notification); `notification` events
 * reach only their user, the others their owner and admins.
 */
export const LIVE_KINDS = ['request', 'publish', 'profile', 'notification'] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];

/** One stream message (`data:` of an SSE message whose `id:` is `id`). */
export type LiveEvent = { id: number; kind: LiveKind; payload: Record<string, unknown> };
/** The `data:` of a stream message, as the panel reads it. */
export const LiveDataSchema = z.object({ kind: z.enum(LIVE_KINDS), payload: z.record(z.string(), z.unknown()) });

/** A render's state as the request list shows it (a `request` event's payload). */
export type RequestLive = {
  id: number;
  idUpload: string;
  status: string;
  progress: number;
  done: number;
  count: number;
  error: string | null;
};

/** A publish row's state (a `publish` event's payload). */
export type PublishLive = {
  publishId: number;
  videoId: number;
  publicationId: number | null;
  idUpload: string | null;
  platform: string;
  state: string;
  bytesSent: number;
  bytesTotal: number;
};

/** What a notification says (an i18n key `kadr.live.notice.<kind>` with the params). */
export const NOTICE_KINDS = [
  'render_done',
  'render_failed',
  'publish_done',
  'publish_failed',
  'reconnect',
  'grant_expiring',
  'job_stalled',
  'approval_needed',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NotificationSchema = z
  .object({
    id: z.int(),
    kind: z.enum(NOTICE_KINDS),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
    link: z.nullable(z.string()).register(z.globalRegistry, { description: 'Panel path of the thing it is about' }),
    readAt: z.nullable(z.string()),
    createdAt: z.string(),
  })
  .register(z.globalRegistry, {
    id: 'Notification',
    example: {
      id: 7,
      kind: 'render_done',
      params: { id: 12, count: 3 },
      link: '/video/request-create',
      readAt: null,
      createdAt: '2026-11-24T10:00:00.000Z',
    },
  });
export type Notification = z.infer<typeof NotificationSchema>;

/** Newest first, with the caller's unread count for the bell's badge. */
export const NotificationPageSchema = z.extend(pageOf(NotificationSchema), { unread: z.int() });
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const ReadAllSchema = z.object({ updated: z.int() });

export const LiveTicketSchema = z.object({
  ticket: z
    .string()
    .register(z.globalRegistry, { description: 'Opens GET /api/live/events?ticket=… once within its lifetime' }),
  expiresInSec: z.int(),
});

export const LiveStreamQuery = z.object({
  ticket: z.optional(z.string().check(z.maxLength(512))),
  lastEventId: z.optional(z.string().check(z.regex(/^\d{1,15}$/))).register(z.globalRegistry, {
    description: 'Resume after this event id (the Last-Event-ID header wins when both are sent)',
  }),
});

/** How often the stream sends a comment so proxies and the server's idle timeouts keep it open. */
export const LIVE_HEARTBEAT_MS = 15_000;
