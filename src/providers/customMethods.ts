import type { Language } from '../contract/auth';
import type { Identifier } from 'ra-core';
import type { z } from 'zod';
import type { ChannelDescriptionSchema, InstagramProfileSchema } from '../contract/accounts';
import type { AnalyticsPeriod } from '../contract/analytics';
import type { CalendarDayFilter, CalendarFilter } from '../contract/calendar';
import type { AiAction, AiActionBody, AiActionReply, AiProvider } from '../contract/ai';
import { API, itemOf, pathOf } from '../contract/endpoints';
import type { PlatformKey } from '../contract/platforms';
import type { PostAction, PublicationCreate, PublicationPatch } from '../contract/publications';
import type { SlotsInput } from '../contract/slots';
import type { PasswordChange } from '../contract/users';
import type { ApiKeyCreate } from '../contract/personal-keys';
import type { WebhookCreate, WebhookPatch } from '../contract/webhooks';
import type { CreateVideoFields } from '../contract/videos';
import { aiClient } from './aiClient';
import { downloadAuditCsv } from './downloadAuditCsv';
import { call } from './call';
import { httpClient } from './httpClient';
import { contract } from './contract';
import { uploadWithProgress, type UploadProgress } from './uploadWithProgress';
import type { AnswerSchema } from './parseAnswer';

type OnProgress = (p: UploadProgress) => void;

/** The AI actions' replies, indexed so that a call's reply type follows its action. */
type AiReplies = { [A in AiAction]: { reply: AnswerSchema<AiActionReply<A>> } };
const aiReplyOf = async <A extends AiAction>(action: A) => {
  const actions: AiReplies = (await contract.ai()).AI_ACTIONS;
  return actions[action].reply;
};

// Each schema comes from its domain's contract module, loaded with the first call that needs it.
const account = () => contract.accounts().then((c) => c.AccountRecordSchema);
const publication = () => contract.publications().then((c) => c.PublicationSchema);
const twoFactor = () => contract.twoFactor();
const noContent = () => contract.http().then((c) => c.NoContent);
const publicationChange = () => contract.publications().then((c) => c.PublicationCreatedSchema);

/**
 * The dataProvider's methods beyond react-admin's CRUD (react-admin's "custom methods"): the API's actions and
 * reads that are not a resource's list or record. Each answer is parsed through its contract schema.
 */
