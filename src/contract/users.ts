import { z } from 'zod';
import { M } from './messages';
import { ROLES, type Role } from './roles';

const required = () => z.string({ error: M.required }).min(1, M.required);
const newPassword = () => required().min(6, M.tooShort).max(50, M.tooLong);

/** SPEC §5 user form: login required; password 6–50, required even when editing; repeat must match. */
export const UserFormSchema = z
  .object({
    login: required().min(2, M.tooShort).max(50, M.tooLong),
    password: newPassword(),
    repeatPassword: required(),
    role: z.enum(ROLES).optional(),
  })
  .refine((v) => v.password === v.repeatPassword, { path: ['repeatPassword'], message: M.passwordsMismatch });

/** What the API accepts: the form without the repeat (the panel checks it). */
export const UserBodySchema = z.object({
  login: required().min(2, M.tooShort).max(50, M.tooLong),
  password: newPassword(),
  role: z.enum(ROLES, { error: M.required }).optional(),
});
export type UserBody = z.infer<typeof UserBodySchema>;

/** Settings: change your own password. */
export const PasswordChangeSchema = z
  .object({
    currentPassword: required(),
    newPassword: newPassword(),
    repeatPassword: required(),
  })
  .refine((v) => v.newPassword === v.repeatPassword, { path: ['repeatPassword'], message: M.passwordsMismatch });
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

export type UserRecord = { id: number; login: string; role: Role; videosCount: number; accountsCount: number; createdAt: string };
