import * as z from 'zod/mini';
import { profileIdentityFields } from './profile-identity';
import { M } from './messages';
import { ROLES } from './roles';

const required = (...checks: Array<z.core.$ZodCheck<string>>) =>
  z.string({ error: M.required }).check(z.minLength(1, M.required), ...checks);
const newPassword = () => required(z.minLength(6, M.tooShort), z.maxLength(50, M.tooLong));
const login = () => required(z.minLength(2, M.tooShort), z.maxLength(50, M.tooLong));

/** SPEC §5 user form: login required; password 6–50, required even when editing; repeat must match. */
export const UserFormSchema = z
  .object({
    login: login(),
    password: newPassword(),
    repeatPassword: required(),
    role: z.optional(z.enum(ROLES)),
    needsApproval: z.optional(z.nullable(z.boolean())),
  })
  .check(z.refine((v) => v.password === v.repeatPassword, { path: ['repeatPassword'], message: M.passwordsMismatch }));

/** Editing: an empty password keeps the current one (issue 18: renaming a user no longer asks for it). */
const keptPassword = () =>
  z.pipe(
    z.transform((v: unknown) => (v === '' || v == null ? undefined : v)),
    z.optional(newPassword()),
  );

/** The user form when editing: the same rules, but the password and its repeat may both stay empty. */
export const UserEditFormSchema = z
  .object({
    login: login(),
    password: keptPassword(),
    repeatPassword: z.nullish(z.string()),
    role: z.optional(z.enum(ROLES)),
    needsApproval: z.optional(z.nullable(z.boolean())),
  })
  .check(
    z.refine((v) => (v.password ?? '') === (v.repeatPassword ?? ''), {
      path: ['repeatPassword'],
      message: M.passwordsMismatch,
    }),
  );

/** PATCH /api/users/{id}: like the create body, but a missing or empty password keeps the current one. */
export const UserPatchSchema = z
  .object({
    login: login(),
    password: keptPassword(),
    role: z.optional(z.enum(ROLES, { error: M.required })),
    /** Issue 23: this user's publications wait for an admin's approval before they go out. */
    needsApproval: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { example: { login: 'operator', role: 'user' } });
export type UserPatch = z.infer<typeof UserPatchSchema>;

/** What the API accepts: the form without the repeat (the panel checks it). */
export const UserBodySchema = z
  .object({
    login: login(),
    password: newPassword(),
    role: z.optional(z.enum(ROLES, { error: M.required })),
    /** Issue 23: this user's publications wait for an admin's approval before they go out. */
    needsApproval: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { example: { login: 'operator', password: 'secret-pass', role: 'user' } });
export type UserBody = z.infer<typeof UserBodySchema>;

/** Settings: change your own password. */
export const PasswordChangeSchema = z
  .object({
    currentPassword: required(),
    newPassword: newPassword(),
    repeatPassword: required(),
  })
  .check(
    z.refine((v) => v.newPassword === v.repeatPassword, { path: ['repeatPassword'], message: M.passwordsMismatch }),
  );
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/** SPEC §3 User as the API returns it (never the password hash). */
export const UserRecordSchema = z
  .object({
    id: z.int(),
    login: z.string(),
    role: z.enum(ROLES),
    needsApproval: z.boolean(),
    videosCount: z.int(),
    accountsCount: z.int(),
    createdAt: z.string(),
    /** Two-factor sign-in is on (migration 028). */
    twoFactor: z.boolean(),
  })
  .register(z.globalRegistry, {
    id: 'User',
    example: {
      id: 2,
      login: 'operator',
      role: 'user',
      needsApproval: false,
      videosCount: 4,
      accountsCount: 3,
      createdAt: '2026-01-05T10:00:00.000Z',
    },
  });
export type UserRecord = z.infer<typeof UserRecordSchema>;

/** A row of GET /api/users/{id}/account. */
export const UserAccountItemSchema = z.object({
  id: z.int(),
  name: z.string(),
  comments: z.nullable(z.string()),
  handles: profileIdentityFields.handles,
  status: z.string(),
  isActiveYouTube: z.boolean(),
  isActiveTikTok: z.boolean(),
  isActiveInstagram: z.boolean(),
  createdAt: z.string(),
});

/** A row of GET /api/users/{id}/video. */
export const UserVideoItemSchema = z.object({
  id: z.int(),
  status: z.string(),
  createdAt: z.string(),
  account: z.nullable(z.object({ id: z.int() })),
});
