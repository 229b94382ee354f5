import { z } from 'zod';
import { pageField } from './http';
import { M } from './messages';
import { instantField } from './dates';

/**
 * The audit log (server/audit): who did what, to which object, when and from which address. The actions the
 * code records; a new one is added here (the admin screen's filter lists them) and recorded with
 * server/audit/audit.ts `record`.
 */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.two_factor_failed',
  'auth.password_changed',
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.reset',
  'two_factor.recovery_used',
  'two_factor.policy_changed',
  'user.created',
  'user.updated',
  'user.password_changed',
  'user.role_changed',
  'user.deleted',
  'profile.secrets_changed',
  'publication.created',
  'publication.moved',
  'publication.deleted',
  'publication.approved',
  'publication.rejected',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of object the actions record (`objectType`); the admin screen names them in the reader's language. */
export const AUDIT_OBJECT_TYPES = ['user', 'profile', 'publication', 'post', 'api_key', 'webhook'] as const;

const text = (max: number) =>
  z
    .string()
    .max(max, M.tooLong)
    .optional()
    .transform((v) => v?.trim() || undefined);

/** `GET /api/audit` (and its CSV export): every filter optional; `from`/`to` bound the time, both included. */
export const AuditQuerySchema = z.object({
  page: pageField,
  actor: text(100).meta({ description: 'Actor login (case-insensitive substring)' }),
  action: text(60).meta({ description: 'Action, exactly (see AUDIT_ACTIONS)', example: 'auth.sign_in' }),
  objectType: text(40).meta({ description: 'Object type, exactly', example: 'user' }),
  objectId: text(100).meta({ description: 'Object id, exactly', example: '12' }),
  from: instantField().optional(),
  to: instantField().optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
export type AuditFilter = Omit<AuditQuery, 'page'>;

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actorId: z.number().int().nullable(),
    actorLogin: z.string().nullable(),
    action: z.string(),
    objectType: z.string().nullable(),
    objectId: z.string().nullable(),
    ip: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({
    id: 'AuditEntry',
    example: {
      id: 7,
      at: '2026-11-26T10:00:00.000Z',
      actorId: 1,
      actorLogin: 'admin',
      action: 'user.role_changed',
      objectType: 'user',
      objectId: '12',
      ip: '203.0.113.7',
      detail: { from: 'user', to: 'admin' },
    },
  });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