export const customMethods = {
  // Profiles (SPEC §2 profile form and platform panels).
  syncProfile: (id: Identifier, platform: PlatformKey) =>
    call(account(), pathOf(API.accounts.sync, { id }, { platform }), { method: 'POST', body: {} }),
  changeChannelDescription: (id: Identifier, body: z.input<typeof ChannelDescriptionSchema>) =>
    call(account(), pathOf(API.accounts.channel, { id }), { method: 'PATCH', body }),
  changeInstagramProfile: (id: Identifier, body: z.input<typeof InstagramProfileSchema>) =>
    call(
      contract.accounts().then((c) => c.AccountWithNoticeSchema),
      pathOf(API.accounts.instagramProfile, { id }),
      { method: 'PATCH', body },
    ),
  /** The platform's authorization link for the profile (the panel copies it to the clipboard). */
  connectLink: (platform: PlatformKey, id: Identifier) =>
    call(
      contract.accounts().then((c) => c.AuthorizeUrlSchema),
      platform === 'youtube'
        ? pathOf(API.accounts.connectYouTube, { id })
        : pathOf(API.accounts.connect, { platform, id }),
      { method: 'POST' },
    ),
  /** Stores the AI service's session id on the profile. */
  setAiSession: (id: Identifier, idGPT: number) =>
    call(account(), pathOf(API.accounts.gpt, { id }), { method: 'PATCH', body: { idGPT } }),
  /** The caller's profiles as select options (a group's own members too), narrowed by `q`. */
  searchProfiles: (query: { groupId: Identifier; q?: string }, signal?: AbortSignal) =>
    call(
      contract.groups().then((c) => c.AccountOptionsSchema),
      pathOf(API.accounts.search, {}, query),
      { signal },
    ),

  // The AI service (its own client and base URL).
  aiAction: <A extends AiAction>(action: A, body: AiActionBody<A>): Promise<AiActionReply<A>> =>
    call(aiReplyOf(action), pathOf(API.ai.action, { action }), { method: 'POST', body, client: aiClient }),
  /** A session with one provider's whole history and its screenshots. */
  aiSession: (id: Identifier, provider: AiProvider, signal?: AbortSignal) =>
    call(
      contract.ai().then((c) => c.AiSessionDetailSchema),
      itemOf(API.ai.sessions, id, { type: provider }),
      { signal, client: aiClient },
    ),

  // Backgrounds.
  folderOptions: (signal?: AbortSignal) =>
    call(
      contract.backgrounds().then((c) => c.FolderOptionsSchema),
      API.backgrounds.folderOptions,
      { signal },
    ),
  /** Multipart, folderId first, then files[] and videos[]; reports the bytes sent. */
  uploadBackgrounds: async (folderId: Identifier, images: File[], videos: File[], onProgress: OnProgress) => {
    const { UPLOAD_FIELDS, UploadResultSchema } = await contract.backgrounds();
    const form = new FormData();
    form.append(UPLOAD_FIELDS.folder, String(folderId));
    for (const f of images) form.append(`${UPLOAD_FIELDS.images}[]`, f, f.name);
    for (const f of videos) form.append(`${UPLOAD_FIELDS.videos}[]`, f, f.name);
    return uploadWithProgress(UploadResultSchema, API.backgrounds.items, form, onProgress);
  },

  // Create-video requests.
  /** A request (by id or idUpload) with its rendered videos. */
  renderRequest: (id: string, signal?: AbortSignal) =>
    call(
      contract.videos().then((c) => c.CreateVideoRequestDetailSchema),
      pathOf(API.videos.request, { id }),
      { signal },
    ),
  /** Multipart: the fields first, the file last, so the server knows the options before the bytes arrive. */
  createVideoRequest: async (fields: CreateVideoFields, file: File, onProgress: OnProgress) => {
    const { CREATE_VIDEO_FIELDS, CreateVideoRequestSchema } = await contract.videos();
    const form = new FormData();
    form.append(CREATE_VIDEO_FIELDS.count, String(fields.countVideo));
    form.append(CREATE_VIDEO_FIELDS.isVideo, String(fields.isVideo));
    form.append(CREATE_VIDEO_FIELDS.isPhoto, String(fields.isPhoto));
    form.append(CREATE_VIDEO_FIELDS.isGenerator, String(fields.isGenerator));
    for (const id of fields.folders) form.append(`${CREATE_VIDEO_FIELDS.folders}[]`, String(id));
    form.append(CREATE_VIDEO_FIELDS.file, file, file.name);
    return uploadWithProgress(CreateVideoRequestSchema, API.videos.create, form, onProgress);
  },

  // Publishing.
  publishRules: (signal?: AbortSignal) =>
    call(
      contract.publications().then((c) => c.PublishRulesSchema),
      API.publications.rules,
      { signal },
    ),
  /** What the publish form starts from: a request's outputs (by idUpload) or one AI video. */
  tiktokCreatorInfo: (account: number, signal?: AbortSignal) =>
    call(
      contract.platformPosts().then((c) => c.TikTokCreatorInfoSchema),
      pathOf(API.publications.tiktokCreator, { account }),
      { signal },
    ),

  publishSource: (kind: 'request' | 'ai', id: string, signal?: AbortSignal) =>
    call(
      contract.publications().then((c) => c.PublishSourceSchema),
      pathOf(kind === 'ai' ? API.publications.aiForm : API.publications.requestForm, { id }),
      { signal },
    ),
  /** The platforms each of the profiles is connected to. */
  connections: (accounts: readonly number[], signal?: AbortSignal) =>
    call(
      contract.publications().then((c) => c.ProfileConnectionsSchema),
      pathOf(API.publications.connections, {}, { accounts: accounts.join(',') }),
      { signal },
    ),
  /** A publication, by its id or its request's idUpload. */
  publication: (ref: string, signal?: AbortSignal) =>
    call(publication(), itemOf(API.publications.collection, ref), { signal }),
  publishRequest: (idUpload: string, body: PublicationCreate) =>
    call(publicationChange(), itemOf(API.publications.collection, idUpload), { method: 'POST', body }),
  publishAiVideo: (id: string, body: PublicationCreate) =>
    call(
      contract.publications().then((c) => c.AiPublishedSchema),
      pathOf(API.publications.aiPublish, { id }),
      { method: 'POST', body },
    ),
  changePublication: (id: Identifier, body: PublicationPatch) =>
    call(publicationChange(), itemOf(API.publications.collection, id), { method: 'PATCH', body }),
  /** Publishes one video of a publication again. */
  publishAgain: (videoId: number, publicationId: number) =>
    call(publication(), API.publications.publishAgain, {
      method: 'POST',
      body: { videoId, youTubeId: publicationId },
    }),
  removeFromPublication: (videoId: number) =>
    call(publication(), pathOf(API.publications.video, { videoId }), { method: 'DELETE' }),
  /** Retry now, cancel, or read the stats now of one post (a video on one platform). */
  postAction: (videoId: number, platform: PlatformKey, action: PostAction) =>
    call(publication(), pathOf(API.publications.post, { videoId, platform, action }), { method: 'POST' }),

  // The calendar.
  /**
   * The posts due in a range (`start`, `end`: instants), filtered by profile, group, platform and state; with
   * `drawnStart`/`drawnEnd`, only those drawn in that span (one day of the month view, all of its posts).
   */
  calendarPosts: (query: CalendarFilter & CalendarDayFilter & { start: string; end: string }, signal?: AbortSignal) =>
    call(
      contract.calendar().then((c) => c.CalendarAnswerSchema),
      pathOf(API.calendar.posts, {}, query),
      { signal },
    ),
  /** The month view's days in `zone`: each day's first posts, as drawn, and its count (same filters). */
  calendarDays: (query: CalendarFilter & { start: string; end: string; zone: string }, signal?: AbortSignal) =>
    call(
      contract.calendar().then((c) => c.CalendarDaysAnswerSchema),
      pathOf(API.calendar.days, {}, query),
      { signal },
    ),
  /** A post that has not started going out, due at `at` instead. */
  movePost: (id: number, at: string) =>
    call(
      contract.calendar().then((c) => c.CalendarPostSchema),
      pathOf(API.calendar.move, { id }),
      { method: 'POST', body: { at } },
    ),

  // Approval before posting (admin).
  /** A page of the posts awaiting approval. */
  approvals: (page = 1, signal?: AbortSignal) =>
    call(
      contract.http().then((h) => contract.approvals().then((c) => h.pageOf(c.ApprovalItemSchema))),
      pathOf(API.approvals.list, {}, { page: String(page) }),
      { signal },
    ),
  /** Approves a post awaiting approval (it goes out at its date, or now). */
  approvePost: (id: number) =>
    call(
      contract.approvals().then((c) => c.ApprovalDecisionSchema),
      pathOf(API.approvals.approve, { id }),
      {
        method: 'POST',
      },
    ),
  /** Rejects a post awaiting approval with a reason (shown to its author). */
  rejectPost: (id: number, reason: string) =>
    call(
      contract.approvals().then((c) => c.ApprovalDecisionSchema),
      pathOf(API.approvals.reject, { id }),
      {
        method: 'POST',
        body: { reason },
      },
    ),
  // Analytics (issue 22): the series behind each chart.
  analyticsDashboard: (days: AnalyticsPeriod, signal?: AbortSignal) =>
    call(
      contract.analytics().then((c) => c.DashboardSchema),
      pathOf(API.analytics.dashboard, {}, { days }),
      { signal },
    ),
  publicationCurve: (id: number, signal?: AbortSignal) =>
    call(
      contract.analytics().then((c) => c.CurveSchema),
      pathOf(API.analytics.publication, { id }),
      { signal },
    ),
  profileCurve: (id: Identifier, days: AnalyticsPeriod, signal?: AbortSignal) =>
    call(
      contract.analytics().then((c) => c.CurveSchema),
      pathOf(API.analytics.profile, { id }, { days }),
      { signal },
    ),
  renderVariants: (id: number, signal?: AbortSignal) =>
    call(
      contract.analytics().then((c) => c.VariantsSchema),
      pathOf(API.analytics.variants, { id }),
      { signal },
    ),
  // Publications from and to CSV (issue 21 item 4).
  /** Every row of the file with its errors and warnings; nothing written. */
  importDryRun: (csv: string) =>
    call(
      contract.imports().then((c) => c.ImportReportSchema),
      API.imports.dryRun,
      { method: 'POST', body: { csv } },
    ),
  /** The file written, all rows or none. */
  importCommit: (csv: string) =>
    call(
      contract.imports().then((c) => c.ImportDoneSchema),
      API.imports.commit,
      { method: 'POST', body: { csv } },
    ),
  /** The caller's publications as CSV text, in the import's columns. */
  exportPublications: async () => (await httpClient(API.imports.export, { headers: { Accept: 'text/csv' } })).body,
  // Posting slots and the capacity view.
  /** A profile's time zone and posting slots. */
  profileSlots: (accountId: number, signal?: AbortSignal) =>
    call(
      contract.slots().then((c) => c.ProfileSlotsSchema),
      pathOf(API.slots.profile, { accountId }),
      { signal },
    ),
  saveSlots: (accountId: number, platform: PlatformKey, body: SlotsInput) =>
    call(
      contract.slots().then((c) => c.ProfileSlotsSchema),
      pathOf(API.slots.platform, { accountId, platform }),
      { method: 'PUT', body },
    ),
  removeSlots: (accountId: number, platform: PlatformKey) =>
    call(
      contract.slots().then((c) => c.ProfileSlotsSchema),
      pathOf(API.slots.platform, { accountId, platform }),
      { method: 'DELETE' },
    ),
  /** Per profile, local day and platform: what is planned against the budget, in a range. */
  capacity: (query: { start: string; end: string; accountId?: number | undefined }, signal?: AbortSignal) =>
    call(
      contract.slots().then((c) => c.CapacitySchema),
      pathOf(API.slots.capacity, {}, query),
      { signal },
    ),
  /** The days of a range over some platform's budget (capacity's days marked over), what the calendar shades. */
  overDays: (query: { start: string; end: string; accountId?: number | undefined }, signal?: AbortSignal) =>
    call(
      contract.slots().then((c) => c.OverDaysSchema),
      pathOf(API.slots.overDays, {}, query),
      { signal },
    ),

  // Live updates and the bell.
  liveTicket: () =>
    call(
      contract.live().then((c) => c.LiveTicketSchema),
      API.live.ticket,
      { method: 'POST' },
    ),
  notifications: (page: number, signal?: AbortSignal) =>
    call(
      contract.live().then((c) => c.NotificationPageSchema),
      pathOf(API.live.notifications, {}, { page }),
      { signal },
    ),
  readNotification: (id: number) =>
    call(
      contract.live().then((c) => c.NotificationSchema),
      pathOf(API.live.read, { id }),
      { method: 'POST' },
    ),
  readAllNotifications: () =>
    call(
      contract.live().then((c) => c.ReadAllSchema),
      API.live.readAll,
      { method: 'POST' },
    ),

  // Stored media: the caller's own usage; every user's for an admin.
  mediaUsage: (signal?: AbortSignal) =>
    call(
      contract.media().then((c) => c.MediaUsageListSchema),
      API.media.usage,
      { signal },
    ),

  // The Jobs screen (admins).
  jobSummary: (signal?: AbortSignal) =>
    call(
      contract.jobs().then((c) => c.JobSummarySchema),
      API.jobs.summary,
      { signal },
    ),
  /** Runs a dead or retrying job again now. */
  retryJob: (id: Identifier) =>
    call(
      contract.jobs().then((c) => c.JobRecordSchema),
      pathOf(API.jobs.retry, { id }),
      { method: 'POST' },
    ),
  /** Removes a queued job of a kind that is safe to cancel. */
  cancelJob: (id: Identifier) =>
    call(
      contract.jobs().then((c) => c.JobRecordSchema),
      pathOf(API.jobs.cancel, { id }),
      { method: 'POST' },
    ),

  // Settings.
  /** Ends every other session of the user; `refreshToken` names this one, which stays. */
  // Own API keys (Settings).
  apiKeys: (signal?: AbortSignal) =>
    call(
      contract.apiKeys().then((c) => c.ApiKeyListSchema),
      API.apiKeys.collection,
      { signal },
    ),
  createApiKey: (body: ApiKeyCreate) =>
    call(
      contract.apiKeys().then((c) => c.ApiKeyCreatedSchema),
      API.apiKeys.collection,
      { method: 'POST', body },
    ),
  /** An admin: another user's keys. */
  userApiKeys: (userId: Identifier, signal?: AbortSignal) =>
    call(
      contract.apiKeys().then((c) => c.ApiKeyListSchema),
      `${API.apiKeys.collection}?${new URLSearchParams({ userId: String(userId) })}`,
      { signal },
    ),
  /** Revokes an own key, or (an admin) anyone's. */
  revokeApiKey: (id: Identifier) =>
    call(
      contract.apiKeys().then((c) => c.ApiKeySchema),
      pathOf(API.apiKeys.item, { id }),
      { method: 'DELETE' },
    ),

  // Webhooks (Settings): own ones, every user's for an admin.
  webhooks: (signal?: AbortSignal) =>
    call(
      contract.webhooks().then((c) => c.WebhookListSchema),
      API.webhooks.collection,
      { signal },
    ),
  createWebhook: (body: WebhookCreate) =>
    call(
      contract.webhooks().then((c) => c.WebhookCreatedSchema),
      API.webhooks.collection,
      { method: 'POST', body },
    ),
  updateWebhook: (id: Identifier, body: WebhookPatch) =>
    call(
      contract.webhooks().then((c) => c.WebhookSchema),
      pathOf(API.webhooks.item, { id }),
      { method: 'PATCH', body },
    ),
  deleteWebhook: (id: Identifier) =>
    call(
      contract.webhooks().then((c) => c.WebhookSchema),
      pathOf(API.webhooks.item, { id }),
      { method: 'DELETE' },
    ),
  testWebhook: (id: Identifier) =>
    call(
      contract.webhooks().then((c) => c.WebhookDeliverySchema),
      pathOf(API.webhooks.test, { id }),
      { method: 'POST' },
    ),
  rotateWebhookSecret: (id: Identifier) =>
    call(
      contract.webhooks().then((c) => c.WebhookSecretRotatedSchema),
      pathOf(API.webhooks.rotateSecret, { id }),
      { method: 'POST' },
    ),
  webhookDeliveries: (id: Identifier, signal?: AbortSignal) =>
    call(
      contract.webhooks().then((c) => c.WebhookDeliveryListSchema),
      pathOf(API.webhooks.deliveries, { id }),
      { signal },
    ),

  /** The signed-in user's interface language (Settings), for every browser they sign in on. */
  setLanguage: (language: Language) =>
    call(
      contract.http().then((c) => c.NoContent),
      API.auth.language,
      { method: 'PUT', body: { language } },
    ),
  changePassword: (body: PasswordChange & { refreshToken: string | null }) =>
    call(
      contract.http().then((c) => c.NoContent),
      API.auth.password,
      { method: 'POST', body },
    ),
  // Two-factor sign-in (Settings; the users list for an admin).
  twoFactorStatus: () =>
    call(
      twoFactor().then((c) => c.TwoFactorStatusSchema),
      API.twoFactor.status,
    ),
  twoFactorSetup: () =>
    call(
      twoFactor().then((c) => c.TwoFactorSetupSchema),
      API.twoFactor.setup,
      { method: 'POST', body: {} },
    ),
  twoFactorEnable: (code: string) =>
    call(
      twoFactor().then((c) => c.RecoveryCodesSchema),
      API.twoFactor.enable,
      { method: 'POST', body: { code } },
    ),
  twoFactorDisable: (password: string) =>
    call(noContent(), API.twoFactor.disable, { method: 'POST', body: { password } }),
  twoFactorPolicy: () =>
    call(
      twoFactor().then((c) => c.TwoFactorPolicySchema),
      API.twoFactor.policy,
    ),
  setTwoFactorPolicy: (required: boolean) =>
    call(
      twoFactor().then((c) => c.TwoFactorPolicySchema),
      API.twoFactor.policy,
      {
        method: 'PUT',
        body: { required },
      },
    ),
  /** The audit log's CSV under the list's filters, saved as a file (admins). */
  exportAuditCsv: (filter: Record<string, unknown>) => downloadAuditCsv(filter),
  resetTwoFactor: (id: Identifier) => call(noContent(), pathOf(API.twoFactor.reset, { id }), { method: 'DELETE' }),
};
