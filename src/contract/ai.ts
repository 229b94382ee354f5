import { z } from 'zod';
import { OwnerSchema } from './http';
import { profileIdentityFields } from './profile-identity';

/**
 * The AI service (SPEC §2 AI, §3 AI session/log/video, §4 GPT connect flow, §7 AI service): the shapes the
 * panel's second client (src/providers/aiClient.ts) and the AI service (server/ai/) share. Messages are i18n
 * keys like everywhere else; the service translates them by Accept-Language.
 */

/** SPEC §3 AI providers. */
export const AI_PROVIDERS = ['gpt', 'deepseek'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** SPEC §4 AI status badge of a session. */
export const AI_SESSION_STATUSES = ['noactive', 'loading', 'error', 'success'] as const;
export type AiSessionStatus = (typeof AI_SESSION_STATUSES)[number];

/** SPEC §4 AI log status. */
export const AI_LOG_STATUSES = ['loading', 'error', 'success'] as const;
export type AiLogStatus = (typeof AI_LOG_STATUSES)[number];

/**
 * SPEC §4 AI video status: generating (loading), ready for review (success), failed (error), handed to the
 * publishing pipeline (publication; the platform's outcome is in `publication`), rejected (its file freed;
 * rejected videos leave the /ai/video list).
 */
export const AI_VIDEO_STATUSES = ['loading', 'success', 'error', 'publication', 'rejected'] as const;
export type AiVideoStatus = (typeof AI_VIDEO_STATUSES)[number];

/** SPEC §9: the login (or code) answer's status when a verification code is needed. */
export const AI_CODE_REQUIRED = 300;

export const AIM = {
  messageRequired: 'kadr.ai_errors.message_required',
  codeRequired: 'kadr.ai_errors.code_required',
  emailRequired: 'kadr.accounts.gpt_email_missing',
} as const;

const email = z.string().trim().min(1, AIM.emailRequired).max(254);
const text = z.string().trim().min(1, AIM.messageRequired).max(20_000);

/** POST /api/ai/setting/login: the profile's GPT email, password (the provider credential) and proxy. */
export const AiLoginSchema = z.object({
  proxy: z.string().trim().max(500).optional().default(''),
  user: z.object({
    email,
    password: z.string().max(500).optional().default(''),
    idAccount: z.number().int().positive(),
  }),
});
export type AiLoginBody = z.infer<typeof AiLoginSchema>;

/**
 * The session a by-email call acts on. Sessions are per owner (one per owner and email): a user's email names
 * their own; an admin's names their own, else the one session of that email; when several other users have one,
 * `sessionId` picks it (the panel sends it wherever it knows the id) and must be a session of that email.
 */
const session = { email, sessionId: z.number().int().positive().optional() };
export type AiSessionRef = { email: string; sessionId?: number };

/** POST /api/ai/setting/login-deepseek: the same session (by email), its DeepSeek credential. */
export const AiLoginDeepSeekSchema = z.object({ ...session, password: z.string().max(500).optional().default('') });
/** /stop and /screenshot. */
export const AiEmailSchema = z.object(session);
/** /code: the verification code the operator read (SPEC §5 says "code required"; the original's message named the proxy). */
export const AiCodeSchema = z.object({ ...session, code: z.string().trim().min(1, AIM.codeRequired).max(64) });
/** /type and /type-deepseek (SPEC §5 AI message: text required). `isSora` asks for a video instead of a reply. */
export const AiTypeSchema = z.object({ ...session, text, isSora: z.boolean().optional().default(false) });
export type AiTypeBody = z.infer<typeof AiTypeSchema>;
/** /video: ask the session's chat model for a video about `text`. */
export const AiVideoRequestSchema = z.object({ ...session, text });
/** /recreate and /close. */
export const AiVideoActionSchema = z.object({ videoId: z.number().int().positive(), email: email.optional() });
/** /publication. */
export const AiPublishSchema = z.object({ videoId: z.number().int().positive() });

/** SPEC §3: other AI replies carry success and message. */
export const AiReplySchema = z.object({ success: z.boolean(), message: z.string() });
export type AiReply = z.infer<typeof AiReplySchema>;
/** SPEC §3 AI login response: success, id (the session id stored on the profile as idGPT), message, status. */
export const AiLoginReplySchema = AiReplySchema.extend({ id: z.number().int().nullable(), status: z.number().int() });
export type AiLoginReply = z.infer<typeof AiLoginReplySchema>;

/** One chat turn as shown: what the operator wrote and what the model answered, both sanitised HTML. */
export const AiMessageSchema = z.object({
  id: z.number().int(),
  provider: z.enum(AI_PROVIDERS),
  message_my: z.string(),
  message_ai: z.string().nullable(),
  createdAt: z.string(),
});
export type AiMessage = z.infer<typeof AiMessageSchema>;
export const AiChatReplySchema = AiReplySchema.extend({ messages: z.array(AiMessageSchema) });

export const AiScreenshotSchema = z.object({ id: z.number().int(), url: z.string(), createdAt: z.string() });
export type AiScreenshot = z.infer<typeof AiScreenshotSchema>;
export const AiScreenshotReplySchema = AiReplySchema.extend({ screenshots: z.array(AiScreenshotSchema) });

/**
 * POST /api/ai/setting/{action}: what each action takes and answers, for the AI service's routes and the panel's
 * client alike.
 */
export const AI_ACTIONS = {
  login: { body: AiLoginSchema, reply: AiLoginReplySchema },
  'login-deepseek': { body: AiLoginDeepSeekSchema, reply: AiLoginReplySchema },
  code: { body: AiCodeSchema, reply: AiLoginReplySchema },
  stop: { body: AiEmailSchema, reply: AiReplySchema },
  screenshot: { body: AiEmailSchema, reply: AiScreenshotReplySchema },
  type: { body: AiTypeSchema, reply: AiChatReplySchema },
  'type-deepseek': { body: AiTypeSchema, reply: AiChatReplySchema },
  video: { body: AiVideoRequestSchema, reply: AiChatReplySchema },
  recreate: { body: AiVideoActionSchema, reply: AiReplySchema },
  close: { body: AiVideoActionSchema, reply: AiReplySchema },
  publication: { body: AiPublishSchema, reply: AiReplySchema },
} as const;
export type AiAction = keyof typeof AI_ACTIONS;
/** What the panel sends (fields with a default may be left out). */
export type AiActionBody<A extends AiAction> = z.input<(typeof AI_ACTIONS)[A]['body']>;
export type AiActionReply<A extends AiAction> = z.output<(typeof AI_ACTIONS)[A]['reply']>;

/** SPEC §3 AI session (list row). The password is the owner's own secret, shown to the owner and admins. */
export const AiSessionSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  proxy: z.string(),
  isActive: z.boolean(),
  status: z.enum(AI_SESSION_STATUSES),
  errorText: z.string().nullable(),
  /** The AI provider's own words about the error (untranslated), kept apart from errorText; null when none. */
  errorDetail: z.string().nullable(),
  account: z.object({ id: z.number().int(), name: z.string(), ...profileIdentityFields }).nullable(),
  user: OwnerSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AiSession = z.infer<typeof AiSessionSchema>;

/** GET /api/ai/info/{id}?type=gpt|deepseek: the session, the chosen provider's history and the screenshots. */
export const AiSessionDetailSchema = AiSessionSchema.extend({
  password: z.string(),
  passwordDeepSeek: z.string(),
  provider: z.enum(AI_PROVIDERS),
  messages: z.array(AiMessageSchema),
  screenshots: z.array(AiScreenshotSchema),
});
export type AiSessionDetail = z.infer<typeof AiSessionDetailSchema>;

const sessionRef = z.object({ id: z.number().int(), email: z.string() }).nullable();

/** SPEC §3 AI log. */
export const AiLogSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  /** The AI provider's own words, untranslated (null when none): shown apart from `message`. */
  detail: z.string().nullable(),
  status: z.enum(AI_LOG_STATUSES),
  userSession: sessionRef,
  createdAt: z.string(),
});
export type AiLog = z.infer<typeof AiLogSchema>;

