import { z } from 'zod';
import { M } from './messages';
import type { Page } from './pagination';
import { toId } from './ids';
import { OwnerSchema } from './http';

/** Create-video messages (i18n keys; the SPEC §5 strings live in i18n/uk.ts). */
export const VM = {
  required: M.required,
  countRange: 'kadr.videos.errors.count_range',
  mustBeVideo: 'kadr.validation.file_must_be_video',
  minOneVideo: 'kadr.validation.min_one_video',
  maxOneVideo: 'kadr.validation.max_one_video',
  minOneFolder: 'kadr.validation.min_one_folder',
  folderUnavailable: 'kadr.videos.errors.folder_unavailable',
  noImages: 'kadr.videos.errors.no_images',
  noVideos: 'kadr.videos.errors.no_videos',
  notMultipart: 'kadr.backgrounds.errors.not_multipart',
} as const;

/** How many videos one request may ask for. */
export const COUNT_MIN = 1;
export const COUNT_MAX = 50;

/** SPEC §9 create-video defaults. */
export const CREATE_VIDEO_DEFAULTS = { countVideo: 1, isVideo: false, isPhoto: false, isGenerator: true } as const;

/** Multipart field names of POST /api/create-video/create (SPEC §7; `folders[]` and `folders` both accepted). */
export const CREATE_VIDEO_FIELDS = {
  file: 'file',
  count: 'countVideo',
  isVideo: 'isVideo',
  isPhoto: 'isPhoto',
  isGenerator: 'isGenerator',
  folders: 'folders',
} as const;

/** SPEC §2: the request list refreshes itself this often. */
export const REQUEST_REFRESH_MS = 15_000;

export const REQUEST_STATUSES = ['pending', 'loading', 'success', 'error'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

const bool = (fallback: boolean) =>
  z.preprocess((v) => {
    if (typeof v === 'boolean') return v;
    if (v === undefined || v === null || v === '') return fallback;
    return ['true', '1', 'on', 'yes'].includes(String(v).toLowerCase());
  }, z.boolean());

/** The request's options (server: parsed from the multipart fields; panel: the form values). */
export const CreateVideoFieldsSchema = z.object({
  countVideo: z.preprocess(
    (v) =>
      v === undefined || v === null || v === ''
        ? undefined
        : typeof v === 'number'
          ? v
          : /^\s*-?\d+\s*$/.test(String(v))
            ? Number(v)
            : NaN,
    z
      .number({ error: (iss) => (iss.input === undefined ? VM.required : VM.countRange) })
      .int(VM.countRange)
      .min(COUNT_MIN, VM.countRange)
      .max(COUNT_MAX, VM.countRange),
  ),
  isVideo: bool(CREATE_VIDEO_DEFAULTS.isVideo),
  isPhoto: bool(CREATE_VIDEO_DEFAULTS.isPhoto),
  isGenerator: bool(CREATE_VIDEO_DEFAULTS.isGenerator),
  folders: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : (Array.isArray(v) ? v : [v]).map(toId)),
    z.array(z.number().int().positive(VM.minOneFolder)).min(1, VM.minOneFolder).max(100, VM.minOneFolder),
  ),
});
export type CreateVideoFields = z.infer<typeof CreateVideoFieldsSchema>;

/** A picked file, as the form holds it (a browser File; only the declared type is checked here). */
type PickedFile = { name: string; type: string };

/** SPEC §5 create-video form: countVideo required; exactly one file, a video; at least one folder. */
export const CreateVideoFormSchema = CreateVideoFieldsSchema.extend({
  files: z
    .array(z.custom<PickedFile>((f) => !!f && typeof f === 'object' && 'type' in (f as object)))
    .min(1, VM.minOneVideo)
    .max(1, VM.maxOneVideo)
    .refine((files) => files.every((f) => f.type.toLowerCase().startsWith('video/')), VM.mustBeVideo),
});
export type CreateVideoForm = z.input<typeof CreateVideoFormSchema>;

/** SPEC §3 Video creation request, plus progress (percent while rendering), the count, a readable error. */
export const CreateVideoRequestSchema = z
  .object({
    id: z.number().int(),
    idUpload: z.string(),
    status: z.enum(REQUEST_STATUSES),
    progress: z.number(),
    error: z.string().nullable().describe('A readable reason: an i18n key the panel translates'),
    count: z.number().int(),
    done: z.number().int(),
    options: z.object({
      isVideo: z.boolean(),
      isPhoto: z.boolean(),
      isGenerator: z.boolean(),
      folders: z.array(z.number().int()),
    }),
    user: OwnerSchema,
    createdAt: z.string(),
    clipName: z.string().describe("The uploaded clip's file name"),
    folderNames: z.array(z.string()).optional().describe("The chosen folders' names (lists and the detail)"),
  })
  .meta({ id: 'CreateVideoRequest' });
export type CreateVideoRequest = z.infer<typeof CreateVideoRequestSchema>;

/** A rendered output of a request: a video record ('noactive' = ready, not yet published). */
export const RenderedVideoSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  status: z.string(),
  url: z.string().nullable(),
  /** Retention removed the file (docs/retention.md): no link; the panel says so. */
  removed: z.boolean().optional(),
});
export type RenderedVideo = z.infer<typeof RenderedVideoSchema>;

/** GET /api/create-video/request/{id}: the request with its rendered videos. */
export const CreateVideoRequestDetailSchema = CreateVideoRequestSchema.extend({ video: z.array(RenderedVideoSchema) });
export type CreateVideoRequestDetail = z.infer<typeof CreateVideoRequestDetailSchema>;

export type CreateVideoRequestPage = Page<CreateVideoRequest>;

/** `/{id}`: a request's id or its idUpload. */
export const RequestRefParams = z.object({
  id: z.string().meta({ description: "The request's id or idUpload", example: '12' }),
});

/** The multipart fields of POST /api/create-video/create, for the API docs (the route streams them). */
export const CREATE_VIDEO_UPLOAD_DOC = {
  type: 'object',
  required: ['file', 'countVideo', 'folders'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'The clip (one video)' },
    countVideo: { type: 'integer', minimum: COUNT_MIN, maximum: COUNT_MAX },
    isVideo: { type: 'boolean', default: CREATE_VIDEO_DEFAULTS.isVideo, description: 'Background video' },
    isPhoto: { type: 'boolean', default: CREATE_VIDEO_DEFAULTS.isPhoto, description: 'Background picture' },
    isGenerator: { type: 'boolean', default: CREATE_VIDEO_DEFAULTS.isGenerator, description: 'Uniqueness generator' },
    folders: { type: 'array', items: { type: 'integer' }, description: 'Background folder ids (`folders[]` accepted)' },
  },
} as const;
