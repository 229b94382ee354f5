import type { Identifier } from 'ra-core';
import { z } from 'zod';
import {
  AccountRecordSchema,
  AccountWithNoticeSchema,
  AuthorizeUrlSchema,
  type ChannelDescriptionSchema,
  type InstagramProfileSchema,
} from '../contract/accounts';
import {
  AI_ACTIONS,
  AiSessionDetailSchema,
  type AiAction,
  type AiActionBody,
  type AiActionReply,
  type AiProvider,
} from '../contract/ai';
import { UPLOAD_FIELDS, UploadResultSchema } from '../contract/backgrounds';
import { API, itemOf, pathOf } from '../contract/endpoints';
import { NoContent, SelectOptionSchema } from '../contract/http';
import { LiveTicketSchema, NotificationPageSchema, NotificationSchema, ReadAllSchema } from '../contract/live';
import type { PlatformKey } from '../contract/platforms';
import { AccountOptionSchema } from '../contract/profile-identity';
import {
  AiPublishedSchema,
  ProfileConnectionsSchema,
  PublicationCreatedSchema,
  PublicationSchema,
  PublishRulesSchema,
  PublishSourceSchema,
  type PostAction,
  type PublicationCreate,
  type PublicationPatch,
} from '../contract/publications';
import type { PasswordChange } from '../contract/users';
import {
  CREATE_VIDEO_FIELDS,
  CreateVideoRequestDetailSchema,
  CreateVideoRequestSchema,
  type CreateVideoFields,
} from '../contract/videos';
import { aiClient } from './aiClient';
import { call } from './call';
import { uploadWithProgress, type UploadProgress } from './uploadWithProgress';

type OnProgress = (p: UploadProgress) => void;
const AccountOptionsSchema = z.array(AccountOptionSchema);
const SelectOptionsSchema = z.array(SelectOptionSchema);
/** The AI actions' replies, indexed so that a call's reply type follows its action. */
const AI_REPLIES: { [A in AiAction]: { reply: z.ZodType<AiActionReply<A>> } } = AI_ACTIONS;

/**
 * The dataProvider's methods beyond react-admin's CRUD (react-admin's "custom methods"): the API's actions and
 * reads that are not a resource's list or record. Each answer is parsed through its contract schema.
 */
