/**
 * Every API path the panel calls, by domain, in the routes' own `:param` form (server/<domain>/*.routes.ts
 * registers the same paths; tests/api/endpoints.test.ts checks that each one is served). The panel builds its
 * URLs from here with `pathOf` and nowhere else (tests/unit/architecture.test.ts). No zod in this file: the
 * sign-in page reads its paths from it and stays small.
 *
 * A `collection` is a REST collection: GET ?page (a page), POST (create), GET, PATCH and DELETE /{id}.
 */
export const API = {
  auth: {
    login: '/api/auth/login',
    refresh: '/api/auth/refresh',
    logout: '/api/auth/logout',
    password: '/api/auth/password',
    /** PUT: the signed-in user's interface language. */
    language: '/api/auth/language',
    /** The second sign-in step: a code from the authenticator app, or a recovery code. */
    loginCode: '/api/auth/login/code',
  },
  twoFactor: {
    status: '/api/auth/two-factor',
    setup: '/api/auth/two-factor/setup',
    enable: '/api/auth/two-factor/enable',
    disable: '/api/auth/two-factor/disable',
    /** Admin: required of everyone (GET, PUT). */
    policy: '/api/two-factor/policy',
    /** Admin: DELETE resets a user's. */
    reset: '/api/users/:id/two-factor',
  },
  audit: {
    collection: '/api/audit',
    export: '/api/audit/export',
  },
  users: {
    collection: '/api/users',
    accounts: '/api/users/:id/account',
    videos: '/api/users/:id/video',
  },
  accounts: {
    collection: '/api/accounts',
    videos: '/api/accounts/:id/video',
    search: '/api/accounts/search',
    channel: '/api/accounts/update-channel/:id',
    instagramProfile: '/api/accounts/update-profile-inst/:id',
    gpt: '/api/accounts/gpt/:id',
    sync: '/api/accounts/sync/:id',
    /**
     * The authorization link of a platform (POST; the panel copies it to the clipboard): YouTube's at the spec's
     * own path, any other platform's at its id's.
     */
    connectYouTube: '/api/accounts/connect-youtube/:id',
    connect: '/api/:platform/authorize/:id',
  },
  groups: { collection: '/api/accounts-group' },
  tags: { collection: '/api/tags' },
  backgrounds: {
    folders: '/api/folder/photo-bg',
    folderOptions: '/api/folder/photo-bg/select',
    /** POST: the upload (multipart); DELETE /{id}: one item. */
    items: '/api/photo-bg',
    folderItems: '/api/photo-bg/:id',
  },
  media: {
    /** GET: the space stored media takes (own; every user's for an admin). */
    usage: '/api/media-usage',
  },
  videos: {
    requests: '/api/create-video',
    request: '/api/create-video/request/:id',
    create: '/api/create-video/create',
  },
  publications: {
    /** GET ?page: the list; GET, PATCH, DELETE /{id}; POST /{idUpload}: publish a request's videos. */
    collection: '/api/upload-video',
    rules: '/api/upload-video/rules',
    connections: '/api/upload-video/connections',
    requestForm: '/api/upload-video/form/:id',
    aiForm: '/api/upload-video/form/ai/:id',
    aiPublish: '/api/upload-video/ai/:id',
    /** A profile's TikTok creator_info (the privacy levels and switches its posts may choose). */
    tiktokCreator: '/api/upload-video/tiktok/creator-info/:account',
    publishAgain: '/api/upload-video/upload',
    video: '/api/upload-video/video/:videoId',
    /** One post (a video on one platform): `action` is one of POST_ACTIONS (src/contract/publications.ts). */
    post: '/api/upload-video/video/:videoId/:platform/:action',
  },
  /**
   * The calendar: GET ?start&end the posts due in a range; GET days the month view's answer (each day's first posts
   * and its count); POST move {at} one post to another time.
   */
  calendar: {
    posts: '/api/calendar/posts',
    days: '/api/calendar/days',
    move: '/api/calendar/posts/:id/move',
  },
  /** Approval before posting (admin): the posts awaiting approval; approve one, or reject it with a reason. */
  approvals: {
    list: '/api/approvals',
    approve: '/api/approvals/:id/approve',
    reject: '/api/approvals/:id/reject',
  },
  /** Analytics (issue 22): the dashboard, a publication's and a profile's curves, a render request's variants. */
  analytics: {
    dashboard: '/api/analytics/dashboard',
    publication: '/api/analytics/publications/:id',
    profile: '/api/analytics/profiles/:id',
    variants: '/api/analytics/requests/:id/variants',
  },
  /** Bulk import of publications from CSV (dry run, then commit) and their export with the same columns. */
  imports: {
    dryRun: '/api/imports/publications/dry-run',
    commit: '/api/imports/publications',
    export: '/api/imports/publications/export',
  },
  /**
   * Posting slots: GET a profile's; PUT/DELETE one platform's; POST queue posts; GET capacity ?start&end; GET
   * over-days ?start&end (the days of capacity's answer marked over, the calendar's shading).
   */
  slots: {
    profile: '/api/slots/:accountId',
    platform: '/api/slots/:accountId/:platform',
    queue: '/api/slots/queue',
    capacity: '/api/slots/capacity',
    overDays: '/api/slots/over-days',
  },
  /** The AI service (its own base URL when VITE_AI_BASE_URL is set; the panel's second client). */
  ai: {
    sessions: '/api/ai/info',
    logs: '/api/ai/info/logs',
    videos: '/api/ai/info/video',
    /** `action` is one of AI_ACTIONS (src/contract/ai.ts). */
    action: '/api/ai/setting/:action',
  },
  /** The Jobs screen (admins): GET ?page the list; POST /{id}/retry, /{id}/cancel. */
  jobs: {
    collection: '/api/jobs',
    summary: '/api/jobs/summary',
    retry: '/api/jobs/:id/retry',
    cancel: '/api/jobs/:id/cancel',
  },
  /** Own API keys (a session only): GET the list, POST make one, DELETE /{id} revoke. */
  apiKeys: {
    collection: '/api/api-keys',
    item: '/api/api-keys/:id',
  },
  /** Webhooks: GET, POST; GET, PATCH, DELETE /{id}; the delivery log, "send test" and "rotate secret". */
  webhooks: {
    collection: '/api/webhooks',
    item: '/api/webhooks/:id',
    deliveries: '/api/webhooks/:id/deliveries',
    test: '/api/webhooks/:id/test',
    rotateSecret: '/api/webhooks/:id/rotate-secret',
  },
  live: {
    ticket: '/api/live/ticket',
    events: '/api/live/events',
    notifications: '/api/notifications',
    readAll: '/api/notifications/read',
    read: '/api/notifications/:id/read',
  },
} as const;

/** The `:name` parameters of a path. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type PathParams<P extends string> = Record<ParamNames<P>, string | number>;
/** A query string's values; undefined and '' are left out. */
export type Query = Record<string, string | number | boolean | null | undefined>;

/**
 * A path with its parameters filled in (each URI-encoded) and an optional query string:
 * `pathOf(API.accounts.sync, { id: 5 }, { platform: 'youtube' })` → `/api/accounts/sync/5?platform=youtube`.
 */
export function pathOf<P extends string>(path: P, params: PathParams<P>, query?: Query): string {
  const values: Record<string, string | number> = params;
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return withQuery(filled, query);
}

/** One item of a collection: `itemOf(API.tags.collection, 3)` → `/api/tags/3`. */
export const itemOf = (collection: string, id: string | number, query?: Query) =>
  withQuery(`${collection}/${encodeURIComponent(String(id))}`, query);

/** A path with a query string (undefined, null and empty values left out). */
export function withQuery(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v != null && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
