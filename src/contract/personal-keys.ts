import { z } from 'zod';
import { toId } from './ids';
import { M } from './messages';

/** API key messages (i18n keys under kadr.api_keys). */
export const KM = {
  nameRequired: 'kadr.validation.name_required',
  tooLong: 'kadr.validation.too_long',
  expiryInvalid: 'kadr.api_keys.errors.expiry_invalid',
  expiryPast: 'kadr.api_keys.errors.expiry_past',
  /** A key used where keys never reach (keys, webhooks, passwords, two-factor) or a read-only key writing. */
  notForKeys: 'kadr.api_keys.errors.not_for_keys',
  readOnly: 'kadr.api_keys.errors.read_only',
  rateLimited: 'kadr.api_keys.errors.rate_limited',
} as const;

/** Every key starts so: a scanner (or a person) recognises a leaked one. */
export const API_KEY_PREFIX = 'kadr_';
export const API_KEY_NAME_MAX = 100;

/** `read`: GET only; `write`: everything the owner may do (except what keys never reach). */
export const API_KEY_ACCESS = ['read', 'write'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS)[number];

/** POST /api/api-keys: a name, the access, and an optional expiry (an instant in the future). */
export const ApiKeyCreateSchema = z
  .object({
    name: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : ''),
      z.string().min(1, KM.nameRequired).max(API_KEY_NAME_MAX, KM.tooLong),
    ),
    access: z.enum(API_KEY_ACCESS, { error: 'kadr.validation.invalid_value' }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true, error: KM.expiryInvalid }), z.null()], { error: KM.expiryInvalid })
      .optional(),
  })
  .meta({ example: { name: 'Spreadsheet', access: 'read', expiresAt: '2027-01-01T00:00:00Z' } });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;

/** A key as listed: never the key itself. Times are ISO instants. */
export const ApiKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    access: z.enum(API_KEY_ACCESS),
    /** The key's first characters, to tell keys apart. */
    prefix: z.string(),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({
    id: 'ApiKey',
    example: {
      id: 4,
      name: 'Spreadsheet',
      access: 'read',
      prefix: 'kadr_3fQ9xk',
      expiresAt: null,
      lastUsedAt: '2026-11-20T09:12:00.000Z',
      revokedAt: null,
      createdAt: '2026-11-01T10:00:00.000Z',
    },
  });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyListSchema = z.array(ApiKeySchema);

/** The answer to a create: the record, and the key itself, shown this once. */
export const ApiKeyCreatedSchema = z.object({ key: ApiKeySchema, token: z.string() }).meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/**
 * GET /api/api-keys?userId=: whose keys (an admin may name any user; a user only themselves). Missing: the
 * caller's own. Not a positive id: a 400 naming `userId`.
 */
export const ApiKeyListQuerySchema = z.object({
  userId: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const id = toId(v);
      if (id < 1) ctx.issues.push({ code: 'custom', message: M.invalidId, input: v });
      return id;
    })
    .meta({ description: "An admin: that user's keys (default: the caller's own)", example: '7' }),
});