/** SPEC §3 AI video, plus its publication once published (the platform's outcome, from the publishing pipeline). */
export const AiVideoSchema = z.object({
  id: z.number().int(),
  status: z.enum(AI_VIDEO_STATUSES),
  videoUrl: z.string().nullable(),
  prompt: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  error: z.string().nullable(),
  /** The provider's own words of the error, untranslated (null when none): shown apart from `error`. */
  errorDetail: z.string().nullable(),
  userSession: sessionRef,
  publication: z
    .object({
      id: z.number().int(),
      videoId: z.number().int(),
      status: z.enum(['publication', 'loading', 'success', 'error', 'noactive']),
      error: z.string().nullable(),
      /** The platform's own words of the error, untranslated (null when none). */
      errorDetail: z.string().nullable(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type AiVideo = z.infer<typeof AiVideoSchema>;

/** PATCH /api/accounts/gpt/{id} (main API): store the AI session id on the profile. */
export const AccountGptSchema = z.object({ idGPT: z.union([z.number().int().positive(), z.string().min(1)]) });

/** What the chat model is asked for when a video is wanted (schema-checked; see server/ai/video-meta.ts). */
export const AiVideoMetaSchema = z.object({
  prompt: z.string().min(1),
  title: z.string().min(1).max(100),
  description: z.string().max(5000),
  tags: z.array(z.string()).max(30),
});
export type AiVideoMeta = z.infer<typeof AiVideoMetaSchema>;