export const customMethods = {
  // Profiles (SPEC §2 profile form and platform panels).
  syncProfile: (id: Identifier, platform: PlatformKey) =>
    call(AccountRecordSchema, pathOf(API.accounts.sync, { id }, { platform }), { method: 'POST', body: {} }),
  changeChannelDescription: (id: Identifier, body: z.input<typeof ChannelDescriptionSchema>) =>
    call(AccountRecordSchema, pathOf(API.accounts.channel, { id }), { method: 'PATCH', body }),
  changeInstagramProfile: (id: Identifier, body: z.input<typeof InstagramProfileSchema>) =>
    call(AccountWithNoticeSchema, pathOf(API.accounts.instagramProfile, { id }), { method: 'PATCH', body }),
  /** The platform's authorization link for the profile (the panel copies it to the clipboard). */
  connectLink: (platform: PlatformKey, id: Identifier) =>
    call(AuthorizeUrlSchema, pathOf(API.accounts.connect[platform], { id }), { method: 'POST' }),
  /** Stores the AI service's session id on the profile. */
  setAiSession: (id: Identifier, idGPT: number) =>
    call(AccountRecordSchema, pathOf(API.accounts.gpt, { id }), { method: 'PATCH', body: { idGPT } }),
  /** The caller's profiles as select options (a group's own members too), narrowed by `q`. */
  searchProfiles: (query: { groupId: Identifier; q?: string }, signal?: AbortSignal) =>
    call(AccountOptionsSchema, pathOf(API.accounts.search, {}, query), { signal }),

  // The AI service (its own client and base URL).
  aiAction: <A extends AiAction>(action: A, body: AiActionBody<A>): Promise<AiActionReply<A>> =>
    call(AI_REPLIES[action].reply, pathOf(API.ai.action, { action }), { method: 'POST', body, client: aiClient }),
  /** A session with one provider's whole history and its screenshots. */
  aiSession: (id: Identifier, provider: AiProvider, signal?: AbortSignal) =>
    call(AiSessionDetailSchema, itemOf(API.ai.sessions, id, { type: provider }), { signal, client: aiClient }),

  // Backgrounds.
  folderOptions: (signal?: AbortSignal) => call(SelectOptionsSchema, API.backgrounds.folderOptions, { signal }),
  /** Multipart, folderId first, then files[] and videos[]; reports the bytes sent. */
  uploadBackgrounds: (folderId: Identifier, images: File[], videos: File[], onProgress: OnProgress) => {
    const form = new FormData();
    form.append(UPLOAD_FIELDS.folder, String(folderId));
    for (const f of images) form.append(`${UPLOAD_FIELDS.images}[]`, f, f.name);
    for (const f of videos) form.append(`${UPLOAD_FIELDS.videos}[]`, f, f.name);
    return uploadWithProgress(UploadResultSchema, API.backgrounds.items, form, onProgress);
  },

  // Create-video requests.
  /** A request (by id or idUpload) with its rendered videos. */
  renderRequest: (id: string, signal?: AbortSignal) =>
    call(CreateVideoRequestDetailSchema, pathOf(API.videos.request, { id }), { signal }),
  /** Multipart: the fields first, the file last, so the server knows the options before the bytes arrive. */
  createVideoRequest: (fields: CreateVideoFields, file: File, onProgress: OnProgress) => {
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
  publishRules: (signal?: AbortSignal) => call(PublishRulesSchema, API.publications.rules, { signal }),
  /** What the publish form starts from: a request's outputs (by idUpload) or one AI video. */
  publishSource: (kind: 'request' | 'ai', id: string, signal?: AbortSignal) =>
    call(PublishSourceSchema, pathOf(kind === 'ai' ? API.publications.aiForm : API.publications.requestForm, { id }), {
      signal,
    }),
  /** The platforms each of the profiles is connected to. */
  connections: (accounts: readonly number[], signal?: AbortSignal) =>
    call(ProfileConnectionsSchema, pathOf(API.publications.connections, {}, { accounts: accounts.join(',') }), {
      signal,
    }),
  /** A publication, by its id or its request's idUpload. */
  publication: (ref: string, signal?: AbortSignal) =>
    call(PublicationSchema, itemOf(API.publications.collection, ref), { signal }),
  publishRequest: (idUpload: string, body: PublicationCreate) =>
    call(PublicationCreatedSchema, itemOf(API.publications.collection, idUpload), { method: 'POST', body }),
  publishAiVideo: (id: string, body: PublicationCreate) =>
    call(AiPublishedSchema, pathOf(API.publications.aiPublish, { id }), { method: 'POST', body }),
  changePublication: (id: Identifier, body: PublicationPatch) =>
    call(PublicationCreatedSchema, itemOf(API.publications.collection, id), { method: 'PATCH', body }),
  /** Publishes one video of a publication again. */
  publishAgain: (videoId: number, publicationId: number) =>
    call(PublicationSchema, API.publications.publishAgain, {
      method: 'POST',
      body: { videoId, youTubeId: publicationId },
    }),
  removeFromPublication: (videoId: number) =>
    call(PublicationSchema, pathOf(API.publications.video, { videoId }), { method: 'DELETE' }),
  /** Retry now, cancel, or read the stats now of one post (a video on one platform). */
  postAction: (videoId: number, platform: PlatformKey, action: PostAction) =>
    call(PublicationSchema, pathOf(API.publications.post, { videoId, platform, action }), { method: 'POST' }),

  // Live updates and the bell.
  liveTicket: () => call(LiveTicketSchema, API.live.ticket, { method: 'POST' }),
  notifications: (page: number, signal?: AbortSignal) =>
    call(NotificationPageSchema, pathOf(API.live.notifications, {}, { page }), { signal }),
  readNotification: (id: number) => call(NotificationSchema, pathOf(API.live.read, { id }), { method: 'POST' }),
  readAllNotifications: () => call(ReadAllSchema, API.live.readAll, { method: 'POST' }),

  // Settings.
  /** Ends every other session of the user; `refreshToken` names this one, which stays. */
  changePassword: (body: PasswordChange & { refreshToken: string | null }) =>
    call(NoContent, API.auth.password, { method: 'POST', body }),
};
